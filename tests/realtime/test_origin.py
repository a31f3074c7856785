"""A websocket opens only from the site's own origin: scheme, host and port (casino/origin.py).

Every socket here carries a valid session, so a refusal can only come from the origin check.
"""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tests.realtime.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

LOBBY = "/ws/lobby/"


def handshake(
    user,
    *,
    host="127.0.0.1:8000",
    origin="http://127.0.0.1:8000",
    scheme=None,
    path=LOBBY,
    extra=(),
):
    """Open a socket as a signed-in browser tab would; True when the server accepts it."""

    async def attempt():
        from casino.asgi import application

        cookie = await database_sync_to_async(session_cookie)(user)
        headers = [(b"cookie", f"sessionid={cookie}".encode()), *extra]
        if host is not None:
            headers.append((b"host", host.encode()))
        if origin is not None:
            headers.append((b"origin", origin.encode()))
        communicator = WebsocketCommunicator(application, path, headers=headers)
        if scheme is not None:
            communicator.scope["scheme"] = scheme
        accepted, _ = await communicator.connect(timeout=3)
        if accepted:
            await communicator.disconnect()
        return accepted

    return async_to_sync(attempt)()


@pytest.fixture
def alice(make_player):
    return make_player("alice")


def test_the_sites_own_origin_is_accepted(alice, table_room):
    assert handshake(alice)
    assert handshake(alice, path=f"/ws/table/{table_room().pk}/")
    # The default port may be written out or left out, on either side.
    assert handshake(alice, host="127.0.0.1", origin="http://127.0.0.1")
    assert handshake(alice, host="127.0.0.1:80", origin="http://127.0.0.1")
    assert handshake(alice, host="127.0.0.1", origin="http://127.0.0.1:80")
    assert handshake(alice, host="LocalHost:8000", origin="http://localhost:8000")


def test_a_page_on_another_port_of_the_same_host_is_refused(alice):
    assert not handshake(alice, host="127.0.0.1:8000", origin="http://127.0.0.1:8101")
    assert not handshake(alice, host="127.0.0.1", origin="http://127.0.0.1:8000")
    assert not handshake(alice, host="127.0.0.1:8000", origin="http://127.0.0.1")


def test_a_page_on_the_other_scheme_is_refused(alice, settings):
    settings.ALLOWED_HOSTS = ["poker.example.com"]
    assert not handshake(alice, host="poker.example.com", origin="https://poker.example.com")
    assert not handshake(
        alice, host="poker.example.com", origin="http://poker.example.com", scheme="wss"
    )
    assert handshake(
        alice, host="poker.example.com", origin="https://poker.example.com", scheme="wss"
    )
    # Not even the ws scheme itself: browsers send the page's origin, never ws://.
    assert not handshake(alice, host="poker.example.com", origin="ws://poker.example.com")


def test_behind_a_tls_proxy_the_page_origin_is_https(alice, settings):
    settings.ALLOWED_HOSTS = ["poker.example.com"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    over_tls = [(b"x-forwarded-proto", b"https")]
    assert handshake(
        alice, host="poker.example.com", origin="https://poker.example.com", extra=over_tls
    )
    assert not handshake(
        alice, host="poker.example.com", origin="http://poker.example.com", extra=over_tls
    )
    plain = [(b"x-forwarded-proto", b"http")]
    assert handshake(
        alice, host="poker.example.com", origin="http://poker.example.com", extra=plain
    )
    assert not handshake(
        alice, host="poker.example.com", origin="https://poker.example.com", extra=plain
    )
    # Without the header the socket's own scheme decides.
    assert handshake(alice, host="poker.example.com", origin="http://poker.example.com")


def test_an_origin_listed_in_csrf_trusted_origins_is_accepted(alice, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.com", "https://*.cards.example.com:8443"]
    assert handshake(alice, origin="https://play.example.com")
    assert handshake(alice, origin="https://a.cards.example.com:8443")
    assert handshake(alice, origin="https://cards.example.com:8443")
    assert not handshake(alice, origin="http://play.example.com")
    assert not handshake(alice, origin="https://play.example.com:8443")
    assert not handshake(alice, origin="https://a.cards.example.com")
    assert not handshake(alice, origin="https://evil-cards.example.com:8443")


def test_a_socket_without_an_origin_is_refused(alice):
    assert not handshake(alice, origin=None)
    assert not handshake(alice, origin="null")
    assert not handshake(alice, origin="")
    assert not handshake(alice, origin="http://127.0.0.1:8000/lobby/")
    assert not handshake(alice, origin="http://evil.example@127.0.0.1:8000")
    # Two Origin headers: refused, whichever of them a proxy would have kept.
    assert not handshake(alice, extra=[(b"origin", b"http://evil.example")])


def test_a_host_outside_allowed_hosts_is_refused_even_from_its_own_origin(alice, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["http://127.0.0.1:8000"]
    assert not handshake(alice, host="evil.example:8000", origin="http://evil.example:8000")
    assert not handshake(alice, host="evil.example:8000", origin="http://127.0.0.1:8000")
    assert not handshake(alice, host=None, origin="http://127.0.0.1:8000")
    assert not handshake(alice, host="127.0.0.1:8000:1", origin="http://127.0.0.1:8000")
