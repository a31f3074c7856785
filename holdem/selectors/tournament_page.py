"""A scheduled tournament's own page (RULES.md 9), /tournaments/<id>/ and its live.json: the
tournament, its level, prizes, tables with their players and stacks, the players out, and its
hands, in a fixed number of queries whatever its size (docs/protocol.md, "The tournament page").
"""

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from casino.accounts.models import User
from holdem import engine
from holdem.models import (
    HandRecord,
    Seat,
    Table,
    TableStatus,
    Tournament,
    TournamentStatus,
)
from holdem.selectors.game_state import current_state, epoch_ms
from holdem.selectors.multi_table import EntryCounts, mtt_prize_table, mtt_summary
from holdem.selectors.tournaments import level_of

# The page lists the latest hands (a tournament of hundreds deals thousands).
HANDS_SHOWN = 50


def tournament_page_data(tournament_id: int, viewer: User) -> dict[str, Any]:
    """The page of a scheduled tournament as `viewer` sees it: what everyone sees (read at most
    once a moment per tournament in this process: CASINO_LOBBY_CACHE_SECONDS, as the lobby's
    lists) and which of its hands the viewer may open (the hand page's rule: dealt into it, or
    staff), and where the viewer sits in it. Raises Tournament.DoesNotExist."""
    key = f"tournament.page:{tournament_id}"
    public = cache.get(key)
    if public is None:
        public = _public(tournament_id)
        cache.set(key, public, settings.CASINO_LOBBY_CACHE_SECONDS)
    hand_ids = [hand["id"] for hand in public["hands"]]
    if viewer.is_staff:
        yours = set(hand_ids)
    else:
        opened = HandRecord.objects.filter(pk__in=hand_ids, participants__user=viewer)
        yours = set(opened.values_list("pk", flat=True)) if hand_ids else set()
    seat = Seat.objects.filter(user=viewer, table__tournament_id=tournament_id).first()
    return {
        **public,
        "hands": [{**hand, "yours": hand["id"] in yours} for hand in public["hands"]],
        "you": {"table_url": reverse("table", args=[seat.table_id]) if seat else None},
        "now": epoch_ms(timezone.now()),
    }


def _public(tournament_id: int) -> dict[str, Any]:
    """What every viewer sees: six queries (the tournament, its entries, its tables, their
    seats, its latest hands and how many it has dealt)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    entries = list(
        tournament.entries.select_related("user").only(
            "id", "tournament_id", "number", "place", "prize", "finished_at", "user__username"
        )
    )
    tables = list(
        Table.objects.filter(tournament=tournament)
        .exclude(status=TableStatus.CLOSED)
        .only("id", "name", "seats", "status", "hand_state")
        .order_by("id")
    )
    # During a hand the chips are in the engine's state: its spectator view (no hole card) says
    # what each player has behind and has put in; the two are theirs until the pot is won.
    in_hand: dict[int, dict[int, int]] = {}
    for table in tables:
        state = current_state(table)
        if state is not None:
            played = engine.view(state, None)["seats"]
            in_hand[table.pk] = {p["seat"]: p["stack"] + p.get("committed", 0) for p in played}
    seats: dict[int, list[dict[str, Any]]] = {table.pk: [] for table in tables}
    for seat in (
        Seat.objects.filter(table__in=list(seats))
        .select_related("user")
        .only("table_id", "number", "stack", "sitting_out", "user__username")
        .order_by("table_id", "number")
    ):
        seats[seat.table_id].append(
            {
                "seat": seat.number,
                "username": seat.user.username,
                "stack": in_hand.get(seat.table_id, {}).get(seat.number, seat.stack),
                "sitting_out": seat.sitting_out,
            }
        )
    alive = sum(1 for e in entries if e.finished_at is None)
    counts = EntryCounts(
        registered=len(entries), alive=alive, tables=sum(1 for t in tables if seats[t.pk])
    )
    summary = mtt_summary(tournament, counts)
    running = tournament.status == TournamentStatus.RUNNING
    prizes = mtt_prize_table(tournament, len(entries)) if summary["entrants"] >= 2 else []
    hands = (
        HandRecord.objects.filter(table__tournament=tournament, ended_at__isnull=False)
        .order_by("-ended_at", "-id")
        .only("id", "number", "table_id", "started_at", "tournament", "options")
    )
    placed = sorted((e for e in entries if e.place is not None), key=lambda e: (e.place, e.pk))
    in_play = tournament.entrants * tournament.starting_stack
    return {
        "tournament": {
            **summary,
            "started_at": epoch_ms(tournament.started_at) if tournament.started_at else None,
            "finished_at": epoch_ms(tournament.finished_at) if tournament.finished_at else None,
            "next_level": level_of(tournament, tournament.level + 1) if running else None,
            "average_stack": in_play // alive if running and alive else None,
        },
        "prizes": [{"place": n, "prize": prize} for n, prize in enumerate(prizes, start=1)],
        "tables": [
            {
                "id": table.pk,
                "name": table.name,
                "url": reverse("table", args=[table.pk]),
                "seats": table.seats,
                "in_hand": table.pk in in_hand,
                "players": seats[table.pk],
            }
            for table in tables
            if seats[table.pk] or table.status == TableStatus.OPEN
        ],
        "finished": [
            {
                "place": e.place,
                "username": e.user.username,
                "prize": e.prize,
                "entry": e.number,
            }
            for e in placed
        ],
        # Out, their place still to be given: at the close of late registration, or at the
        # end of the round of hand for hand (RULES.md 9).
        "out_unplaced": sorted(
            e.user.username for e in entries if e.finished_at is not None and e.place is None
        ),
        "hands": [
            {
                "id": hand.pk,
                "number": hand.number,
                "table_id": hand.table_id,
                "started_at": epoch_ms(hand.started_at),
                "level": (hand.tournament or {}).get("level"),
                "small_blind": hand.options.get("small_blind"),
                "big_blind": hand.options.get("big_blind"),
                "ante": hand.options.get("ante", 0),
            }
            for hand in hands[:HANDS_SHOWN]
        ],
        "hands_total": hands.count(),
    }


def tournament_kind(tournament_id: int) -> str | None:
    """The tournament's kind (sit_and_go or scheduled), or None when there is no such one."""
    return Tournament.objects.filter(pk=tournament_id).values_list("kind", flat=True).first()
