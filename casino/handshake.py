"""Websocket handshakes that do not wait for the table actions.

Channels runs every `database_sync_to_async` call of a server on one thread, so that its
connection is reused; under load that thread is a queue of table actions, and a handshake that
signed its user in there waited its turn, up to Daphne's timeout (docs/performance.md).
The reads a handshake needs (the session's user, whether the room is open) run on the other
threads of the loop's pool instead, each with its own database connection. Everything that
writes stays on the one thread.
"""

from channels.auth import AuthMiddleware, get_user
from channels.db import DatabaseSyncToAsync
from channels.sessions import CookieMiddleware, SessionMiddleware


def handshake_read(function):
    """`database_sync_to_async(function)`, on a thread other than the table actions' one: for
    reads only (every write of a socket keeps to the one thread and its lock order)."""
    return DatabaseSyncToAsync(function, thread_sensitive=False)


# channels.auth.get_user is itself a database_sync_to_async function: the same lookup, elsewhere.
_user_for_scope = handshake_read(get_user.func)


class HandshakeAuthMiddleware(AuthMiddleware):
    """Channels' AuthMiddleware: the user comes from the session's cookie, and a socket without a
    valid session has an anonymous user, which the consumers refuse."""

    async def resolve_scope(self, scope):
        scope["user"]._wrapped = await _user_for_scope(scope)


def auth_stack(inner):
    """channels.auth.AuthMiddlewareStack with the handshake's own user lookup."""
    return CookieMiddleware(SessionMiddleware(HandshakeAuthMiddleware(inner)))
