"""Reads of finished hands: a hand's summary for the history pages and the "previous hand" dialog,
the cards seen at its showdown, the state it ended in, and a player's hands.

The history pages read the replica when there is one (casino/db_routing.py): a finished hand
never changes but for a late show, so a few seconds behind is fine, and a hand the replica has
not received yet is looked up on the primary (`finished_hand`).
"""

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet

from casino.accounts.models import User
from casino.db_routing import read_db, replica_or_primary
from holdem import engine
from holdem.history.story import hand_story
from holdem.models import HandRecord


def final_state(record: HandRecord) -> engine.HandState:
    """The engine state a hand ended in, read once per record object however many private parts
    are built from it (a hand's end builds one per seat, for each of its events)."""
    kept: tuple[Any, engine.HandState] | None = getattr(record, "_final_read", None)
    if kept is None or kept[0] is not record.final_state:
        kept = (record.final_state, engine.state_from_json(record.final_state))
        record._final_read = kept  # type: ignore[attr-defined]
    return kept[1]


def showdown_hands(final: engine.HandState) -> tuple[dict[str, list[str]], list[int]]:
    """RULES.md 4 [002]: "you are entitled to see any cards that were active at the showdown even
    if they were not shown": once a hand is over, the hole cards of every player still in at its
    showdown, mucked or not (seat -> cards), and which were mucked. Folded hands stay hidden, an
    uncontested hand had no showdown, and a player still choosing Show or Muck keeps the choice."""
    result = final.result
    if result is None or result.uncontested:
        return {}, []
    hands = {
        str(p.seat): list(p.hole)
        for p in final.players
        if not p.folded and p.seat not in result.undecided
    }
    return hands, sorted(result.mucked)


def hand_summary_for(record: HandRecord, user: User | AnonymousUser) -> dict[str, Any]:
    played = next((p for p in record.players if p["user_id"] == getattr(user, "pk", None)), None)
    own = None
    showdown: dict[str, list[str]] = {}
    mucked: list[int] = []
    if record.final_state and record.ended_at is not None:
        final = engine.state_from_json(record.final_state)
        showdown, mucked = showdown_hands(final)
        if played is not None:
            me = next(
                (
                    s
                    for s in engine.view(final, played["seat"])["seats"]
                    if s["seat"] == played["seat"]
                ),
                None,
            )
            own = me.get("hole") if me else None
    return {
        "hand_id": record.pk,
        "table": record.table.name,
        "number": record.number,
        "started_at": record.started_at.isoformat(),
        "button": record.button_seat,
        "players": [
            {k: p.get(k) for k in ("seat", "username", "stack_before", "stack_after", "net")}
            for p in record.players
        ],
        "board": record.board,
        # The complete record (every blind and amount, the pots and who collected them) and the
        # action log: holdem/history/story.py hand_story.
        **hand_story(record),
        "shown": record.shown,
        "showdown": showdown,
        "mucked": mucked,
        "best": (record.result or {}).get("best", {}),
        "your_cards": own,
        "your_seat": played["seat"] if played else None,
        "rake": record.rake,
    }


def hand_before(record: HandRecord, user: User) -> int | None:
    """On a history page, "previous hand" is the hand played at that table before this one (the
    latest earlier one the viewer may open: theirs, or any for staff)."""
    # From the database the record came from: the primary for a hand the replica has not yet.
    earlier = HandRecord.objects.using(record._state.db or read_db()).filter(
        table_id=record.table_id, number__lt=record.number, ended_at__isnull=False
    )
    if not getattr(user, "is_staff", False):
        earlier = earlier.filter(participants__user=user)
    return earlier.order_by("-number").values_list("pk", flat=True).first()


def hands_of(user: User, limit: int = 50) -> QuerySet[HandRecord]:
    """The player's recent finished hands, newest first."""
    return (
        HandRecord.objects.using(read_db())
        .filter(ended_at__isnull=False, participants__user=user)
        .select_related("table")
        .order_by("-id")[:limit]
    )


def finished_hand(hand_id: int) -> HandRecord | None:
    """The finished hand `hand_id` with its table and action log, from the replica; from the
    primary when the replica does not have it finished yet (the hand that has just ended, a
    link followed from the table at once). Its related rows are read where it was found."""

    def read(using: str) -> HandRecord | None:
        return (
            HandRecord.objects.using(using)
            .select_related("table")
            .prefetch_related("actions")
            .filter(pk=hand_id, ended_at__isnull=False)
            .first()
        )

    return replica_or_primary(read)
