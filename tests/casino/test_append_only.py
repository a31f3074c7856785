"""The ledger is append-only in PostgreSQL itself: raw SQL cannot change or delete an entry, the
trigger comes and goes with its migration, and TRUNCATE (the test flush) still empties the table."""

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, transaction

from casino.accounts.models import LedgerEntry

LEDGER_MIGRATION = importlib.import_module("casino.accounts.migrations.0002_append_only_triggers")


def refused(sql, params):
    """Run one statement; return the database's refusal (its savepoint rolled back), or None."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
    except IntegrityError as error:
        return error
    return None


def triggers_on(table: str) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal",
            [table],
        )
        return {name for (name,) in cursor.fetchall()}


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_to_change_or_delete_a_ledger_entry(postgres, make_player):
    # transaction=True: real commits, and the flush after the test TRUNCATEs past the trigger.
    entry = LedgerEntry.objects.get(user=make_player())
    table = LedgerEntry._meta.db_table
    update = refused(f"UPDATE {table} SET amount = 1, balance_after = 1 WHERE id = %s", [entry.pk])
    delete = refused(f"DELETE FROM {table} WHERE id = %s", [entry.pk])
    assert "ledger entries are append-only: UPDATE" in str(update)
    assert "ledger entries are append-only: DELETE" in str(delete)
    after = LedgerEntry.objects.get(pk=entry.pk)
    assert (after.amount, after.balance_after, after.reason) == (
        entry.amount,
        entry.balance_after,
        entry.reason,
    )


@pytest.mark.django_db
def test_new_ledger_entries_are_still_written(postgres, make_player):
    player = make_player()  # account_create writes the starting grant through wallet_adjust
    assert LedgerEntry.objects.filter(user=player).count() == 1


@pytest.mark.django_db(transaction=True)
def test_truncate_still_empties_the_ledger_for_the_test_flush(postgres, make_player):
    # Committed rows, as the flush between tests meets them (row triggers skip TRUNCATE).
    make_player()
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {LedgerEntry._meta.db_table}")
    assert not LedgerEntry.objects.exists()


@pytest.mark.django_db
def test_migrating_back_removes_the_trigger_and_forward_puts_it_back(postgres, make_player):
    entry = LedgerEntry.objects.get(user=make_player())
    table = LedgerEntry._meta.db_table
    operation = LEDGER_MIGRATION.Migration.operations[0]
    assert triggers_on(table) == {f"{table}_append_only"}
    with transaction.atomic():
        with connection.schema_editor() as schema_editor:
            operation.reverse_code(apps, schema_editor)
        assert triggers_on(table) == set()
        assert refused(f"UPDATE {table} SET reason = 'rewritten' WHERE id = %s", [entry.pk]) is None
        with connection.schema_editor() as schema_editor:
            operation.code(apps, schema_editor)
        assert refused(f"UPDATE {table} SET reason = 'again' WHERE id = %s", [entry.pk]) is not None
        transaction.set_rollback(True)  # DDL is transactional in PostgreSQL: nothing stays
    assert triggers_on(table) == {f"{table}_append_only"}


def test_off_postgresql_the_migration_changes_nothing():
    # Local development on SQLite keeps the ORM guards only.
    statements = []
    schema_editor = SimpleNamespace(
        connection=SimpleNamespace(vendor="sqlite"),
        quote_name=str,
        execute=lambda sql, params=(): statements.append(sql),
    )
    operation = LEDGER_MIGRATION.Migration.operations[0]
    operation.code(apps, schema_editor)
    operation.reverse_code(apps, schema_editor)
    assert statements == []
