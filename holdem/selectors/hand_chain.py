"""Reads of the tables' hand chains (holdem/hand_chain.py): a hand's content as stored, the hash
a hand is chained to, and the walk of every table's chain.
"""

from collections.abc import Iterator
from itertools import batched
from typing import Any

from django.db import DEFAULT_DB_ALIAS

from casino.chain import ChainResult, Head, Link, chains_walk
from holdem.hand_chain import ACTION_FIELDS, HAND_FIELDS, HEAD_FIELDS, hand_content
from holdem.models import HandAction, HandRecord, Table


def hand_record_content(record: HandRecord) -> dict[str, Any]:
    """The hashed content of `record` as it is in memory, with its actions as stored."""
    actions = HandAction.objects.filter(hand_id=record.pk).order_by("index")
    return hand_content(
        {name: getattr(record, name) for name in HAND_FIELDS},
        actions.values(*ACTION_FIELDS),
    )


def hand_chain_hash_of(hand_id: int | None) -> str:
    """The stored hash of a finished hand (the link a later hand's hash is made with)."""
    if hand_id is None:
        return ""
    found = HandRecord.objects.filter(pk=hand_id).values_list("chain_hash", flat=True).first()
    return found or ""


def hand_chains(*, chunk_size: int = 500, using: str = DEFAULT_DB_ALIAS) -> Iterator[ChainResult]:
    """Walk every table's chain of finished hands: one pass over the tables, one over the hands
    (a server side cursor), and one query for the actions of each `chunk_size` hands. Run it in
    one snapshot (REPEATABLE READ) so the heads and the hands are of the same moment."""
    heads = (
        (table_id, Head(length, last_id, head_hash))
        for table_id, length, last_id, head_hash in Table.objects.using(using)
        .order_by("id")
        .values_list("id", *HEAD_FIELDS)
        .iterator(chunk_size=chunk_size)
    )
    hands = (
        HandRecord.objects.using(using)
        .filter(ended_at__isnull=False)
        .order_by("table_id", "id")
        .values("chain_prev_id", "chain_hash", *HAND_FIELDS)
        .iterator(chunk_size=chunk_size)
    )
    return chains_walk(heads, _links(hands, chunk_size, using))


def _links(
    hands: Iterator[dict[str, Any]], chunk_size: int, using: str
) -> Iterator[tuple[int, Link]]:
    for chunk in batched(hands, chunk_size, strict=False):
        actions: dict[int, list[dict[str, Any]]] = {hand["id"]: [] for hand in chunk}
        rows = (
            HandAction.objects.using(using)
            .filter(hand_id__in=list(actions))
            .order_by("hand_id", "index")
            .values("hand_id", *ACTION_FIELDS)
        )
        for row in rows:
            actions[row["hand_id"]].append(row)
        for hand in chunk:
            content = hand_content(hand, actions[hand["id"]])
            link = Link(hand["id"], hand["chain_prev_id"], hand["chain_hash"], content)
            yield hand["table_id"], link
