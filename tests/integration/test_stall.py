"""A server that stalls (a long GC pause, CPU starvation, SIGSTOP) and comes back: the clock's
sweep took it for dead meanwhile, and it must come back whole. Its sockets
keep working and are counted again, new ones open, and nobody is disconnected for a stall
shorter than the room's grace."""

import asyncio
import signal
import time

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.utils import timezone

from holdem import engine
from holdem.models import PROCESS_EXPIRY_SECONDS, Connection, Seat, Table, WebProcess
from holdem.selectors.audit import audit_chips
from holdem.selectors.liveness import live_connections
from holdem.services import room_create
from tests.integration.daphne_serve import SERVER_SECRET_KEY
from tests.integration.live_site import Clock, LiveServer, Player, session_cookie, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

STALL_SECONDS = 15  # longer than the process expiry (10 s), shorter than the grace (20 s)


@pytest.fixture
def server(postgres, redis_url, settings):
    """One Daphne on the test database and Redis; this process broadcasts through the same
    Redis (the clock thread does)."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }
    redis.Redis.from_url(redis_url).flushdb()
    live = LiveServer(redis_url, SERVER_SECRET_KEY).start()
    yield live
    live.process.send_signal(signal.SIGCONT)  # never leave it stopped
    live.stop()


def counted_at(table_id: int) -> dict[str, int]:
    """Live connections at the table, by username, as presence counts them."""
    names = live_connections().filter(table_id=table_id).values_list("user__username", flat=True)
    counted: dict[str, int] = {}
    for name in names:
        counted[name] = counted.get(name, 0) + 1
    return counted


def seats_of(table_id: int) -> dict[str, dict]:
    return {
        row["user__username"]: row
        for row in Seat.objects.filter(table_id=table_id).values(
            "user__username", "disconnected", "connection_lost_at", "sitting_out"
        )
    }


def test_a_server_stopped_for_fifteen_seconds_comes_back_whole(server, make_player):
    table = room_create(name="stall", preset="nl50", turn_seconds=90)
    assert table.disconnect_grace_seconds == 20  # the default grace
    alice, bob, carol, dave = (make_player(n) for n in ("alice", "bob", "carol", "dave"))
    cookies = {u.username: session_cookie(u) for u in (alice, bob, carol, dave)}
    path = f"/ws/table/{table.pk}/"

    async def scenario():
        a = await Player("alice").connect(server.port, path, cookies["alice"])
        b = await Player("bob").connect(server.port, path, cookies["bob"])
        assert (await a.request({"type": "sit", "seat": 0, "buy_in": 3000}))["type"] == "ok"
        assert (await b.request({"type": "sit", "seat": 1, "buy_in": 3000}))["type"] == "ok"
        c = await Player("carol (watching)").connect(server.port, path, cookies["carol"])
        await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(
            next_hand_at=timezone.now()
        )
        with Clock():
            await a.until(lambda f: f["type"] == "event" and f["event"]["kind"] == "hand")
            assert await database_sync_to_async(counted_at)(table.pk) == {
                "alice": 1,
                "bob": 1,
                "carol": 1,
            }
            stopped_at = time.monotonic()
            server.process.send_signal(signal.SIGSTOP)
            # The clock's sweep takes the silent server for dead meanwhile.
            swept = await asyncio.to_thread(
                wait_until,
                lambda: not WebProcess.objects.exists(),
                PROCESS_EXPIRY_SECONDS + 4,
            )
            assert swept, "the sweep should have taken the stopped server for dead"
            await asyncio.sleep(max(0.0, STALL_SECONDS - (time.monotonic() - stopped_at)))
            server.process.send_signal(signal.SIGCONT)

            # A new socket opens at once, while the server catches up.
            d = await Player("dave (new)").connect(server.port, path, cookies["dave"])
            assert d.frames[0]["type"] == "snapshot"

            # The server finds itself swept and counts its sockets again, within a few beats.
            back = await asyncio.to_thread(
                wait_until,
                lambda: counted_at(table.pk) == {"alice": 1, "bob": 1, "carol": 1, "dave": 1},
                5,
            )
            assert back, await database_sync_to_async(counted_at)(table.pk)

            # The sockets from before the stall still work.
            for player in (a, b, c):
                mark = len(player.frames)
                await player.ws.send('{"type": "snapshot"}')
                snapshot = await player.until(lambda f: f["type"] == "snapshot", start=mark)
                assert snapshot["table"]["hand"] is not None, player.name
                assert snapshot["table"]["spectators"] == 2, "carol and dave watch"
            seat, token = await database_sync_to_async(to_act)(table.pk)
            actor = {0: a, 1: b}[seat]
            answer = await actor.request({"type": "act", "action": "call", "turn": token})
            assert answer["type"] == "ok", answer

            # Past the grace counted from the last beat before the stall, nobody was disconnected.
            await asyncio.sleep(max(0.0, 20 + 3 - (time.monotonic() - stopped_at)))
            seats = await database_sync_to_async(seats_of)(table.pk)
            for name in ("alice", "bob"):
                assert not seats[name]["disconnected"], name
                assert seats[name]["connection_lost_at"] is None, name
                assert not seats[name]["sitting_out"], name
            for player in (a, b, c, d):
                kinds = [f["event"]["kind"] for f in player.frames if f["type"] == "event"]
                assert "disconnected" not in kinds, (player.name, kinds)
                assert player.closed_with is None, player.name
            assert await database_sync_to_async(counted_at)(table.pk) == {
                "alice": 1,
                "bob": 1,
                "carol": 1,
                "dave": 1,
            }
        for player in (a, b, c, d):
            await player.close()

    async_to_sync(scenario)()
    assert "ForeignKeyViolation" not in server.output(), server.output()[-3000:]
    assert "Traceback" not in server.output(), server.output()[-3000:]
    assert not Connection.objects.filter(table=table).exclude(process__in=WebProcess.objects.all())
    assert audit_chips().ok


def to_act(table_id: int):
    table = Table.objects.get(pk=table_id)
    state = engine.state_from_json(table.hand_state)
    return state.to_act, table.turn_token
