"""Hand history pages: the player's own recent hands, each hand's record and replayer, and a
PokerStars-format download of each; the table page, the statistics, a Sit & Go's results and a
scheduled tournament's own page with its live figures."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import DEFAULT_DB_ALIAS
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.dateparse import parse_datetime
from django.utils.text import capfirst
from django.views.decorators.http import require_GET

from casino.db_routing import read_db
from casino.errors import DomainError
from holdem.history.pokerstars import pokerstars_text
from holdem.history.replayer import hand_replay
from holdem.models import (
    HandRecord,
    Seat,
    Table,
    TableKind,
    TableStatus,
    Tournament,
    TournamentKind,
)
from holdem.selectors.closed_names import hand_as_shown, hands_as_shown
from holdem.selectors.fairness import hand_fairness
from holdem.selectors.hand_history import finished_hand, hand_before, hand_summary_for, hands_of
from holdem.selectors.lobby_page import rooms_page
from holdem.selectors.stats import chip_chart, leaderboards, player_stats
from holdem.selectors.tournament_page import tournament_kind, tournament_page_data
from holdem.selectors.tournaments import tournament_results, tournament_stats
from holdem.services import table_switch, wallet_refill


@login_required
def hand_list(request):
    # Each hand's record is replayed from its action log: one query for all the logs.
    records = hands_of(request.user, limit=30).prefetch_related("actions")
    hands = [hand_summary_for(record, request.user) for record in hands_as_shown(records)]
    # Read from the replica when there is one: a hand that has just ended may not be listed yet.
    return render(
        request, "holdem/hands.html", {"hands": hands, "may_lag": read_db() != DEFAULT_DB_ALIAS}
    )


def _visible_hand(request, hand_id) -> HandRecord:
    record = finished_hand(hand_id)
    if record is None:
        raise Http404("no such finished hand")
    if not request.user.is_staff and not record.participants.filter(user=request.user).exists():
        raise Http404("not one of your hands")
    return hand_as_shown(record)  # RULES.md 10: a closed account under its name of now


@login_required
def hand_detail(request, hand_id):
    """The hand's complete record and its replayer (static/js/replay.js draws the steps)."""
    record = _visible_hand(request, hand_id)
    hand = {
        **hand_summary_for(record, request.user),
        "previous_hand_id": hand_before(record, request.user),
        # RULES.md 8: a tournament's hand links to the tournament's results page.
        "tournament_id": (record.tournament or {}).get("id"),
    }
    replay = {
        **hand_replay(record, viewer_seat=hand["your_seat"]),
        "card_back": request.user.card_back,
    }
    fairness = hand_fairness(record, request.user.pk)
    return render(
        request, "holdem/hand.html", {"hand": hand, "replay": replay, "fairness": fairness}
    )


@login_required
def hand_json(request, hand_id):
    """The hand page as JSON: its record as the viewer may read it, and the deck commitment's
    reveal (docs/fairness.md), for a verifier of one's own (bin/verify-hand reads it)."""
    record = _visible_hand(request, hand_id)
    return JsonResponse(
        {
            **hand_summary_for(record, request.user),
            "fairness": hand_fairness(record, request.user.pk),
        }
    )


