"""The origin check over a real Daphne (bin/daphne-serve, production settings): a socket from
another origin is refused with HTTP 403 during the handshake, before any frame (casino/origin.py)."""

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.integration.daphne_serve import daphne_serving, free_port, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server(postgres):
    """A Daphne of its own for each test: stopped before the test database is flushed, it cannot
    be touching the tables the flush truncates."""
    with daphne_serving() as port:
        yield port


@pytest.fixture
def lobby_handshake(postgres, server, make_player):
    """Open the lobby socket as signed-in alice with the given Origin (and extra headers): the
    first frame, or the HTTP status the handshake was refused with."""
    cookie = session_cookie(make_player("alice"))

    def attempt(origin, **headers):
        async def scenario():
            try:
                async with connect(
                    f"ws://127.0.0.1:{server}/ws/lobby/",
                    origin=origin,
                    proxy=None,
                    additional_headers={"Cookie": f"sessionid={cookie}", **headers},
                ) as ws:
                    return json.loads(await asyncio.wait_for(ws.recv(), 5))
            except InvalidStatus as refused:
                return refused.response.status_code

        return async_to_sync(scenario)()

    return attempt


def test_a_page_on_another_port_of_the_same_host_is_refused_with_403(server, lobby_handshake):
    other_port = free_port()
    assert lobby_handshake(f"http://127.0.0.1:{other_port}") == 403
    assert lobby_handshake(f"http://localhost:{server}") == 403
    assert lobby_handshake(f"http://127.0.0.1:{server}")["type"] == "lobby"


def test_behind_a_tls_proxy_only_the_https_page_may_open_a_socket(server, lobby_handshake):
    # Production settings trust X-Forwarded-Proto (SECURE_PROXY_SSL_HEADER), as nginx sends it.
    assert (
        lobby_handshake(f"https://127.0.0.1:{server}", **{"X-Forwarded-Proto": "https"})["type"]
        == "lobby"
    )
    assert lobby_handshake(f"http://127.0.0.1:{server}", **{"X-Forwarded-Proto": "https"}) == 403
    assert lobby_handshake(f"https://127.0.0.1:{server}") == 403
