"""History that cannot be rewritten unseen: the ledger lines of each wallet and the finished hands
of each table are hash chains; `manage.py verify_chain` passes after play through the services,
and names the first record a database superuser altered, inserted or removed (the append-only
triggers switched off, as such a user can) and exits non-zero."""

import importlib
import io
import random

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.loader import MigrationLoader

from casino.accounts.ledger_chain import LEDGER_FIELDS, ledger_content
from casino.accounts.models import LedgerEntry, LedgerKind, Wallet
from casino.accounts.services import wallet_adjust
from casino.chain import chain_hash
from holdem import engine
from holdem.models import HandAction, HandRecord, Table
from holdem.services import table_act, table_show
from tests.holdem.conftest import chips_everywhere, current, play_out
from tests.holdem.test_sit_and_go import (
    play_to_the_end,
    register_all,
    sit_and_go,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.django_db

LEDGER_BACKFILL = importlib.import_module("casino.accounts.migrations.0007_ledger_chain")
HAND_BACKFILL = importlib.import_module("holdem.migrations.0016_hand_chain")


@pytest.fixture(autouse=True)
def on_postgres(postgres):
    """The triggers a superuser switches off are PostgreSQL's."""


def verify_chain(*options: str) -> tuple[bool, str]:
    """Run `manage.py verify_chain`: (whether it exited zero, what it printed)."""
    out = []

    class Out:
        def write(self, text):
            out.append(text)

        def flush(self):
            pass

    try:
        call_command("verify_chain", "--chunk-size", "3", *options, stdout=Out())
    except CommandError:
        return False, "".join(out)
    return True, "".join(out)


def as_superuser(sql: str, params=()) -> None:
    """One statement with every trigger off, as a database superuser may run it."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)
        cursor.execute("SET LOCAL session_replication_role = origin")


def lines_of(user) -> list[LedgerEntry]:
    return list(LedgerEntry.objects.filter(user=user).order_by("id"))


@pytest.fixture
def ledger(make_player):
    """Alice's wallet with five ledger lines (the grant and four adjustments), Bob's with one."""
    alice, bob = make_player("alice"), make_player("bob")
    for amount in (500, -200, 300, -100):
        wallet_adjust(user=alice, amount=amount, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="test")
    return alice, bob


@pytest.fixture
def played(seated, clock):
    """Three players and four hands played through the services, the clock moving between them
    (the Show or Muck choices time out as they do at a real table)."""
    table, users = seated("nl50", seats=(0, 1, 2))
    rng = random.Random(11)

    def calm(legal):  # showdowns, no busts
        return rng.choice([a for a in legal.actions if a != "all_in"] or list(legal.actions))

    for _ in range(4):
        clock.advance(31)
        assert current(table) is not None
        play_out(table, users, rng=rng, choose=calm)
    clock.advance(31)
    table.refresh_from_db()
    return table, users


def test_hands_and_ledger_lines_written_through_the_services_verify_clean(ledger, played):
    table, _ = played
    ok, out = verify_chain()
    assert ok, out
    hands = HandRecord.objects.filter(ended_at__isnull=False).count()
    lines = LedgerEntry.objects.count()
    wallets = Wallet.objects.count()
    assert out.strip() == (
        f"history OK: {wallets + 1} chains, {lines + hands} records checked "
        f"({lines} ledger lines in {wallets} wallets, {hands} hands at 1 table)"
    )
    assert table.hand_chain_length == hands >= 4
    # Each finished hand links to the one before it at its table.
    records = list(HandRecord.objects.filter(ended_at__isnull=False).order_by("id"))
    assert [r.chain_prev_id for r in records] == [None, *[r.pk for r in records[:-1]]]
    assert table.hand_chain_last_id == records[-1].pk
    assert table.hand_chain_hash == records[-1].chain_hash
    chips_everywhere()


def test_an_edited_ledger_amount_is_named(ledger):
    alice, _ = ledger
    edited = lines_of(alice)[2]
    as_superuser(
        f"UPDATE {LedgerEntry._meta.db_table} SET amount = amount + 1000 WHERE id = %s",
        [edited.pk],
    )
    ok, out = verify_chain()
    assert not ok
    assert (
        f"BROKEN accounts.LedgerEntry #{edited.pk} in the ledger chain of user #{alice.pk}: "
        "altered: its content does not give the hash it stored"
    ) in out
    assert "history NOT OK: 1 broken; " in out


def test_an_edited_line_whose_hash_was_made_again_is_found_at_the_next_line(ledger):
    """Whoever also writes a new hash for the line they changed breaks the link of the next."""
    alice, _ = ledger
    lines = lines_of(alice)
    edited = lines[1]
    content = ledger_content({name: getattr(edited, name) for name in LEDGER_FIELDS})
    content["amount"] += 1000
    before = lines[0]
    forged = chain_hash(content, prev_id=before.pk, prev_hash=before.chain_hash)
    as_superuser(
        f"UPDATE {LedgerEntry._meta.db_table} SET amount = amount + 1000, chain_hash = %s"
        " WHERE id = %s",
        [forged, edited.pk],
    )
    ok, out = verify_chain()
    assert not ok
    assert f"BROKEN accounts.LedgerEntry #{lines[2].pk} " in out


def test_a_deleted_ledger_line_in_the_middle_is_named(ledger):
    alice, bob = ledger
    removed = lines_of(alice)[2]
    as_superuser(f"DELETE FROM {LedgerEntry._meta.db_table} WHERE id = %s", [removed.pk])
    ok, out = verify_chain()
    assert not ok
    follower = lines_of(alice)[2]
    assert (
        f"BROKEN accounts.LedgerEntry #{removed.pk} in the ledger chain of user #{alice.pk}: "
        f"removed: #{follower.pk} follows it, and it is gone"
    ) in out
    assert f"user #{bob.pk}" not in out  # one broken chain: the others hold


def test_the_deleted_first_ledger_line_is_named(ledger):
    alice, _ = ledger
    removed = lines_of(alice)[0]
    as_superuser(f"DELETE FROM {LedgerEntry._meta.db_table} WHERE id = %s", [removed.pk])
    ok, out = verify_chain()
    assert not ok
    assert f"BROKEN accounts.LedgerEntry #{removed.pk} " in out and "removed" in out


def test_the_deleted_last_ledger_line_is_named(ledger):
    alice, _ = ledger
    removed = lines_of(alice)[-1]
    as_superuser(f"DELETE FROM {LedgerEntry._meta.db_table} WHERE id = %s", [removed.pk])
    ok, out = verify_chain()
    assert not ok
    assert (
        f"BROKEN accounts.LedgerEntry #{removed.pk} in the ledger chain of user #{alice.pk}: "
        "removed: the head names it as the last of 5, 4 found ending at"
    ) in out


def _forge_line(user, *, line_id=None, prev=None, chain=None) -> int:
    """Insert a ledger line by hand, copying the user's last line with another key; returns its
    id. `prev`: the line it claims to follow; `chain`: its hash, made as the site makes it when
    None."""
    last = lines_of(user)[-1]
    prev = prev or last
    columns = ["user_id", "amount", "balance_after", "kind", "reason", "actor_id", "table_id"]
    columns += ["idempotency_key", "created_at", "chain_prev_id", "chain_hash"]
    values = [getattr(last, name) for name in columns[:7]]
    values += ["forged", last.created_at, prev.pk]
    if chain is None:
        content = ledger_content(dict(zip(columns, values)))
        chain = chain_hash(content, prev_id=prev.pk, prev_hash=prev.chain_hash)
    values.append(chain)
    if line_id is not None:
        columns.insert(0, "id")
        values.insert(0, line_id)
    names = ", ".join(columns)
    marks = ", ".join(["%s"] * len(values))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {LedgerEntry._meta.db_table} ({names}) VALUES ({marks}) RETURNING id",
            values,
        )
        return cursor.fetchone()[0]


def test_a_forged_ledger_line_after_the_last_is_named_even_with_a_good_hash(ledger):
    """Inserting needs no trigger switched off; the wallet's head, not updated, gives it away."""
    alice, _ = ledger
    forged = _forge_line(alice)
    ok, out = verify_chain()
    assert not ok
    assert (
        f"BROKEN accounts.LedgerEntry #{forged} in the ledger chain of user #{alice.pk}: "
        f"inserted: it follows #{lines_of(alice)[-2].pk}, the last row the head names"
    ) in out


def test_a_forged_ledger_line_among_the_others_is_named(ledger):
    alice, _ = ledger
    # A free id before Alice's next line: a movement rolled back still took its id.
    with pytest.raises(RuntimeError), transaction.atomic():
        wallet_adjust(user=alice, amount=1, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="undone")
        raise RuntimeError("rolled back")
    wallet_adjust(user=alice, amount=50, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="later")
    *_, before, last = lines_of(alice)
    assert last.pk == before.pk + 2
    forged = _forge_line(alice, line_id=before.pk + 1, prev=before)
    ok, out = verify_chain()
    assert not ok
    assert (
        f"BROKEN accounts.LedgerEntry #{forged} in the ledger chain of user #{alice.pk}: inserted"
        in out
    )


def test_a_forged_ledger_line_with_a_made_up_hash_is_named(ledger):
    alice, _ = ledger
    forged = _forge_line(alice, chain="0" * 64)
    ok, out = verify_chain()
    assert not ok
    assert f"BROKEN accounts.LedgerEntry #{forged} " in out and "altered" in out


def test_a_wallet_head_changed_by_hand_is_named(ledger):
    alice, _ = ledger
    Wallet.objects.filter(user=alice).update(ledger_chain_length=4)
    ok, out = verify_chain()
    assert not ok
    assert f"BROKEN accounts.Wallet of user #{alice.pk} (the chain's head): the head says 4" in out


def test_an_edited_board_of_a_finished_hand_is_named(played):
    table, _ = played
    hand = HandRecord.objects.filter(table=table, ended_at__isnull=False).order_by("id")[1]
    HandRecord.objects.filter(pk=hand.pk).update(board=["As", "Ad", "Ah", "Ac", "Ks"])
    ok, out = verify_chain()
    assert not ok
    assert (
        f"BROKEN holdem.HandRecord #{hand.pk} in the hand chain of table #{table.pk}: "
        "altered: its content does not give the hash it stored"
    ) in out


def test_an_edited_action_of_a_finished_hand_names_its_hand(played):
    table, _ = played
    hand = HandRecord.objects.filter(table=table, ended_at__isnull=False).order_by("id")[2]
    action = HandAction.objects.filter(hand=hand).order_by("index").last()
    as_superuser(
        f"UPDATE {HandAction._meta.db_table} SET amount = 123456 WHERE id = %s",
        [action.pk],
    )
    ok, out = verify_chain()
    assert not ok
    assert (
        f"BROKEN holdem.HandRecord #{hand.pk} in the hand chain of table #{table.pk}: altered"
        in out
    )


def test_a_deleted_action_names_its_hand(played):
    table, _ = played
    hand = HandRecord.objects.filter(table=table, ended_at__isnull=False).order_by("id")[0]
    action = HandAction.objects.filter(hand=hand).order_by("index").first()
    as_superuser(f"DELETE FROM {HandAction._meta.db_table} WHERE id = %s", [action.pk])
    ok, out = verify_chain()
    assert not ok
    assert (
        f"BROKEN holdem.HandRecord #{hand.pk} in the hand chain of table #{table.pk}: altered"
        in out
    )


def test_a_finished_hand_taken_out_of_the_chain_is_named(played):
    """Marking a hand unfinished hides it from the history pages; the next hand still names it."""
    table, _ = played
    hands = list(HandRecord.objects.filter(table=table, ended_at__isnull=False).order_by("id"))
    HandRecord.objects.filter(pk=hands[1].pk).update(ended_at=None)
    ok, out = verify_chain()
    assert not ok
    assert (
        f"BROKEN holdem.HandRecord #{hands[1].pk} in the hand chain of table #{table.pk}: "
        f"removed: #{hands[2].pk} follows it, and it is gone"
    ) in out


def test_showing_after_the_hand_keeps_the_chain_whole(seated, clock):
    """RULES.md 4: the uncontested winner shows after the hand ended: the record changes, and is
    hashed again as its table's last hand."""
    table, users = seated("nl50", seats=(0, 1, 2))
    for _ in range(2):
        clock.advance(31)
        while (state := current(table)) is not None:
            legal = engine.legal_actions(state)
            table_act(table_id=table.pk, user=users[legal.seat], action="fold")
    table.refresh_from_db()
    record = table.last_hand
    sealed = record.chain_hash
    winner = next(seat for seat, net in record.result["net"].items() if net > 0)
    table_show(table_id=table.pk, user=users[int(winner)])
    record.refresh_from_db()
    table.refresh_from_db()
    assert record.shown and record.chain_hash != sealed
    assert table.hand_chain_hash == record.chain_hash
    ok, out = verify_chain()
    assert ok, out


def test_a_sit_and_go_played_to_its_end_verifies_clean(sit_and_go, make_player, clock):  # noqa: F811
    tournament = sit_and_go(seats=3, starting_stack=300, level_seconds=60)
    register_all(tournament, [make_player() for _ in range(3)])
    assert play_to_the_end(tournament, clock) >= 1
    ok, out = verify_chain()
    assert ok, out
    table = Table.objects.get(pk=tournament.table_id)
    assert table.hand_chain_length == HandRecord.objects.filter(table=table).count()
    assert "hands at 1 table)" in out
    chips_everywhere()


def test_the_migrations_chain_the_history_written_before_them(ledger, played):
    """An upgraded database: rows written before the chains existed get theirs from the data
    migrations, and verify_chain passes."""
    as_superuser(f"UPDATE {LedgerEntry._meta.db_table} SET chain_hash = '', chain_prev_id = NULL")
    Wallet.objects.update(ledger_chain_length=0, ledger_chain_last_id=None, ledger_chain_hash="")
    HandRecord.objects.update(chain_hash="", chain_prev_id=None)
    Table.objects.update(hand_chain_length=0, hand_chain_last_id=None, hand_chain_hash="")
    assert not verify_chain()[0]
    with connection.cursor() as cursor:
        # The rows above were written in this test's transaction, their foreign keys' checks
        # deferred to its end; a migration meets rows committed long before.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    # The models as the migrations see them.
    migrated = MigrationLoader(connection).project_state(
        [("accounts", "0007_ledger_chain"), ("holdem", "0016_hand_chain")]
    )
    with connection.schema_editor() as editor:
        LEDGER_BACKFILL.chain_existing_lines(migrated.apps, editor)
        HAND_BACKFILL.chain_finished_hands(migrated.apps, editor)
    ok, out = verify_chain()
    assert ok, out
    # The trigger is back on: the ledger is append-only again.
    refused = pytest.raises(IntegrityError, match="ledger entries are append-only")
    with refused, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"UPDATE {LedgerEntry._meta.db_table} SET reason = 'x'")


