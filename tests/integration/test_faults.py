"""The site under faults, with real processes: a server SIGKILLed mid-hand and restarted, a Redis
flush mid-hand, a broadcast lost between commit and send, a half-open client. After each, the
players' screens are current, presence tells the truth, and no chip is created or lost."""

import asyncio
import signal
import subprocess
import sys
import time

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connection
from django.utils import timezone

from holdem import engine
from holdem.models import Connection, HandAction, Seat, Table
from holdem.selectors.audit import audit_chips
from holdem.services import room_create, table_act
from tests.integration.daphne_serve import SERVER_SECRET_KEY
from tests.integration.live_site import (
    ROOT,
    Clock,
    LiveServer,
    Player,
    TcpProxy,
    session_cookie,
    wait_until,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def servers(redis_layer):
    started = []

    def start(**options):
        server = LiveServer(redis_layer, SERVER_SECRET_KEY, **options).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def table_seq(table_id: int) -> int:
    return Table.objects.get(pk=table_id).seq


def start_hand_now(table_id: int) -> None:
    Table.objects.filter(pk=table_id).update(next_hand_at=timezone.now())


def to_act(table_id: int):
    table = Table.objects.get(pk=table_id)
    if not table.in_hand:
        return None, None
    state = engine.state_from_json(table.hand_state)
    return state.to_act, table.turn_token


async def sit_two(server, table, alice, bob):
    a = await Player("alice").connect(server.port, f"/ws/table/{table.pk}/", alice)
    b = await Player("bob").connect(server.port, f"/ws/table/{table.pk}/", bob)
    assert (await a.request({"type": "sit", "seat": 0, "buy_in": 3000}))["type"] == "ok"
    assert (await b.request({"type": "sit", "seat": 1, "buy_in": 3000}))["type"] == "ok"
    return a, b


def test_a_server_killed_mid_hand_leaves_no_ghost_connections(servers, make_player):
    # Presence survives a SIGKILL. Before, connection counts stayed at 1 for good.
    table = room_create(name="phoenix", preset="nl50", turn_seconds=60, disconnect_grace_seconds=2)
    alice, bob = make_player("alice"), make_player("bob")
    cookies = {name: session_cookie(user) for name, user in (("alice", alice), ("bob", bob))}
    server = servers()

    async def scenario():
        a, _b = await sit_two(server, table, cookies["alice"], cookies["bob"])
        await database_sync_to_async(start_hand_now)(table.pk)
        with Clock():
            await a.until(
                lambda f: f["type"] == "event" and f["event"]["kind"] == "hand", timeout=10
            )
            server.kill()  # mid-hand, no disconnect handler runs
            server.start()  # same port, a new process
            again = await Player("alice again").connect(
                server.port, f"/ws/table/{table.pk}/", cookies["alice"]
            )
            assert again.frames[0]["table"]["hand"] is not None  # the hand goes on
            await again.close()  # her last live socket
            # Both are disconnected within the process expiry (10 s) plus a clock tick.
            gone = await asyncio.to_thread(
                wait_until,
                lambda: Seat.objects.filter(table=table, disconnected=True).count() == 2,
                20,
            )
            assert gone, list(
                Seat.objects.filter(table=table).values("user__username", "disconnected")
            )
            assert not await database_sync_to_async(Connection.objects.filter(table=table).exists)()

    async_to_sync(scenario)()
    assert audit_chips().ok


def test_a_redis_flush_mid_hand_is_healed_within_ten_seconds(servers, make_player, redis_url):
    # After the flush the groups are gone; sockets join them again, and a heartbeat
    # carrying the table's seq makes every client ask for what it missed.
    table = room_create(name="amnesia", preset="nl50", turn_seconds=60)
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    cookies = [session_cookie(user) for user in (alice, bob, carol)]
    server = servers()

    async def scenario():
        a, b = await sit_two(server, table, cookies[0], cookies[1])
        c = await Player("carol (spectator)").connect(
            server.port, f"/ws/table/{table.pk}/", cookies[2]
        )
        await database_sync_to_async(start_hand_now)(table.pk)
        with Clock():
            await a.until(
                lambda f: f["type"] == "event" and f["event"]["kind"] == "hand", timeout=10
            )
            redis.Redis.from_url(redis_url).flushdb()
            # The table moves on at once: broadcasts to the lost groups go nowhere.
            seat, token = await database_sync_to_async(to_act)(table.pk)
            actor = {0: alice, 1: bob}[seat]
            await database_sync_to_async(table_act)(
                table_id=table.pk, user=actor, action="call", turn_token=token
            )
            target = await database_sync_to_async(table_seq)(table.pk)
            started = time.monotonic()
            caught_up = await asyncio.to_thread(
                wait_until,
                lambda: all(p.seq is not None and p.seq >= target for p in (a, b, c)),
                10,
            )
            assert caught_up, [(p.name, p.seq, target) for p in (a, b, c)]
            print(f"clients current {time.monotonic() - started:.1f} s after the flush")
            # The groups are back: the next change arrives as an ordinary event.
            seat, token = await database_sync_to_async(to_act)(table.pk)
            actor = {0: a, 1: b}[seat]
            mark = len(c.frames)
            assert (await actor.request({"type": "act", "action": "check", "turn": token}))[
                "type"
            ] == "ok"
            await c.until(lambda f: f["type"] == "event", timeout=5, start=mark)
        for player in (a, b, c):
            await player.close()

    async_to_sync(scenario)()
    assert audit_chips().ok


def test_a_broadcast_lost_after_commit_is_noticed_and_the_action_is_neither_lost_nor_repeated(
    servers, make_player, settings
):
    # Also prove: a server killed between a commit and its broadcast. The action below commits in
    # this process with broadcasts going to an in-memory layer nobody reads: exactly what
    # reaches the clients when the server dies right after the commit.
    table = room_create(name="silence", preset="nl50", turn_seconds=60)
    alice, bob = make_player("alice"), make_player("bob")
    cookies = [session_cookie(user) for user in (alice, bob)]
    server = servers()

    async def scenario():
        a, b = await sit_two(server, table, cookies[0], cookies[1])
        await database_sync_to_async(start_hand_now)(table.pk)
        with Clock():
            await a.until(
                lambda f: f["type"] == "event" and f["event"]["kind"] == "hand", timeout=10
            )
        seat, token = await database_sync_to_async(to_act)(table.pk)
        actor, player = {0: (alice, a), 1: (bob, b)}[seat]
        redis_layer = settings.CHANNEL_LAYERS
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
        await database_sync_to_async(table_act)(
            table_id=table.pk, user=actor, action="call", action_id="lost-1", turn_token=token
        )
        settings.CHANNEL_LAYERS = redis_layer
        target = await database_sync_to_async(table_seq)(table.pk)
        caught_up = await asyncio.to_thread(
            wait_until, lambda: a.seq >= target and b.seq >= target, 5
        )
        assert caught_up, (a.seq, b.seq, target)
        # The client never got its answer and sends the same action again: answered, not applied.
        answer = await player.request(
            {"type": "act", "action": "call", "action_id": "lost-1", "turn": token}
        )
        assert answer == {"type": "ok", "for": "act", "action_id": "lost-1", "repeated": True}
        for p in (a, b):
            await p.close()

    async_to_sync(scenario)()
    assert HandAction.objects.filter(client_action_id="lost-1").count() == 1
    assert audit_chips().ok


HALF_OPEN_CLIENT = """
import os, signal, sys, asyncio, websockets
async def main(port, path, cookie):
    ws = await websockets.connect(f"ws://127.0.0.1:{port}{path}", additional_headers={"Cookie": f"sessionid={cookie}"},
                                  origin=f"http://127.0.0.1:{port}")
    await ws.recv()
    print("connected", flush=True)
    os.kill(os.getpid(), signal.SIGSTOP)  # frozen: the TCP connection stays up, nothing answers
asyncio.run(main(*sys.argv[1:]))
"""


def test_a_half_open_client_is_disconnected_by_the_ping_timeout_once(servers, make_player):
    # Also prove: a client that vanishes without a close frame. Its process is frozen, so its
    # kernel keeps the TCP connection open but no pong ever comes back.
    table = room_create(
        name="limbo",
        preset="nl50",
        turn_seconds=60,
        disconnect="all_in_protection",
        disconnect_grace_seconds=2,
    )
    alice, bob = make_player("alice"), make_player("bob")
    cookies = [session_cookie(user) for user in (alice, bob)]
    server = servers(extra_args=["--ping-interval", "1", "--ping-timeout", "2"])

    async def scenario():
        a, b = await sit_two(server, table, cookies[0], cookies[1])
        await database_sync_to_async(start_hand_now)(table.pk)
        with Clock():
            await a.until(
                lambda f: f["type"] == "event" and f["event"]["kind"] == "hand", timeout=10
            )
            frozen = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    HALF_OPEN_CLIENT,
                    str(server.port),
                    f"/ws/table/{table.pk}/",
                    cookies[1],
                ],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                text=True,
            )
            try:
                assert frozen.stdout.readline().strip() == "connected"
                mark = len(a.frames)
                await b.close()  # bob's only socket left is the frozen one
                gone = await asyncio.to_thread(
                    wait_until,
                    lambda: Seat.objects.filter(user=bob, disconnected=True).exists(),
                    20,
                )
                assert gone, "the ping timeout did not disconnect the frozen client"

                def bob_shown_disconnected(frame):
                    table = frame.get("table") or {}
                    seats = {s["number"]: s for s in table.get("seats", [])}
                    return frame["type"] in ("event", "snapshot") and seats.get(1, {}).get(
                        "disconnected"
                    )

                # Alice's screen says so (by the event, or by the heartbeat's snapshot if it was lost).
                await a.until(bob_shown_disconnected, timeout=10, start=mark)
                await asyncio.sleep(2)
            finally:
                frozen.send_signal(signal.SIGKILL)
                frozen.wait(5)
        await a.close()

    async_to_sync(scenario)()
    bob_seat = Seat.objects.get(user=bob)
    assert bob_seat.disconnected
    # RULES.md 5: the protection (or fold) for the disconnect is applied exactly once.
    assert HandAction.objects.filter(user=bob, source="disconnect").count() == 1
    assert audit_chips().ok


