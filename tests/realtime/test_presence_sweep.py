"""The clock's sweep and a socket opening on a server it takes for dead, at the same time:
the server was only slow, and its new socket must open and be counted."""

import asyncio
import threading
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connection, transaction
from django.utils import timezone

from holdem.models import PROCESS_EXPIRY_SECONDS, Connection, Table, WebProcess
from holdem.realtime.heartbeat import PROCESS_KEY
from holdem.services import connections_expire
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def in_thread(work):
    """Run `work` on its own database connection; returns the started thread."""

    def run():
        try:
            work()
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_socket_opened_while_the_sweep_buries_its_slow_server_is_counted(
    postgres, table_room, make_player
):
    busy, quiet = table_room(), table_room()
    alice, bob = make_player("alice"), make_player("bob")
    # This process (the server of the test's sockets) has been silent past the expiry, with a
    # socket of Bob's at the busy table: its database thread was stuck behind a slow query.
    silent_since = timezone.now() - timedelta(seconds=PROCESS_EXPIRY_SECONDS + 1)
    process, _ = WebProcess.objects.update_or_create(
        key=PROCESS_KEY, defaults={"started_at": silent_since, "seen_at": silent_since}
    )
    Connection.objects.create(
        process=process, user=bob, table=busy, channel_name="bob-before", opened_at=silent_since
    )

    locked, release = threading.Event(), threading.Event()

    def hold_busy_table():
        # A hand's action at the busy table holds its lock for a moment: the sweep waits there.
        with transaction.atomic():
            Table.objects.select_for_update().get(pk=busy.pk)
            locked.set()
            release.wait(10)

    holder = in_thread(hold_busy_table)
    assert locked.wait(5)
    swept = []
    sweeper = in_thread(lambda: swept.append(connections_expire()))
    time.sleep(1.0)  # the sweep has read the silent process and waits for the busy table

    async def scenario():
        # The server catches up and Alice opens the quiet table; the busy table's action ends.
        threading.Timer(1.0, release.set).start()
        sock = await open_socket(f"/ws/table/{quiet.pk}/", user=alice, name="alice")
        snapshot = await sock.receive(timeout=10)
        assert snapshot["type"] == "snapshot"
        await sock.drain(timeout=0.5)
        await asyncio.to_thread(sweeper.join, 10)
        counted = await database_sync_to_async(list)(
            Connection.objects.filter(user=alice, table=quiet).values_list(
                "process__key", flat=True
            )
        )
        assert counted == [PROCESS_KEY], "Alice's new socket must be counted, on her live server"
        assert (await sock.request({"type": "ping"}))["type"] == "pong"
        await sock.close()

    try:
        async_to_sync(scenario)()
    finally:
        release.set()
        holder.join(10)
        sweeper.join(10)
    assert swept, "the sweep ended with an error"
    # What the sweep did before the server beat again stands: Bob's old socket was dropped.
    assert not Connection.objects.filter(channel_name="bob-before").exists()
    assert WebProcess.objects.filter(key=PROCESS_KEY).exists()