def rewrite_from(user, index: int, amount_added: int) -> None:
    """What a thorough superuser does: change a line's amount, then make every hash after it
    again, and the wallet's head, as the site would have."""
    lines = lines_of(user)
    prev = lines[index - 1]
    prev_id, prev_hash = prev.pk, prev.chain_hash
    for number, line in enumerate(lines[index:]):
        content = ledger_content({name: getattr(line, name) for name in LEDGER_FIELDS})
        if number == 0:
            content["amount"] += amount_added
        new_hash = chain_hash(content, prev_id=prev_id, prev_hash=prev_hash)
        as_superuser(
            f"UPDATE {LedgerEntry._meta.db_table} SET amount = %s, chain_hash = %s WHERE id = %s",
            [content["amount"], new_hash, line.pk],
        )
        prev_id, prev_hash = line.pk, new_hash
    Wallet.objects.filter(user=user).update(ledger_chain_hash=prev_hash)


def test_heads_kept_away_from_the_database_are_found_again_after_more_play(
    ledger, played, clock, tmp_path
):
    alice, _ = ledger
    table, users = played
    heads = tmp_path / "heads.txt"
    ok, out = verify_chain("--write-heads", str(heads))
    assert ok, out
    kept = heads.read_text().splitlines()
    assert kept[0].startswith("# verify_chain heads, ")
    last_line = lines_of(alice)[-1]
    assert f"wallet {alice.pk} {last_line.pk} {last_line.chain_hash}" in kept
    # A table's last hand may still be shown: the hand before it is kept.
    settled = HandRecord.objects.get(pk=table.hand_chain_last_id).chain_prev_id
    assert any(line.startswith(f"table {table.pk} {settled} ") for line in kept)
    # More play: new lines, a new hand.
    wallet_adjust(user=alice, amount=5, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="later")
    clock.advance(31)
    play_out(table, users, choose=lambda legal: "fold" if "fold" in legal.actions else "check")
    ok, out = verify_chain("--check-heads", str(heads))
    assert ok, out
    assert out.strip().endswith(f"; {len(kept) - 1} kept heads found again")