def test_a_database_outage_answers_acts_with_a_retryable_error_and_keeps_the_socket(
    servers, make_player
):
    # Before, the driver's exception closed the socket (1011) with a traceback.
    table = room_create(name="blackout", preset="nl50", turn_seconds=60)
    alice, bob = make_player("alice"), make_player("bob")
    cookies = [session_cookie(user) for user in (alice, bob)]
    proxy = TcpProxy()
    db = connection.settings_dict
    server = servers(database=f"postgres://{db['USER']}@127.0.0.1:{proxy.port}/{db['NAME']}")

    async def scenario():
        a, b = await sit_two(server, table, cookies[0], cookies[1])
        await database_sync_to_async(start_hand_now)(table.pk)
        with Clock():
            await a.until(
                lambda f: f["type"] == "event" and f["event"]["kind"] == "hand", timeout=10
            )
        seat, token = await database_sync_to_async(to_act)(table.pk)
        actor = {0: a, 1: b}[seat]
        before = await database_sync_to_async(table_seq)(table.pk)
        proxy.cut()
        answer = await actor.request(
            {"type": "act", "action": "call", "action_id": "during", "turn": token}
        )
        assert (
            answer["type"] == "error"
            and answer["code"] == "unavailable"
            and answer["retry"] is True
        ), answer
        assert actor.closed_with is None and actor.ws.close_code is None  # the socket stays open
        assert await database_sync_to_async(table_seq)(table.pk) == before  # nothing was applied
        proxy.restore()
        answer = await actor.request(
            {"type": "act", "action": "call", "action_id": "during", "turn": token}
        )
        assert answer["type"] == "ok" and answer["repeated"] is False, answer
        for p in (a, b):
            await p.close()

    try:
        async_to_sync(scenario)()
    finally:
        proxy.close()
    assert audit_chips().ok
