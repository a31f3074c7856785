"""Two Daphne servers sharing one PostgreSQL and one Redis: players on different servers play one
hand together, and the lobby on either server sees the seats fill (channels-redis for real)."""

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connection
from django.test import Client
from django.utils import timezone

from casino.accounts.selectors import wallet_balance
from holdem.models import SitGoTemplate, Table, Tournament, TournamentStatus
from holdem.selectors.audit import audit_chips
from holdem.services import deadlines_fire_due, room_create
from holdem.services.tournaments import sit_and_go_open, tournament_register
from tests.frames import follow
from tests.socket_client import ReadingSocket, dial

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port, env):
    daphne = Path(sys.executable).with_name("daphne")
    process = subprocess.Popen(
        [str(daphne), "-b", "127.0.0.1", "-p", str(port), "casino.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return process
        except Exception as error:
            if process.poll() is not None:
                raise AssertionError(process.stdout.read()) from error
            time.sleep(0.2)
    process.kill()
    raise AssertionError(f"server on {port} did not start")


@pytest.fixture
def two_servers(postgres, redis_url, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}",
        REDIS_URL=redis_url,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_DEBUG="true",
    )
    ports = [free_port(), free_port()]
    servers = [start_server(port, env) for port in ports]
    yield ports
    for server in servers:
        server.terminate()
    for server in servers:
        try:
            server.wait(2)  # Daphne's graceful stop waits for open sockets; nothing needs them
        except subprocess.TimeoutExpired:
            server.kill()


def cookie_for(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Peer(ReadingSocket):
    """A player's socket on one of the servers, keeping the table as the frames build it."""

    answers = frozenset({"ok", "error", "snapshot"})

    def __init__(self, ws):
        super().__init__(ws, "peer")
        self.table = self.you = None

    async def on_frame(self, frame):
        self.table, self.you = follow(self.table, self.you, frame)

    async def seen_or_until(self, predicate, timeout=10):
        """A frame already received that matches, or the next one that does."""
        return await self.until(predicate, timeout, start=0)


async def connect(port, path, cookie):
    ws = await dial(
        f"ws://127.0.0.1:{port}{path}",
        origin=f"http://127.0.0.1:{port}",
        cookie=f"sessionid={cookie}",
    )
    return Peer(ws)


def test_players_on_two_servers_play_one_hand_and_both_lobbies_follow(two_servers, make_player):
    port_a, port_b = two_servers
    table = room_create(name="across servers", preset="nl50")
    alice, bob = make_player("alice"), make_player("bob")
    cookies = {"alice": cookie_for(alice), "bob": cookie_for(bob)}

    def lobby_room(frame, taken):
        """The table's change in a lobby's `rooms` frame, if it has `taken` players."""
        if frame["type"] != "rooms":
            return None
        return next(
            (r for r in frame["rooms"] if r["id"] == table.pk and r.get("taken") == taken), None
        )

    async def scenario():
        lobby_a = await connect(port_a, "/ws/lobby/", cookies["alice"])
        lobby_b = await connect(port_b, "/ws/lobby/", cookies["bob"])
        await lobby_a.until(lambda f: f["type"] == "lobby")
        await lobby_b.until(lambda f: f["type"] == "lobby")
        a = await connect(port_a, f"/ws/table/{table.pk}/", cookies["alice"])
        b = await connect(port_b, f"/ws/table/{table.pk}/", cookies["bob"])
        await a.until(lambda f: f["type"] == "snapshot")
        await b.until(lambda f: f["type"] == "snapshot")
        assert (await a.request({"type": "sit", "seat": 0, "buy_in": 3000}))["type"] == "ok"
        # Each server's lobby relay passes the change on in its next `rooms` frame.
        room = await lobby_b.until(lambda f: lobby_room(f, taken=1) is not None)
        assert lobby_room(room, taken=1)["players"] == ["alice"]
        assert (await b.request({"type": "sit", "seat": 1, "buy_in": 3000}))["type"] == "ok"
        await lobby_a.until(lambda f: lobby_room(f, taken=2) is not None)
        # The countdown ends (the clock runs in this process; its events travel through Redis).
        await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(
            next_hand_at=timezone.now()
        )
        await database_sync_to_async(deadlines_fire_due)()
        hole_a = (await a.until(lambda f: f.get("you") and f["you"]["hole"]))["you"]["hole"]
        hole_b = (await b.until(lambda f: f.get("you") and f["you"]["hole"]))["you"]["hole"]
        assert len(hole_a) == len(hole_b) == 2 and not set(hole_a) & set(hole_b)
        peers = {0: a, 1: b}
        for step in range(30):
            snapshot = await a.request({"type": "snapshot"})
            hand = snapshot["table"]["hand"]
            if hand is None:
                break
            actor = peers[hand["to_act"]]
            mine = await actor.request({"type": "snapshot"})
            legal = mine["you"]["legal"]
            move = "check" if "check" in legal["actions"] else "call"
            answer = await actor.request(
                {
                    "type": "act",
                    "action": move,
                    "action_id": f"s{step}",
                    "turn": mine["table"]["turn"]["token"],
                }
            )
            assert answer["type"] == "ok", answer
        ended_a = await a.seen_or_until(
            lambda f: f["type"] == "event" and f["event"]["kind"] == "hand_ended"
        )
        ended_b = await b.seen_or_until(
            lambda f: f["type"] == "event" and f["event"]["kind"] == "hand_ended"
        )
        assert ended_a["table"]["last_hand"] == ended_b["table"]["last_hand"]
        assert len(ended_a["table"]["last_hand"]["board"]) == 5
        for peer in (a, b, lobby_a, lobby_b):
            await peer.ws.close()

    async_to_sync(scenario)()

    assert audit_chips().ok


def test_two_players_on_two_servers_race_for_a_sit_and_gos_last_seat(two_servers, make_player):
    """RULES.md 8: the last seat of a Sit & Go, asked for at once through two servers' register
    endpoints: one player gets it and the tournament starts once; the other is refused with a
    clear error and nothing taken from the wallet."""

    template = SitGoTemplate.objects.create(
        name="Across servers", seats=2, buy_in=500, fee=50, starting_stack=1_000
    )
    csrf = "a" * 32
    for _ in range(3):  # a few rounds, so the two requests really overlap
        tournament = sit_and_go_open(template)
        racers = [make_player(), make_player()]
        before = {p.pk: wallet_balance(user=p) for p in racers}
        tournament_register(tournament_id=tournament.pk, user=make_player())
        barrier = threading.Barrier(2)
        answers = {}

        def register(port, player, barrier=barrier, answers=answers, tournament=tournament):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/lobby/sit-and-go/{tournament.pk}/register/",
                method="POST",
                data=b"",
                headers={
                    "Cookie": f"sessionid={cookie_for(player)}; csrftoken={csrf}",
                    "X-CSRFToken": csrf,
                    "Origin": f"http://127.0.0.1:{port}",
                    "Accept": "application/json",
                },
            )
            barrier.wait()
            try:
                with urllib.request.urlopen(request, timeout=20) as answer:
                    answers[player.pk] = (answer.status, json.loads(answer.read()))
            except urllib.error.HTTPError as error:
                answers[player.pk] = (error.code, json.loads(error.read()))

        threads = [
            threading.Thread(target=register, args=(port, player))
            for port, player in zip(two_servers, racers)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        statuses = sorted(status for status, _ in answers.values())
        assert statuses == [200, 400], answers
        loser = next(p for p in racers if answers[p.pk][0] == 400)
        winner = next(p for p in racers if answers[p.pk][0] == 200)
        assert answers[loser.pk][1]["error"]["code"] in {"tournament_started", "tournament_full"}
        assert wallet_balance(user=loser) == before[loser.pk]
        assert wallet_balance(user=winner) == before[winner.pk] - 550
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.RUNNING and tournament.entrants == 2
        assert tournament.table.seat_set.count() == 2
        # Each round opens its own: the one the start opened is set aside, with nobody in it.
        Tournament.objects.filter(template=template, status="registering").update(
            status=TournamentStatus.CANCELLED
        )
    assert audit_chips().ok