def test_a_history_rewritten_with_every_hash_made_again_is_caught_by_the_kept_heads(
    ledger, tmp_path
):
    """The chain alone cannot tell a rewrite that made every later hash and the head again; a
    head kept where the database's superusers cannot write can."""
    alice, _ = ledger
    heads = tmp_path / "heads.txt"
    assert verify_chain("--write-heads", str(heads))[0]
    rewrite_from(alice, 2, 1000)
    assert verify_chain()[0]  # consistent again: no chain can see it alone
    ok, out = verify_chain("--check-heads", str(heads))
    assert not ok
    last = lines_of(alice)[-1]
    assert (
        f"BROKEN accounts.LedgerEntry #{last.pk} in the ledger chain of user #{alice.pk}: rewritten: "
        f"the heads kept name it with hash "
    ) in out


def test_heads_are_not_written_when_a_chain_is_broken(ledger, tmp_path):
    alice, _ = ledger
    as_superuser(f"DELETE FROM {LedgerEntry._meta.db_table} WHERE id = %s", [lines_of(alice)[1].pk])
    heads = tmp_path / "heads.txt"
    ok, out = verify_chain("--write-heads", str(heads))
    assert not ok and "history NOT OK" in out
    assert not heads.exists()


@pytest.mark.parametrize(
    "text",
    [
        "wallet 1 2\n",
        "purse 1 2 " + "a" * 64 + "\n",
        "wallet x 2 " + "a" * 64,
        "table 1 2 " + "g" * 64,
    ],
)
def test_a_heads_file_of_another_shape_is_refused_with_its_line(ledger, tmp_path, text):
    heads = tmp_path / "heads.txt"
    heads.write_text("# kept\n" + text)
    with pytest.raises(CommandError, match="line 2 is not"):
        call_command("verify_chain", "--check-heads", str(heads), stdout=io.StringIO())
