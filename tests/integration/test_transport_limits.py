"""What reaches the consumer over a real Daphne started as the product starts it (bin/daphne-serve):
Daphne refuses oversized frames and invalid UTF-8 itself; the consumer answers the rest with its
own protocol codes (docs/protocol.md).

Plain Daphne leaves autobahn's failByDrop on: a frame autobahn refuses ends the TCP connection
without a close frame (1006). casino/serve.py turns it off, so the client learns why: 1009 for a
frame too big, 1007 for text that is not UTF-8.
"""

import asyncio
import contextlib
import json
import os
import struct

import pytest
from asgiref.sync import async_to_sync
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from holdem.services import room_create
from tests.integration.daphne_serve import ROOT, daphne_serving, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

CLOSE_INVALID_UTF8 = 1007  # RFC 6455 7.4.1
CLOSE_MESSAGE_TOO_BIG = 1009
CLOSE_TOO_BIG = 4009  # the consumer's, docs/protocol.md


@pytest.fixture
def server(postgres):
    """A Daphne of its own for each test: stopped before the test database is flushed, it cannot
    be touching the tables the flush truncates."""
    with daphne_serving() as port:
        yield port


@pytest.fixture
def table_socket(postgres, server, make_player):
    """Open the table's socket for a signed-in player, as a browser tab on the site would."""
    table = room_create(name="limits", preset="nl50")
    cookie = session_cookie(make_player("alice"))

    def open_socket():
        return connect(
            f"ws://127.0.0.1:{server}/ws/table/{table.pk}/",
            origin=f"http://127.0.0.1:{server}",
            proxy=None,
            additional_headers={"Cookie": f"sessionid={cookie}"},
            max_size=2**20,
        )

    return open_socket


async def next_of(ws, kind, timeout=5):
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if frame["type"] == kind:
            return frame


async def close_code_after(ws, message=None, timeout=10, **send_options) -> int:
    """Send `message` (if any), then read until the connection ends: the code the server closed
    with, or 1006 for none."""
    if message is not None:
        # The server may drop us while a big frame is still being written.
        with contextlib.suppress(ConnectionClosed):
            await ws.send(message, **send_options)
    try:
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else 1006  # no close frame at all


def start_of_text_frame(length: int, first_bytes: bytes) -> bytes:
    """A masked client text frame announcing `length` payload bytes, cut after `first_bytes`
    (RFC 6455 5.2: FIN + text opcode, mask bit + 64-bit length, masking key, masked payload)."""
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(first_bytes))
    return struct.pack("!BBQ", 0x81, 0x80 | 127, length) + mask + masked


def test_a_16_mib_frame_is_refused_by_daphne_from_its_header_with_1009_without_being_buffered(
    table_socket,
):
    async def scenario():
        async with table_socket() as ws:
            await next_of(ws, "snapshot")
            # Only the header and 1 KiB go out: Daphne can only be refusing what was announced.
            ws.transport.write(
                start_of_text_frame(16 * 2**20, b'{"type": "ping", "pad": "' + b"x" * 1000)
            )
            return await close_code_after(ws)

    assert async_to_sync(scenario)() == CLOSE_MESSAGE_TOO_BIG


def test_a_64_kib_frame_is_refused_by_daphne_with_1009_before_the_consumer_sees_it(table_socket):
    # With Daphne's default limit (1 MiB) this frame would be buffered whole and the consumer
    # would close with 4009.
    async def scenario():
        async with table_socket() as ws:
            await next_of(ws, "snapshot")
            return await close_code_after(ws, json.dumps({"type": "ping", "pad": "x" * 64 * 1024}))

    assert async_to_sync(scenario)() == CLOSE_MESSAGE_TOO_BIG


def test_a_6_kib_frame_gets_past_daphne_and_the_consumer_closes_with_4009(table_socket):
    async def scenario():
        async with table_socket() as ws:
            await next_of(ws, "snapshot")
            return await close_code_after(ws, json.dumps({"type": "ping", "pad": "x" * 6 * 1024}))

    assert async_to_sync(scenario)() == CLOSE_TOO_BIG


def test_a_frame_of_exactly_4_kib_is_still_answered(table_socket):
    async def scenario():
        async with table_socket() as ws:
            await next_of(ws, "snapshot")
            text = json.dumps({"type": "ping", "pad": ""})
            await ws.send(text.replace('""', '"' + "x" * (4096 - len(text)) + '"'))
            return await next_of(ws, "error")

    # Not too big: refused for its unknown field, like any other bad frame, and the socket lives on.
    assert async_to_sync(scenario)()["code"] == "bad_frame"


def test_a_text_frame_that_is_not_utf8_is_closed_by_daphne_with_1007(table_socket):
    async def scenario():
        async with table_socket() as ws:
            await next_of(ws, "snapshot")
            # text=True sends the bytes as they are in a text frame (websockets does not check them).
            return await close_code_after(ws, b'{"type": "act", "action": "\xff\xfe"}', text=True)

    assert async_to_sync(scenario)() == CLOSE_INVALID_UTF8


def test_a_lone_surrogate_spelled_in_json_gets_bad_frame_and_the_socket_stays_open(table_socket):
    async def scenario():
        async with table_socket() as ws:
            await next_of(ws, "snapshot")
            # Valid UTF-8 on the wire: the six characters \ud800 are JSON's spelling of a lone
            # surrogate, which only json.loads produces.
            await ws.send(r'{"type": "act", "action": "\ud800", "action_id": "s1"}')
            error = await next_of(ws, "error")
            await ws.send(json.dumps({"type": "ping"}))
            await next_of(ws, "pong")  # still open, still answering
            return error

    assert async_to_sync(scenario)()["code"] == "bad_frame"


def test_frames_the_server_sends_are_not_held_to_the_inbound_frame_limit(
    postgres, server, make_player
):
    # autobahn applies Daphne's --websocket-max-message-size to outgoing messages as well: had it
    # been set near the protocol's 4 KiB, this lobby frame would kill the socket with 1011.
    for number in range(60):
        room_create(
            name=f"a room with a name long enough to fill the lobby {number}", preset="nl50"
        )
    cookie = session_cookie(make_player("bob"))

    async def scenario():
        async with connect(
            f"ws://127.0.0.1:{server}/ws/lobby/",
            origin=f"http://127.0.0.1:{server}",
            proxy=None,
            additional_headers={"Cookie": f"sessionid={cookie}"},
            max_size=2**20,
        ) as ws:
            return await asyncio.wait_for(ws.recv(), 10)

    lobby = async_to_sync(scenario)()
    assert len(lobby.encode()) > 8192
    assert json.loads(lobby)["type"] == "lobby"


@pytest.mark.parametrize("path", ["bin/run", "bin/cluster", "Dockerfile", "docker-compose.yml"])
def test_every_place_that_serves_the_site_starts_daphne_through_bin_daphne_serve(path):
    lines = [
        line for line in (ROOT / path).read_text().splitlines() if not line.lstrip().startswith("#")
    ]
    starts = [line for line in lines if "daphne" in line.lower()]
    assert starts and all("bin/daphne-serve" in line for line in starts), path
