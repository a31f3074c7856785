"""Hash chains over history rows (ledger lines, hand records): the canonical JSON a row's hash is
taken of, the hash itself, and the walk that finds the first row altered, inserted or removed.

docs/fairness.md ("History that cannot be rewritten unseen") describes the scheme for anyone to
recompute; the rows' content is defined by their own apps (which fields, in which shape).
"""

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from django.db.backends.base.base import BaseDatabaseWrapper

# The hash a chain starts from: its first row is chained to nothing.
GENESIS = ""


def chain_time(moment: datetime | None) -> str | None:
    """A datetime as the chains write it: UTC, microseconds always, `Z`
    (2026-12-04T18:10:22.123456Z)."""
    if moment is None:
        return None
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def canonical(content: dict[str, Any]) -> bytes:
    """The one JSON text of `content`: UTF-8, keys sorted at every level, no whitespace, integers
    as integers. The same text as Python's `json.dumps(content, sort_keys=True,
    separators=(",", ":"), ensure_ascii=False).encode()` once the value is plain JSON (which the
    first round trip makes it: tuples become lists, integer keys strings, as in the database)."""
    plain = orjson.loads(orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS))
    return orjson.dumps(plain, option=orjson.OPT_SORT_KEYS)


def chain_hash(content: dict[str, Any], *, prev_id: int | None, prev_hash: str) -> str:
    """SHA-256 (hex) of the canonical JSON of a row's content with the link to the row before it:
    `content` plus `prev_id` (that row's id, None for the first) and `prev_hash` (its hash,
    GENESIS for the first)."""
    linked = {**content, "prev_id": prev_id, "prev_hash": prev_hash}
    return hashlib.sha256(canonical(linked)).hexdigest()


@dataclass(frozen=True)
class Link:
    """A row as the chain walk sees it: its id, the link it stored (`prev_id`), its stored hash,
    and its content (to hash again)."""

    id: int
    prev_id: int | None
    stored_hash: str
    content: dict[str, Any]


@dataclass(frozen=True)
class Head:
    """What the chain's owner row (a wallet, a table) says of its chain: how many rows, the last
    one's id and hash."""

    length: int
    last_id: int | None
    hash: str


@dataclass(frozen=True)
class Break:
    """The first place a chain does not hold: the row (`record_id`; None when the chain's head is
    what is wrong and names no row) and what was found."""

    record_id: int | None
    found: str


def chain_walk(links: Iterable[Link], head: Head) -> tuple[int, Break | None]:
    """Walk one chain in id order; returns (rows walked, the first break or None).

    Each row must name the row before it (`prev_id`) and hash, with that row's hash, to what it
    stored; the last row must be the one the head names, with the head's hash and count.
    """
    prev: Link | None = None  # the last row that held
    before_prev_hash = GENESIS  # the hash of the row before that one
    count = 0
    after_head: int | None = None  # a row that follows the one the head says is the last
    for link in links:
        prev_id = prev.id if prev else None
        prev_hash = prev.stored_hash if prev else GENESIS
        if link.prev_id != prev_id:
            return count, _broken_link(link, prev, before_prev_hash, head)
        if chain_hash(link.content, prev_id=prev_id, prev_hash=prev_hash) != link.stored_hash:
            return count, Break(link.id, "altered: its content does not give the hash it stored")
        if prev_id is not None and prev_id == head.last_id and after_head is None:
            after_head = link.id
        before_prev_hash, prev = prev_hash, link
        count += 1
    last_id, last_hash = (prev.id, prev.stored_hash) if prev else (None, GENESIS)
    if (head.last_id, head.hash, head.length) == (last_id, last_hash, count):
        return count, None
    found = f"{count:,} found" + (f" ending at #{last_id}" if last_id is not None else "")
    if after_head is not None:
        return count, Break(
            after_head, f"inserted: it follows #{head.last_id}, the last row the head names"
        )
    if head.last_id is not None and (last_id is None or head.last_id > last_id):
        return count, Break(
            head.last_id, f"removed: the head names it as the last of {head.length:,}, {found}"
        )
    return count, Break(None, f"the head says {head.length:,} ending at #{head.last_id}, {found}")


