"""Home page and lobby: the rooms with their last hour's figures, the waiting lists, the Sit & Go
tournaments with their registration (RULES.md 8), and the scheduled tournaments with theirs:
late registration and re-entry (RULES.md 9)."""

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from casino.errors import DomainError
from holdem.models import TournamentKind
from holdem.selectors.game_state import epoch_ms
from holdem.selectors.lobby_page import (
    DEFAULT_VIEW,
    lobby_page_frame,
    lobby_view_from_query,
    rooms_page,
    sit_and_gos_page,
    tournaments_page,
)
from holdem.selectors.multi_table import NOT_ENTERED, mtt_entries_of, mtt_summary
from holdem.selectors.tournament_page import tournament_kind
from holdem.selectors.tournaments import sit_and_go_summary
from holdem.selectors.waiting_list import waiting_lines_of
from holdem.services import table_switch
from holdem.services.multi_table import mtt_register
from holdem.services.tournaments import tournament_register, tournament_unregister
from holdem.services.waiting import waiting_join, waiting_leave, waiting_offer_held


def home(request):
    if request.user.is_authenticated:
        return redirect("lobby")
    return render(request, "home.html")


@login_required
def lobby(request):
    # The first page of every room, as a lobby socket's first frame has it; the page's script
    # then asks its socket for the player's own filter and page. The page marks the room where
    # the viewer has a seat: lobby frames name players by username.
    now = timezone.now()
    first = lobby_page_frame(
        DEFAULT_VIEW, rooms_page(DEFAULT_VIEW), sit_and_gos_page(), tournaments_page()
    )
    rooms = first["rooms"]
    # The viewer's own entries in the scheduled tournaments listed (the lobby frames, the same
    # for everyone, do not say who entered): what their rows offer (Register, Re-enter...).
    yours = mtt_entries_of(request.user, [t["id"] for t in first["tournaments"]])
    lines = waiting_lines_of(request.user, now=now)
    by_room = {line["table_id"]: line for line in lines}
    return render(
        request,
        "lobby/lobby.html",
        {
            "rooms": rooms,
            "lobby_page": {
                k: v for k, v in first.items() if k not in ("rooms", "sit_and_gos", "tournaments")
            },
            "rows": [
                {
                    "room": room,
                    "line": by_room.get(room["id"]),
                    "free": room["seats"] - room["taken"] - room["reserved"],
                }
                for room in rooms
            ],
            "sit_and_gos": first["sit_and_gos"],
            "tournaments": [
                {**t, "you": yours.get(t["id"], NOT_ENTERED)} for t in first["tournaments"]
            ],
            "your_entries": {str(pk): part for pk, part in yours.items()},
            "viewer": {"username": request.user.get_username()},
            "waiting": {"entries": lines, "now": epoch_ms(now)},
        },
    )


@login_required
@require_GET
def rooms_now(request):
    """One page of the open rooms as the lobby shows it, with their figures and the totals, under
    the filter in the query (docs/protocol.md, `GET /lobby/rooms/`): for the lobby without its
    socket and a table page's room switcher, without a lobby socket of its own. Read through a
    cache of a moment per filter and page (holdem/selectors/lobby_page.py)."""
    try:
        view = lobby_view_from_query(dict(request.GET.lists()))
    except DomainError as error:
        return _refused(error)
    page = rooms_page(view)
    answer = {k: v for k, v in page.items() if k != "read_at"}
    response = JsonResponse({**answer, "view": {**view.as_dict(), "page": page["page"]}})
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


@login_required
@require_POST
def tournament_register_view(request, tournament_id):
    """RULES.md 9: enter a scheduled tournament: before the start, late while registration is
    open (seated at once; the player's socket says where), or again after being knocked out
    where re-entry is allowed. The answer is the tournament as the lobby lists it and the
    player's own part of it."""
    return _tournament(
        request, tournament_id, lambda: mtt_register(tournament_id=tournament_id, user=request.user)
    )


@login_required
@require_POST
def tournament_unregister_view(request, tournament_id):
    """RULES.md 9 (as 8): unregister before the start (the buy-in and the fee come back). A Sit &
    Go is left through its own endpoint, whose answer is its own shape."""
    if tournament_kind(tournament_id) == TournamentKind.SIT_AND_GO:
        return _refused(NOT_A_SCHEDULED_ONE)
    return _tournament(
        request,
        tournament_id,
        lambda: tournament_unregister(tournament_id=tournament_id, user=request.user),
    )


NOT_A_SCHEDULED_ONE = DomainError(
    "not_scheduled", "this is a Sit & Go: unregister in its lobby row"
)


def _tournament(request, tournament_id, change):
    try:
        tournament = change()
    except DomainError as error:
        return _refused(error)
    you = mtt_entries_of(request.user, [tournament_id]).get(tournament_id, NOT_ENTERED)
    response = JsonResponse({"tournament": mtt_summary(tournament), "you": you})
    response["Cache-Control"] = "no-store"
    return response


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
    refused = {"code": error.code, "message": error.message}
    if error.fields:
        refused["fields"] = error.fields
    return JsonResponse({"error": refused}, status=400)
