"""The Sit & Go reads (RULES.md 8): a tournament as the lobby lists it, the panel its table
shows, its results page, and a player's tournaments and their figures.

The shapes are the ones docs/protocol.md gives for the `sit_and_go` frame and the table view's
`tournament` part.
"""

from datetime import timedelta
from typing import Any

from django.db.models import Case, Q, Value, When
from django.urls import reverse
from django.utils import timezone

from casino.accounts.models import User
from casino.db_routing import read_db
from holdem.engine.tournament import level_blinds, payout_percents, prizes
from holdem.models import (
    HandRecord,
    Table,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
)
from holdem.selectors.game_state import epoch_ms

# How long a finished or cancelled tournament stays in the lobby's lists.
LISTED_AFTER_END = timedelta(hours=1)


def results_url(tournament_id: int) -> str:
    """The results page's address (casino/urls.py, `tournament_results`)."""
    return f"/tournaments/{tournament_id}/"


def level_of(tournament: Tournament, index: int) -> dict[str, int]:
    """Level `index` (from 0) of the tournament's schedule as the pages show it (from 1)."""
    small, big, ante = level_blinds(tournament.blind_schedule, index)
    return {"level": index + 1, "small_blind": small, "big_blind": big, "ante": ante}


def prize_table(tournament: Tournament) -> list[int]:
    """RULES.md 8: the prize of each place paid, best first, for the entrants it has (the seats,
    before it starts: the pool once it fills)."""
    entrants = tournament.entrants or tournament.seats
    pool = tournament.prize_pool or tournament.buy_in * entrants
    return prizes(pool, payout_percents(entrants, tournament.payouts))


def sit_and_go_summary(tournament: Tournament, players: list[str] | None = None) -> dict[str, Any]:
    """The Sit & Go as the lobby lists it (docs/protocol.md, `sit_and_go`). `players`: the
    usernames registered, in order, if the caller has them."""
    if players is None:
        players = list(
            tournament.entries.order_by("registered_at", "id").values_list(
                "user__username", flat=True
            )
        )
    table_id = tournament.table_id
    paid = prize_table(tournament)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "seats": tournament.seats,
        "registered": len(players),
        "players": players,
        "structure": tournament.structure,
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "starting_stack": tournament.starting_stack,
        "level_seconds": tournament.level_seconds,
        "level_minutes": tournament.level_seconds / 60,
        "prize_pool": tournament.prize_pool or tournament.buy_in * tournament.seats,
        "places_paid": len(paid),
        "prizes": paid,
        "table_id": table_id,
        "table_url": reverse("table", args=[table_id]) if table_id else None,
        "results_url": results_url(tournament.pk),
    }


def sit_and_gos_for_lobby() -> list[dict[str, Any]]:
    """The lobby's Sit & Go list: those taking entries, then those running, then those that
    ended in the last hour."""
    return sit_and_gos_listed(None)[0]


def sit_and_gos_listed(limit: int | None) -> tuple[list[dict[str, Any]], int]:
    """The first `limit` of the lobby's Sit & Go list (sit_and_gos_for_lobby; None: all of them),
    ordered in SQL, and how many the whole list holds."""
    recent = timezone.now() - LISTED_AFTER_END
    # The scheduled tournaments have a list of their own (multi_table.scheduled_listed).
    listed = Tournament.objects.filter(kind=TournamentKind.SIT_AND_GO).filter(
        Q(status__in=[TournamentStatus.REGISTERING, TournamentStatus.RUNNING])
        | Q(finished_at__gte=recent)
    )
    order = Case(
        When(status=TournamentStatus.REGISTERING, then=Value(0)),
        When(status=TournamentStatus.RUNNING, then=Value(1)),
        default=Value(2),
    )
    ordered = (
        listed.annotate(listed_order=order)
        .order_by("listed_order", "template_id", "-pk")
        .prefetch_related("tables")  # each summary's table, in one query for the list
    )
    tournaments = list(ordered if limit is None else ordered[:limit])
    total = len(tournaments) if limit is None or len(tournaments) < limit else listed.count()
    names: dict[int, list[str]] = {t.pk: [] for t in tournaments}
    rows = TournamentEntry.objects.filter(tournament__in=tournaments).order_by(
        "registered_at", "id"
    )
    for tournament_id, username in rows.values_list("tournament_id", "user__username"):
        names[tournament_id].append(username)
    return [sit_and_go_summary(t, names[t.pk]) for t in tournaments], total


def tournament_of_table(table: Table) -> Tournament | None:
    """The tournament played at `table` (None at a cash table)."""
    return (
        Tournament.objects.filter(pk=table.tournament_id).first() if table.tournament_id else None
    )


