"""A process frozen inside a table's transaction (SIGSTOP, a long GC pause, swapping) holds that
table's row lock until it wakes. The other servers must go on serving every other table, and
answer a request at the frozen table with `unavailable` (try again) rather than wait with it.

For PostgreSQL a frozen process is a session idle in transaction holding locks; the test holds
one with the site's own connection settings, the way a stopped Daphne or Celery worker would."""

import asyncio
import threading
import time

import pytest
from asgiref.sync import async_to_sync
from django.db import connections, transaction

from holdem.models import Seat, Table
from holdem.selectors.audit import audit_chips
from holdem.services import room_create
from tests.integration.daphne_serve import SERVER_SECRET_KEY
from tests.integration.live_site import LiveServer, Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

FROZEN_SECONDS = 20  # as long as the chaos soak's longest SIGSTOP (docs/reliability.md)


@pytest.fixture
def server(redis_layer):
    live = LiveServer(redis_layer, SERVER_SECRET_KEY).start()
    yield live
    live.stop()


def freeze_holding(table_id: int, locked: threading.Event, release: threading.Event) -> None:
    """Lock the table's row as a table write does, then sit in the transaction, frozen."""
    try:
        with transaction.atomic():
            Table.objects.select_for_update(no_key=True).get(pk=table_id)
            locked.set()
            release.wait(FROZEN_SECONDS)
    finally:
        connections.close_all()


def test_a_process_frozen_holding_a_table_lock_does_not_freeze_the_other_tables(
    server, make_player
):
    frozen_table = room_create(name="frozen", preset="nl50")
    other_table = room_create(name="elsewhere", preset="nl50")
    alice, bob = make_player("alice"), make_player("bob")
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=freeze_holding, args=(frozen_table.pk, locked, release))
    cookie_a, cookie_b = session_cookie(alice), session_cookie(bob)

    async def scenario():
        a = await Player("alice").connect(server.port, f"/ws/table/{frozen_table.pk}/", cookie_a)
        b = await Player("bob").connect(server.port, f"/ws/table/{other_table.pk}/", cookie_b)
        holder.start()
        assert await asyncio.to_thread(locked.wait, 10)
        frozen_at = time.monotonic()
        # Alice's request needs the frozen table's lock; Bob's, a moment later, does not.
        await a.send({"type": "sit", "seat": 0, "buy_in": 2000})
        await asyncio.sleep(0.3)
        answer_b = await b.request({"type": "sit", "seat": 0, "buy_in": 2000}, timeout=15)
        b_waited = time.monotonic() - frozen_at
        answer_a = await a.until(lambda f: f["type"] in ("ok", "error"), timeout=15)
        a_waited = time.monotonic() - frozen_at
        release.set()
        # Once the frozen process lets go, Alice's request, sent again, is applied.
        again = await a.request({"type": "sit", "seat": 0, "buy_in": 2000}, timeout=15)
        await a.close()
        await b.close()
        return answer_a, a_waited, answer_b, b_waited, again

    try:
        answer_a, a_waited, answer_b, b_waited, again = async_to_sync(scenario)()
    finally:
        release.set()
        if holder.is_alive():
            holder.join(FROZEN_SECONDS + 5)
    assert answer_b["type"] == "ok", answer_b
    assert b_waited < 8, f"the other table waited {b_waited:.1f}s for the frozen one"
    assert answer_a["type"] == "error" and answer_a["code"] == "unavailable", answer_a
    assert answer_a["retry"] is True
    assert a_waited < 8, f"the request at the frozen table waited {a_waited:.1f}s"
    assert again["type"] == "ok", again
    assert Seat.objects.filter(table=frozen_table, user=alice).count() == 1
    assert Seat.objects.filter(table=other_table, user=bob).count() == 1
    assert audit_chips().ok