def _broken_link(link: Link, prev: Link | None, before_prev_hash: str, head: Head) -> Break:
    """Which row to name when `link` does not follow `prev`, the last row that held."""
    if prev is not None and link.prev_id == prev.prev_id:
        # Two rows follow the same one: the one that does not hash as its follower, or else the
        # one the chain does not go on from, was put in.
        fits = chain_hash(link.content, prev_id=link.prev_id, prev_hash=before_prev_hash)
        if fits != link.stored_hash or head.last_id == prev.id:
            return Break(link.id, f"inserted: it follows #{link.prev_id}, as #{prev.id} does")
        return Break(prev.id, f"inserted: it follows #{prev.prev_id}, as #{link.id} does")
    prev_id = prev.id if prev else None
    if link.prev_id is not None and (prev_id is None or prev_id < link.prev_id < link.id):
        return Break(link.prev_id, f"removed: #{link.id} follows it, and it is gone")
    said = f"#{link.prev_id}" if link.prev_id is not None else "nothing"
    before = f"#{prev_id}" if prev_id is not None else "nothing"
    return Break(link.id, f"inserted: it says it follows {said}, and {before} comes before it")


@dataclass(frozen=True)
class ChainResult:
    """One chain walked: its owner (a wallet's user id, a table's id), the rows that held, and
    the first break if any."""

    owner: int
    checked: int
    broken: Break | None
    head: Head  # as the owner's row stores it (what the walk found, when nothing is broken)
    before_last: Head | None = None  # the chain as it was one row shorter, when it holds


def chains_walk(
    heads: Iterable[tuple[int, Head]], links: Iterable[tuple[int, Link]]
) -> Iterator[ChainResult]:
    """Walk many chains in one pass: `heads` by owner, `links` by owner then id (both sorted, as
    two database cursors give them). Rows whose owner has no head are a break of their own."""
    rows = iter(links)
    pending = next(rows, None)

    def owned_by(owner: int) -> Iterator[Link]:
        nonlocal pending
        while pending is not None and pending[0] == owner:
            yield pending[1]
            pending = next(rows, None)

    for owner, head in heads:
        while pending is not None and pending[0] < owner:
            yield _headless(pending[0], owned_by(pending[0]))
        chain = owned_by(owner)
        last_two: list[Link] = []
        checked, broken = chain_walk(_remembered(chain, last_two), head)
        for _ in chain:  # the rest of a broken chain is not walked, only passed
            pass
        shorter = None
        if broken is None and checked:
            shorter = Head(checked - 1, None, GENESIS)
            if len(last_two) == 2:
                shorter = Head(checked - 1, last_two[0].id, last_two[0].stored_hash)
        yield ChainResult(owner, checked, broken, head, shorter)
    while pending is not None:
        yield _headless(pending[0], owned_by(pending[0]))


def _remembered(links: Iterator[Link], last_two: list[Link]) -> Iterator[Link]:
    """`links`, keeping the last two passed in `last_two`."""
    for link in links:
        last_two[:] = [*last_two[-1:], link]
        yield link


def _headless(owner: int, chain: Iterator[Link]) -> ChainResult:
    first = next(chain)
    for _ in chain:
        pass
    broken = Break(first.id, "inserted: nothing owns its chain")
    return ChainResult(owner, 0, broken, Head(0, None, GENESIS))


def chain_columns_write(
    connection: BaseDatabaseWrapper, db_table: str, rows: list[tuple[int, int | None, str]]
) -> None:
    """Write (id, chain_prev_id, chain_hash) of many rows in one UPDATE, for the migrations that
    chain the rows written before the chains (Django's bulk_update writes a CASE per column,
    whose cost grows with the square of the batch: 157 s for 300,000 ledger lines)."""
    if not rows:
        return
    quote = connection.ops.quote_name
    if connection.vendor != "postgresql":  # SQLite (local development) names no VALUES columns
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {quote(db_table)} SET chain_prev_id = %s, chain_hash = %s WHERE id = %s",
                [(prev_id, row_hash, row_id) for row_id, prev_id, row_hash in rows],
            )
        return
    values = ", ".join(["(%s, CAST(%s AS bigint), %s)"] * len(rows))
    sql = (
        f"UPDATE {quote(db_table)} SET chain_prev_id = v.prev_id, chain_hash = v.hash"
        f" FROM (VALUES {values}) AS v(id, prev_id, hash) WHERE {quote(db_table)}.id = v.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for row in rows for value in row])