def tournament_panel(tournament: Tournament) -> dict[str, Any]:
    """What the tournament's table shows beside the felt (docs/protocol.md, `tournament`)."""
    entries = list(tournament.entries.select_related("user").order_by("place", "id"))
    placed = [e for e in entries if e.place is not None]
    running = tournament.status == TournamentStatus.RUNNING
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "results_url": results_url(tournament.pk),
        **level_of(tournament, tournament.level),
        "next_level": level_of(tournament, tournament.level + 1),
        "level_ends_at": epoch_ms(tournament.level_ends_at) if running else None,
        "players_left": len(entries) - len(placed),
        "entrants": tournament.entrants,
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "starting_stack": tournament.starting_stack,
        "prize_pool": tournament.prize_pool,
        "prizes": [
            {"place": place, "prize": prize}
            for place, prize in enumerate(prize_table(tournament), start=1)
        ],
        "finished": [
            {"username": e.user.username, "place": e.place, "prize": e.prize} for e in placed
        ],
    }


def tournament_results(tournament_id: int, viewer: User | None = None) -> dict[str, Any]:
    """The results page: the tournament, its places and prizes, and its hands, each marked
    `yours` when `viewer` may open it (the hand page's rule: dealt into it, or staff)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    entries = list(tournament.entries.select_related("user").order_by("place", "registered_at"))
    hands = HandRecord.objects.filter(table__tournament=tournament).order_by("started_at", "id")
    hands = hands.only("id", "number", "started_at", "tournament", "options")
    if viewer is not None and viewer.is_staff:
        yours = {hand.pk for hand in hands}
    elif viewer is not None:
        yours = set(hands.filter(participants__user=viewer).values_list("pk", flat=True))
    else:
        yours = set()
    return {
        "tournament": {
            **sit_and_go_summary(tournament, [e.user.username for e in entries]),
            "started_at": tournament.started_at,
            "finished_at": tournament.finished_at,
            "entrants": tournament.entrants,
        },
        "places": [
            {
                "place": e.place,
                "username": e.user.username,
                "prize": e.prize,
                "out_in_hand_id": e.out_in_hand_id,
            }
            for e in entries
        ],
        "hands": [
            {
                "id": hand.pk,
                "number": hand.number,
                "started_at": hand.started_at,
                "level": (hand.tournament or {}).get("level"),
                "small_blind": hand.options.get("small_blind"),
                "big_blind": hand.options.get("big_blind"),
                "ante": hand.options.get("ante", 0),
                "yours": hand.pk in yours,
            }
            for hand in hands
        ],
    }


def tournaments_of(user: User) -> list[dict[str, Any]]:
    """The tournaments the player entered, the latest first."""
    entries = TournamentEntry.objects.filter(user=user).select_related("tournament")
    return [
        {
            "id": e.tournament_id,
            "name": e.tournament.name,
            "status": e.tournament.status,
            "place": e.place,
            "prize": e.prize,
            "entrants": e.tournament.entrants,
            "buy_in": e.tournament.buy_in,
            "fee": e.tournament.fee,
            "finished_at": e.finished_at.isoformat() if e.finished_at else None,
            "results_url": results_url(e.tournament_id),
        }
        for e in entries.order_by("-tournament_id")
    ]


def tournament_stats(user: User) -> dict[str, Any]:
    """The statistics page's tournament figures: tournaments played to a place, the prizes
    won, the finishes in the money, the wins, and how often each place was taken."""
    placed = TournamentEntry.objects.using(read_db()).filter(user=user, place__isnull=False)
    finishes: dict[int, int] = {}
    prizes_won = in_the_money = 0
    for place, prize in placed.values_list("place", "prize"):
        assert place is not None  # filtered above
        finishes[place] = finishes.get(place, 0) + 1
        prizes_won += prize
        in_the_money += prize > 0
    return {
        "played": sum(finishes.values()),
        "prizes_won": prizes_won,
        "in_the_money": in_the_money,
        "wins": finishes.get(1, 0),
        "finishes": dict(sorted(finishes.items())),
    }


def entry_open_of(user: User) -> TournamentEntry | None:
    """The player's registration in a tournament not yet started, or their entry in one they
    are still playing (RULES.md 8: one at a time)."""
    return (
        TournamentEntry.objects.filter(user=user)
        .filter(
            Q(tournament__status=TournamentStatus.REGISTERING)
            | Q(tournament__status=TournamentStatus.RUNNING, finished_at__isnull=True)
        )
        .select_related("tournament")
        .first()
    )
