"""The hash chain itself (casino/chain.py), without a database: the canonical JSON anyone can
recompute, and the walk that names the first row altered, inserted or removed."""

import hashlib
import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from casino.chain import (
    GENESIS,
    Break,
    Head,
    Link,
    canonical,
    chain_hash,
    chain_time,
    chain_walk,
    chains_walk,
)


def test_the_canonical_json_is_pythons_json_with_sorted_keys_and_no_spaces():
    content = {"b": [1, 2, (3, 4)], "a": {"z": None, "é": "ünïcode", "10": True, "9": -5}, "c": 2.5}
    expected = json.dumps(
        json.loads(json.dumps(content)), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()
    assert canonical(content) == expected
    assert canonical(content).startswith(b'{"a":{"10":true,"9":-5,"z":null,"\xc3\xa9":')


def test_integer_keys_are_sorted_as_the_strings_the_database_keeps():
    assert canonical({"shares": {2: 10, 10: 20}}) == b'{"shares":{"10":20,"2":10}}'


def test_a_hash_is_sha256_of_the_content_with_its_link():
    content = {"amount": 500, "kind": "grant"}
    text = b'{"amount":500,"kind":"grant","prev_hash":"","prev_id":null}'
    assert chain_hash(content, prev_id=None, prev_hash=GENESIS) == hashlib.sha256(text).hexdigest()


def test_times_are_written_in_utc_with_microseconds():
    paris = timezone(timedelta(hours=1))
    assert (
        chain_time(datetime(2026, 12, 4, 19, 10, 22, tzinfo=paris)) == "2026-12-04T18:10:22.000000Z"
    )
    assert (
        chain_time(datetime(2026, 12, 4, 18, 0, 0, 5, tzinfo=UTC)) == "2026-12-04T18:00:00.000005Z"
    )
    assert chain_time(None) is None


def chain(*amounts, start=1, step=1):
    """Rows chained as the site chains them, ids start, start + step, ..."""
    links, prev_id, prev_hash = [], None, GENESIS
    for number, amount in enumerate(amounts):
        row_id = start + number * step
        content = {"amount": amount}
        stored = chain_hash(content, prev_id=prev_id, prev_hash=prev_hash)
        links.append(Link(row_id, prev_id, stored, content))
        prev_id, prev_hash = row_id, stored
    return links


def head_of(links):
    return Head(len(links), links[-1].id if links else None, links[-1].stored_hash if links else "")


def test_a_whole_chain_holds():
    links = chain(10, 20, 30)
    assert chain_walk(links, head_of(links)) == (3, None)
    assert chain_walk([], Head(0, None, "")) == (0, None)


def test_an_altered_row_is_named():
    links = chain(10, 20, 30)
    head = head_of(links)
    links[1] = Link(2, 1, links[1].stored_hash, {"amount": 21})
    assert chain_walk(links, head) == (
        1,
        Break(2, "altered: its content does not give the hash it stored"),
    )


def test_a_removed_row_is_named_by_the_link_its_follower_kept():
    links = chain(10, 20, 30, step=5)
    head = head_of(links)
    assert chain_walk([links[0], links[2]], head)[1] == Break(
        6, "removed: #11 follows it, and it is gone"
    )
    assert chain_walk(links[1:], head)[1] == Break(1, "removed: #6 follows it, and it is gone")
    assert chain_walk(links[:2], head)[1] == Break(
        11, "removed: the head names it as the last of 3, 2 found ending at #6"
    )
    assert chain_walk([], head)[1] == Break(
        11, "removed: the head names it as the last of 3, 0 found"
    )


def forged(row_id, prev):
    """A row put in by hand, hashed as the site would hash it after `prev`."""
    content = {"amount": 1}
    return Link(
        row_id, prev.id, chain_hash(content, prev_id=prev.id, prev_hash=prev.stored_hash), content
    )


def test_an_inserted_row_is_named_wherever_it_was_put():
    links = chain(10, 20, 30, step=5)
    head = head_of(links)
    # After the last: the head, not moved, gives it away.
    assert chain_walk([*links, forged(20, links[2])], head)[1] == Break(
        20, "inserted: it follows #11, the last row the head names"
    )
    # Between two rows, following the row the next one follows.
    assert chain_walk([links[0], forged(3, links[0]), *links[1:]], head)[1] == Break(
        3, "inserted: it follows #1, as #6 does"
    )
    # At the end, following the row the last one follows.
    assert chain_walk([*links, forged(20, links[1])], head)[1] == Break(
        20, "inserted: it follows #6, as #11 does"
    )
    # Claiming to start a chain that has started.
    orphan = Link(20, None, "0" * 64, {"amount": 1})
    assert chain_walk([*links, orphan], head)[1] == Break(
        20, "inserted: it says it follows nothing, and #11 comes before it"
    )


def test_a_head_changed_by_hand_is_a_break_of_the_head():
    links = chain(10, 20)
    assert chain_walk(links, Head(3, 2, links[1].stored_hash))[1] == Break(
        None, "the head says 3 ending at #2, 2 found ending at #2"
    )


def test_many_chains_are_walked_in_one_pass_and_rows_without_an_owner_are_named():
    first, second = chain(1, 2), chain(3, start=10)
    heads = [(1, head_of(first)), (3, head_of(second))]
    rows = [(1, link) for link in first] + [(2, Link(7, None, "x", {}))]
    rows += [(3, link) for link in second] + [(4, Link(12, None, "y", {}))]
    results = [(r.owner, r.checked, r.broken) for r in chains_walk(heads, rows)]
    assert results == [
        (1, 2, None),
        (2, 0, Break(7, "inserted: nothing owns its chain")),
        (3, 1, None),
        (4, 0, Break(12, "inserted: nothing owns its chain")),
    ]


def test_the_worked_example_of_docs_fairness_is_what_the_site_computes():
    line = {
        "user_id": 12,
        "amount": 10000,
        "balance_after": 10000,
        "kind": "grant",
        "reason": "Welcome grant",
        "actor_id": None,
        "table_id": None,
        "idempotency_key": "grant:welcome:12",
        "created_at": chain_time(datetime(2026, 12, 4, 18, 10, 22, 123456, tzinfo=UTC)),
    }
    text = canonical({**line, "prev_id": None, "prev_hash": ""}).decode()
    stored = chain_hash(line, prev_id=None, prev_hash=GENESIS)
    page = (Path(__file__).parents[2] / "docs" / "fairness.md").read_text()
    assert f"\n{text}\n" in page
    assert f"hashes to `{stored}`" in page