@login_required
def hand_download(request, hand_id):
    record = _visible_hand(request, hand_id)
    response = HttpResponse(
        pokerstars_text(record, viewer_id=request.user.pk), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="hand-{record.pk}.txt"'
    return response


@login_required
def table_page(request, table_id):
    """The table: the page is a shell; everything live arrives over ws/table/<id>/."""
    # A finished Sit & Go's table stays to be looked at (its panel holds the result).
    table = get_object_or_404(
        Table.objects.exclude(status=TableStatus.CLOSED, kind=TableKind.CASH), pk=table_id
    )
    held = (
        Seat.objects.filter(user=request.user).exclude(table=table).select_related("table").first()
    )
    # The room switcher: the lobby's first page (a page at a time, however many rooms are open).
    rooms = rooms_page()["rooms"]
    # What the table client needs before its socket answers (static/js/table.js reads it).
    client = {
        "table_id": table.pk,
        "name": table.name,
        "seats": table.seats,
        "user_id": request.user.pk,
        "username": request.user.username,
        "rooms": rooms,
        "seated_elsewhere": {"table_id": held.table_id, "name": held.table.name} if held else None,
    }
    return render(
        request,
        "holdem/table.html",
        {
            "table": table,
            "seated_elsewhere": held.table if held else None,
            "rooms": rooms,
            "client": client,
        },
    )


@login_required
def table_enter(request, table_id):
    """POST from the lobby or a table: switch rooms (RULES.md 2), then show the table."""
    if request.method != "POST":
        return redirect("table", table_id)
    try:
        table_switch(user=request.user, to_table_id=table_id)
    except DomainError as error:
        messages.error(request, error.message)
        held = request.user.seat.table_id if hasattr(request.user, "seat") else None
        return redirect("table", held) if held else redirect("lobby")
    return redirect("table", table_id)


@login_required
def stats_page(request):
    """The player's own numbers over every hand they finished, and their chips over time."""
    stats = player_stats(request.user)
    return render(
        request,
        "holdem/stats.html",
        {
            "stats": stats,
            "chart": chip_chart(stats.history),
            "tournaments": tournament_stats(request.user),
        },
    )


@login_required
def tournament_page(request, tournament_id):
    """A tournament's page. RULES.md 8: a Sit & Go's results: its places and prizes, and its
    hands. RULES.md 9: a scheduled tournament's live page (scheduled_tournament_page). Any
    signed-in player may read it (the lobby links it); a hand opens for those dealt into it, as
    always."""
    kind = tournament_kind(tournament_id)
    if kind is None:
        raise Http404("no such tournament")
    if kind == TournamentKind.SCHEDULED:
        return scheduled_tournament_page(request, tournament_id)
    try:
        results = tournament_results(tournament_id, viewer=request.user)
    except Tournament.DoesNotExist:
        raise Http404("no such tournament") from None
    tournament = results["tournament"]
    return render(
        request,
        "holdem/tournament.html",
        {
            "tournament": tournament,
            "entrants": results.get("entrants", tournament.get("entrants")),
            "started_at": _moment(tournament.get("started_at")),
            "finished_at": _moment(tournament.get("finished_at")),
            "places": results["places"],
            "hands": [
                {
                    **hand,
                    "started_at": _moment(hand.get("started_at")),
                }
                for hand in results["hands"]
            ],
            "your_hands": {hand["id"] for hand in results["hands"] if hand["yours"]},
            "viewer": request.user.get_username(),
        },
    )


def scheduled_tournament_page(request, tournament_id):
    """RULES.md 9: the status, the start, the level and the time to the next, hand for hand,
    the entrants and players left, the prize pool and what each place pays, the tables with
    their players and stacks (each to watch), the players out with their places, and the
    hands. static/js/tournament-page.js keeps it current from live.json."""
    try:
        page = tournament_page_data(tournament_id, request.user)
    except Tournament.DoesNotExist:
        raise Http404("no such tournament") from None
    return render(
        request,
        "holdem/scheduled_tournament.html",
        {"page": page, "tournament": page["tournament"], "viewer": request.user.get_username()},
    )


@login_required
@require_GET
def tournament_live(request, tournament_id):
    """The scheduled tournament's page as JSON (docs/protocol.md, "The tournament page"), which
    the page asks for every few seconds. A Sit & Go has none: its table shows its panel."""
    if tournament_kind(tournament_id) != TournamentKind.SCHEDULED:
        raise Http404("no such scheduled tournament")
    try:
        page = tournament_page_data(tournament_id, request.user)
    except Tournament.DoesNotExist:
        raise Http404("no such tournament") from None
    response = JsonResponse(page)
    response["Cache-Control"] = "no-store"
    return response


def _moment(value):
    """A datetime from the selector, or the ISO text of one, for the `date` filter."""
    return parse_datetime(value) if isinstance(value, str) else value


@login_required
def leaderboard_page(request):
    """The biggest winners of the last 7 days, the last 30 days and all time."""
    return render(request, "holdem/leaderboard.html", {"boards": leaderboards()})


@login_required
def refill_claim(request):
    """POST from the lobby or the profile: free chips for a broke player, the answer shown as a
    message on the page the claim came from."""
    if request.method != "POST":
        return redirect("profile")
    try:
        entry = wallet_refill(user=request.user)
    except DomainError as error:
        messages.error(request, f"{capfirst(error.message)}.")
    else:
        messages.success(
            request,
            f"{entry.amount:,} free chips are in your wallet: your balance is "
            f"{entry.balance_after:,}.",
        )
    return redirect("lobby" if request.POST.get("back_to") == "lobby" else "profile")
