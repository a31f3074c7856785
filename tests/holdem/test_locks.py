"""The table lock and the seats lock against a concurrent insert of a row that references them.

A foreign key check takes FOR KEY SHARE on the row referred to. The table row and the players'
user rows are locked FOR NO KEY UPDATE (no key of theirs changes under the lock), which that
allows: a chat line, a connection or a hand's action goes in while a table change runs.
"""

import threading

import pytest
from django.db import OperationalError, connection, transaction

from holdem.db.locks import seats_lock, table_lock
from holdem.models import ChatLine, Table

pytestmark = pytest.mark.django_db(transaction=True)


def insert_elsewhere(make_row) -> BaseException | None:
    """Run `make_row` on a second connection, giving up on any lock after half a second;
    returns the error it met, or None."""
    met: list[BaseException | None] = []

    def run() -> None:
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '500ms'")
                make_row()
            met.append(None)
        except BaseException as error:  # handed to the test's thread
            met.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(10)
    assert met, "the second connection never finished"
    return met[0]


def test_a_chat_line_goes_in_while_its_table_is_locked(postgres, seated):
    table, users = seated("nl50", seats=(0, 1))
    with transaction.atomic():
        locked = table_lock(table.pk)
        seats_lock(locked)  # the seats and their players too, as a hand's action locks them
        error = insert_elsewhere(
            lambda: ChatLine.objects.create(table_id=table.pk, user=users[0], text="nh")
        )
    assert error is None
    assert ChatLine.objects.filter(table=table, user=users[0]).count() == 1


def test_the_check_above_would_see_a_full_row_lock_block_the_insert(postgres, seated):
    """The contrast that makes the test above mean something: under FOR UPDATE the same insert
    waits for the lock and gives up."""
    table, users = seated("nl50", seats=(0, 1))
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        error = insert_elsewhere(
            lambda: ChatLine.objects.create(table_id=table.pk, user=users[0], text="nh")
        )
    assert isinstance(error, OperationalError) and "lock timeout" in str(error)
    assert not ChatLine.objects.filter(table=table).exists()
