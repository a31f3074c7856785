"""Websocket test harness: real ASGI app (origin check, session auth), real transactions."""

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from lobby import relay
from tests.frames import follow
from tests.socket_client import FrameLog

ORIGIN = b"http://127.0.0.1"


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Socket(FrameLog):
    """One browser tab: a connected websocket that remembers every frame it received. Like the
    site's client it keeps the table as the frames build it: each `event` frame is given the
    whole `table` after its changes (holdem/realtime/delta.py), as the client holds it. Frames
    are read when the test asks, so `until` waits for one still to come."""

    timeout = 3
    looks_back = False
    answers = frozenset({"ok", "error", "pong", "snapshot", "previous_hand", "switched"})

    def __init__(self, communicator, name):
        super().__init__(name)
        self.communicator = communicator
        self.table = None
        self.you = None
        self.seq = None

    async def send_text(self, text):
        await self.communicator.send_to(text_data=text)

    async def receive(self, timeout=3):
        frame = json.loads(await self.communicator.receive_from(timeout=timeout))
        self.table, self.you = follow(self.table, self.you, frame)
        if frame["type"] in ("snapshot", "event"):
            self.seq = frame["seq"]
        self.frames.append(frame)
        return frame

    async def next_frame(self, timeout):
        await self.receive(timeout=timeout)

    async def drain(self, timeout=0.1):
        """Read everything waiting; returns the frames read. (receive_nothing does not cancel
        the application the way a timed-out receive does.)"""
        got = []
        while not await self.communicator.receive_nothing(timeout=timeout):
            got.append(await self.receive())
        return got

    async def close(self):
        await self.communicator.disconnect()


async def open_socket(path, user=None, cookie=None, origin=ORIGIN, name="socket", wrap=None):
    """A socket to the site's application (behind `wrap(application)` if given)."""
    from casino.asgi import application

    if wrap is not None:
        application = wrap(application)
    headers = [(b"host", b"127.0.0.1"), (b"origin", origin)]
    if user is not None or cookie is not None:
        key = cookie or await database_sync_to_async(session_cookie)(user)
        headers.append((b"cookie", f"sessionid={key}".encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect(timeout=3)
    return Socket(communicator, name) if connected else code


async def fire_clock(seconds):
    from holdem.realtime.heartbeat import PROCESS_KEY
    from holdem.services import deadlines_fire_due
    from holdem.services.presence import process_beat
    from tests.holdem.conftest import clock_ran_until

    now = timezone.now() + timedelta(seconds=seconds)
    await database_sync_to_async(clock_ran_until)(now)
    # This test process serves the sockets; it is alive at `now` too.
    await database_sync_to_async(process_beat)(process_key=PROCESS_KEY, now=now)
    return await database_sync_to_async(deadlines_fire_due)(now)


@database_sync_to_async
def countdown_left(table_id) -> float:
    """Seconds to move the clock for the next hand to start: the countdown, or more when the last
    hand ended in test time ahead of now (a hand all in from the blinds ends as it is dealt, at
    the moved clock, and its countdown runs from there)."""
    from holdem.models import Table

    starts = Table.objects.get(pk=table_id).next_hand_at
    return max(31.0, (starts - timezone.now()).total_seconds() + 1 if starts else 0.0)


@pytest.fixture(autouse=True)
def lobby_sends_often(monkeypatch):
    """The lobby relay sends its changes every 50 ms here, not every second: the tests wait for
    them. (tests/lobby/test_lobby_socket.py drives the relay's sends itself.)"""
    monkeypatch.setattr(relay, "FLUSH_SECONDS", 0.05)
    monkeypatch.setattr(relay, "STALE_READ_SECONDS", 0)


@pytest.fixture
def table_room(db):
    from holdem.services import room_create

    def make(preset="nl50", **options):
        from holdem.models import Table

        options.setdefault("time_bank_seconds", 0)  # as in tests/holdem/conftest.py

        return room_create(name=f"rt {preset} {Table.objects.count()}", preset=preset, **options)

    return make


class ListeningTab(Socket):
    """A tab whose frames are read as they come, by a reader task, as the site's client reads
    them (the table followed as for `Socket`): several tabs of several players are then served
    at once, and `until` looks through the whole log."""

    looks_back = True
    answers = FrameLog.answers

    def __init__(self, communicator, name):
        super().__init__(communicator, name)
        self.arrived = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self.read())

    async def read(self):
        while True:
            await self.receive(timeout=3600)  # never times out: a timeout would stop the consumer
            self.arrived.set()

    async def next_frame(self, timeout):
        self.arrived.clear()  # nothing runs between the look through the log and this clear
        await asyncio.wait_for(self.arrived.wait(), timeout)

    async def close(self):
        self.reader.cancel()  # (cancelled while waiting, the application goes on: no timeout)
        await asyncio.gather(self.reader, return_exceptions=True)
        await super().close()


async def open_tab(path, user, name, first=("snapshot",)):
    """A `ListeningTab` to the site's application, once its first frame (of a type in `first`)
    has come."""
    sock = await open_socket(path, user=user, name=name)
    assert isinstance(sock, Socket), f"{name}: {path} refused with {sock}"
    tab = ListeningTab(sock.communicator, name)
    await tab.until(lambda f: f["type"] in first)
    return tab
