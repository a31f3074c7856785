"""The figures of casino/metrics.py move with real sockets: sockets open and closed by kind, an
action applied (counted once, timed to its commit, its broadcast timed to each socket), a refused
handshake of a busy server, the heartbeat's hints and rejoins. The registry is the process's, so
each test compares with the values before it."""

import asyncio

import pytest
import redis.asyncio
from asgiref.sync import async_to_sync

from casino import metrics
from casino.metrics_endpoint import exposition
from holdem.realtime.heartbeat import heartbeat
from tests.realtime.conftest import fire_clock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def value(name: str, **labels) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


def sockets_open(kind: str) -> float:
    return value("casino_open_sockets", kind=kind)


def test_sockets_are_counted_by_kind_while_open(table_room, make_player):
    table = table_room()
    alice = make_player("alice")

    async def scenario():
        before = {kind: sockets_open(kind) for kind in metrics.SOCKET_KINDS}
        at_table = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        lobby = await open_socket("/ws/lobby/", user=alice)
        own = await open_socket("/ws/me/", user=alice)
        for sock in (at_table, lobby, own):
            await sock.receive()  # the snapshot: the socket is open and counted
        assert {kind: sockets_open(kind) - before[kind] for kind in before} == {
            "table": 1,
            "lobby": 1,
            "me": 1,
        }
        for sock in (at_table, lobby, own):
            await sock.close()
        await asyncio.sleep(0)
        assert {kind: sockets_open(kind) for kind in before} == before

    async_to_sync(scenario)()


def test_an_action_over_a_socket_is_counted_and_timed(table_room, make_player):
    table = table_room()
    alice, bob = make_player("alice"), make_player("bob")

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice, name="alice")
        b = await open_socket(f"/ws/table/{table.pk}/", user=bob, name="bob")
        await a.receive(), await b.receive()
        await a.request({"type": "sit", "seat": 0, "buy_in": 3000})
        await b.request({"type": "sit", "seat": 1, "buy_in": 3000})
        await fire_clock(31)
        figures = await exposition()
        assert b"casino_tables_playing 1.0" in figures
        snapshot = await a.request({"type": "snapshot"})
        to_act = {0: a, 1: b}[snapshot["table"]["hand"]["to_act"]]
        await b.drain()
        await a.drain()

        actions = value("casino_actions_total")
        timed = value("casino_act_commit_seconds_count")
        delivered = value("casino_commit_delivery_seconds_count")
        answer = await to_act.request({"type": "act", "action": "fold", "action_id": "m-1"})
        assert answer["type"] == "ok" and not answer["repeated"]
        await a.until(lambda f: f["type"] == "event")
        await b.until(lambda f: f["type"] == "event")
        assert value("casino_actions_total") == actions + 1
        assert value("casino_act_commit_seconds_count") == timed + 1
        # The fold's broadcast reached both sockets of this process, each timed from the commit.
        assert value("casino_commit_delivery_seconds_count") >= delivered + 2

        repeat = await to_act.request({"type": "act", "action": "fold", "action_id": "m-1"})
        assert repeat["type"] == "ok" and repeat["repeated"]
        refused = await to_act.request({"type": "act", "action": "fold", "action_id": "m-2"})
        assert refused["type"] == "error"
        assert value("casino_actions_total") == actions + 1  # neither is a new action
        assert value("casino_act_commit_seconds_count") == timed + 1
        for sock in (a, b):
            await sock.close()

    async_to_sync(scenario)()


def test_a_busy_server_counts_the_handshakes_it_refuses(table_room, make_player):
    table = table_room()
    alice = make_player("alice")

    async def scenario():
        beat = heartbeat()
        refused = value("casino_busy_refusals_total")
        beat.database_wait = 5.0  # the database thread is 5 s behind
        try:
            code = await open_socket(f"/ws/table/{table.pk}/", user=alice)
            assert not hasattr(code, "frames")
            assert b"casino_database_thread_lag_seconds 5.0" in await exposition()
        finally:
            beat.database_wait = 0.0
        assert value("casino_busy_refusals_total") == refused + 1
        assert b"casino_database_thread_lag_seconds 0.0" in await exposition()

    async_to_sync(scenario)()


def test_the_heartbeat_counts_its_hints_and_rejoins(table_room, make_player, settings, redis_url):
    table = table_room()
    alice = make_player("alice")

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        await a.receive()
        await a.request({"type": "sit", "seat": 0, "buy_in": 3000})
        await a.until(lambda f: f["type"] == "event")  # seated: the table is at seq 1
        beat = heartbeat()
        (socket,) = beat.sockets
        # An event this socket missed: the table is at a seq it has not seen.
        hints = value("casino_heartbeat_resyncs_total", kind="hint")
        socket.last_seq = 0
        await beat.beat()  # settles the table's seq
        await beat.beat()  # finds the socket behind it
        frame = await a.until(lambda f: f["type"] == "heartbeat")
        assert frame["seq"] > 0
        assert value("casino_heartbeat_resyncs_total", kind="hint") >= hints + 1

        # The channel layer loses this process's groups (Redis flushed): they are joined again.
        settings.CHANNEL_LAYER_URLS = [redis_url]
        rejoins = value("casino_heartbeat_resyncs_total", kind="rejoin")
        await beat.layer_lost()  # leaves its marker in Redis
        client = redis.asyncio.Redis.from_url(redis_url)
        await client.delete(beat.marker)
        await client.aclose()
        await beat.layer_lost()
        assert value("casino_heartbeat_resyncs_total", kind="rejoin") >= rejoins + 1
        settings.CHANNEL_LAYER_URLS = []
        await a.close()

    async_to_sync(scenario)()
