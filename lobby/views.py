"""Home page and lobby: the rooms with their last hour's figures, the waiting lists, and the Sit &
Go tournaments with their registration (RULES.md 8)."""

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from casino.errors import DomainError
from holdem.selectors.game_state import epoch_ms
from holdem.selectors.lobby import rooms_for_lobby, rooms_with_figures
from holdem.selectors.tournaments import sit_and_go_summary, sit_and_gos_for_lobby
from holdem.selectors.waiting_list import waiting_lines_of
from holdem.services import table_switch
from holdem.services.tournaments import tournament_register, tournament_unregister
from holdem.services.waiting import waiting_join, waiting_leave, waiting_offer_held


def home(request):
    if request.user.is_authenticated:
        return redirect("lobby")
    return render(request, "home.html")


@login_required
def lobby(request):
    # The page marks the room where the viewer has a seat: lobby frames name players by username.
    now = timezone.now()
    rooms = rooms_with_figures(rooms_for_lobby(), now=now)
    lines = waiting_lines_of(request.user, now=now)
    by_room = {line["table_id"]: line for line in lines}
    return render(
        request,
        "lobby/lobby.html",
        {
            "rooms": rooms,
            "rows": [
                {
                    "room": room,
                    "line": by_room.get(room["id"]),
                    "free": room["seats"] - room["taken"] - room["reserved"],
                }
                for room in rooms
            ],
            "sit_and_gos": sit_and_gos_for_lobby(),
            "viewer": {"username": request.user.get_username()},
            "waiting": {"entries": lines, "now": epoch_ms(now)},
        },
    )


@login_required
@require_GET
def rooms_now(request):
    """The open rooms as the lobby shows them, with their figures: for the lobby to refresh the
    figures (room frames carry none) and a table page's room switcher to stay current without a
    lobby socket of its own."""
    response = JsonResponse({"rooms": rooms_with_figures(rooms_for_lobby())})
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
def waiting_now(request):
    """The lines the player stands in, each as a `waiting` frame (docs/protocol.md)."""
    return _lines(request)


@login_required
@require_POST
def waiting_join_view(request, table_id):
    return _answer(request, lambda: waiting_join(table_id=table_id, user=request.user))


@login_required
@require_POST
def waiting_leave_view(request, table_id):
    """Leave the line; a seat offered is declined (it goes to the next in line)."""
    return _answer(request, lambda: waiting_leave(table_id=table_id, user=request.user))


@login_required
@require_POST
def waiting_take_view(request, table_id):
    """Take the seat offered: give up a seat held elsewhere (RULES.md 2, as a switch of rooms
    does), then go to the table, whose page opens the buy-in for the seat held."""
    try:
        seat = waiting_offer_held(table_id=table_id, user=request.user)
        table_switch(user=request.user, to_table_id=table_id)
    except DomainError as error:
        return _refused(error)
    url = reverse("table", args=[table_id]) + f"?take_seat={seat}"
    return JsonResponse({"url": url, "seat": seat})


@login_required
@require_POST
def sit_and_go_register_view(request, tournament_id):
    """RULES.md 8: register in a Sit & Go (the buy-in and the fee leave the wallet); the answer is
    the tournament as the lobby lists it."""
    return _sit_and_go(lambda: tournament_register(tournament_id=tournament_id, user=request.user))


@login_required
@require_POST
def sit_and_go_unregister_view(request, tournament_id):
    """RULES.md 8: unregister before the start (the buy-in and the fee come back)."""
    return _sit_and_go(
        lambda: tournament_unregister(tournament_id=tournament_id, user=request.user)
    )


def _sit_and_go(change):
    try:
        tournament = change()
    except DomainError as error:
        return _refused(error)
    response = JsonResponse({"sit_and_go": sit_and_go_summary(tournament)})
    response["Cache-Control"] = "no-store"
    return response


def _answer(request, change):
    try:
        change()
    except DomainError as error:
        return _refused(error)
    return _lines(request)


def _lines(request):
    now = timezone.now()
    response = JsonResponse(
        {"entries": waiting_lines_of(request.user, now=now), "now": epoch_ms(now)}
    )
    response["Cache-Control"] = "no-store"
    return response


def _refused(error: DomainError):
    return JsonResponse({"error": {"code": error.code, "message": error.message}}, status=400)
