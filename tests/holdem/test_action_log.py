"""A hand's action log is append-only: the ORM refuses to change or delete an action, and on
PostgreSQL so does the database itself, for raw SQL too."""

import pytest
from django.db import IntegrityError, connection, transaction

from holdem.models import HandAction
from holdem.services import table_act
from tests.holdem.conftest import current


@pytest.fixture
def logged_action(seated, clock):
    """The first action of a heads-up hand, as written by the service."""
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    actor = current(table).to_act
    table_act(table_id=table.pk, user=users[actor], action="call", action_id="first")
    return HandAction.objects.get(hand__table=table)


@pytest.mark.django_db
def test_the_orm_refuses_to_change_or_delete_an_action(logged_action):
    actions = HandAction.objects.filter(pk=logged_action.pk)
    with pytest.raises(TypeError, match="append-only"):
        actions.update(action="fold")
    with pytest.raises(TypeError, match="append-only"):
        actions.delete()
    with pytest.raises(TypeError, match="append-only"):
        logged_action.delete()
    logged_action.action = "fold"
    with pytest.raises(TypeError, match="append-only"):
        logged_action.save()
    assert HandAction.objects.get(pk=logged_action.pk).action == "call"


def refused(sql, params):
    """Run one statement; return the database's refusal (its savepoint rolled back), or None."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
    except IntegrityError as error:
        return error
    return None


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_to_change_or_delete_an_action(postgres, logged_action):
    # transaction=True: real commits, and the flush after the test TRUNCATEs past the trigger.
    table = HandAction._meta.db_table
    update = refused(
        f"UPDATE {table} SET action = 'fold', amount = 1 WHERE id = %s", [logged_action.pk]
    )
    delete = refused(f"DELETE FROM {table} WHERE id = %s", [logged_action.pk])
    assert "the action log is append-only: UPDATE" in str(update)
    assert "the action log is append-only: DELETE" in str(delete)
    after = HandAction.objects.get(pk=logged_action.pk)
    assert (after.action, after.amount, after.seat, after.index) == (
        "call",
        None,
        logged_action.seat,
        0,
    )
