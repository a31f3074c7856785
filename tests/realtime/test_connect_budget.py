"""What one socket's connect costs: its handshake and first snapshot, in statements and in trips to
the server's one database thread, held so it cannot creep back (docs/performance.md, "Reconnect
storm"). A deploy sends every socket of a server to the others at once; each trip of each
arriving socket then queues behind the table actions on that thread, and each statement is CPU
the tables already playing do not get.

Counted across every thread (the handshake reads the session, the user and the room on the loop's
other threads, casino/handshake.py), after one socket to the same place has warmed the process
(its presence row, its prepared statements, the room found open). Measured when the budgets were
set, statements (of them on other threads) and trips to the database thread, before -> after:
a spectator's table socket 21 (3) in 2 -> 15 (2) in 1; a seated player's 17 (3) in 2 -> 10 (2)
in 1; the lobby's 9 (2) with one room, one more for each other room, in 3 -> 8 (2) in 1 whatever
the number of rooms; ws/me/'s 7 (2) in 2 -> 6 (2) in 1. The two on other
threads are the handshake's session and user (casino/handshake.py), one trip to the loop's pool.
"""

import threading

import pytest
from asgiref.sync import SyncToAsync, async_to_sync
from django.db.backends.utils import CursorWrapper

from holdem.realtime.heartbeat import Heartbeat
from holdem.services import table_sit
from tests.realtime.conftest import open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

# (path kind, who connects): statements in all, of them on other threads than the database's,
# trips to the database thread. The table snapshot reads the viewer's preferences (one row: the
# table settings and the auto top-up), so that every device draws the table the same way, and
# their notes on the players there (rules.md 6).
BUDGETS = {
    ("table", "spectator"): (17, 2, 1),
    ("table", "seated"): (12, 2, 1),
    ("lobby", "seated"): (8, 2, 1),
    ("me", "seated"): (6, 2, 1),
}
FIRST_FRAME = {"table": "snapshot", "lobby": "lobby", "me": "wallet"}


class Counted:
    """Every statement run through Django's cursors while `on`, with the thread it ran on, and
    every call through asgiref's SyncToAsync (database_sync_to_async and handshake_read): the
    ones that are thread-sensitive go to the one database thread."""

    def __init__(self, monkeypatch):
        self.on = False
        self.statements: list[tuple[str, str]] = []
        self.calls: list[tuple[bool, str]] = []
        execute = CursorWrapper._execute_with_wrappers
        call = SyncToAsync.__call__
        counted = self

        def counting_execute(cursor, sql, params, many, executor):
            if counted.on:
                counted.statements.append((threading.current_thread().name, sql))
            return execute(cursor, sql, params, many, executor)

        async def counting_call(wrapper, *args, **kwargs):
            if counted.on:
                name = getattr(wrapper.func, "__name__", repr(wrapper.func))
                counted.calls.append((wrapper._thread_sensitive, name))
            return await call(wrapper, *args, **kwargs)

        monkeypatch.setattr(CursorWrapper, "_execute_with_wrappers", counting_execute)
        monkeypatch.setattr(SyncToAsync, "__call__", counting_call)
        # The process's heartbeat is its own cost, once a second for all sockets: not started here.
        monkeypatch.setattr(Heartbeat, "add", lambda self, socket: self.sockets.add(socket))

    def trips(self) -> int:
        return sum(1 for sensitive, _ in self.calls if sensitive)

    def on_other_threads(self, database_thread: str) -> int:
        return sum(1 for thread, _ in self.statements if thread != database_thread)

    def listing(self) -> str:
        calls = "\n".join(
            f"  {'database thread' if s else 'other thread'}: {n}" for s, n in self.calls
        )
        sql = "\n".join(f"  [{thread}] {text[:200]}" for thread, text in self.statements)
        return f"calls:\n{calls}\nstatements:\n{sql}"


@pytest.mark.parametrize(("kind", "who"), list(BUDGETS))
def test_a_socket_connects_in_one_trip_to_the_database_thread(
    kind, who, table_room, make_player, monkeypatch
):
    table = table_room()
    for _ in range(3):  # more rooms: the lobby's snapshot must not cost a query per room
        table_room()
    alice, bob, carol, dave = (make_player(name) for name in ("alice", "bob", "carol", "dave"))
    for seat, user in enumerate((alice, bob)):
        table_sit(table_id=table.pk, user=user, seat=seat, buy_in=5_000)
    path = {"table": f"/ws/table/{table.pk}/", "lobby": "/ws/lobby/", "me": "/ws/me/"}[kind]
    warm, cookie = session_cookie(carol), session_cookie(dave if who == "spectator" else alice)
    counted = Counted(monkeypatch)

    async def scenario():
        first = await open_socket(path, cookie=warm)
        assert (await first.receive())["type"] == FIRST_FRAME[kind]
        counted.on = True
        socket = await open_socket(path, cookie=cookie)
        assert hasattr(socket, "frames"), f"refused: {socket}"
        frame = await socket.receive()
        counted.on = False
        await socket.close()
        await first.close()
        return frame

    # Under async_to_sync the thread-sensitive calls run on the thread that called it: this one.
    database_thread = threading.current_thread().name
    frame = async_to_sync(scenario)()
    assert frame["type"] == FIRST_FRAME[kind]
    if kind == "table":  # the snapshot is whole, and this user's own
        assert frame["table"]["seats"][0]["username"] == "alice"
        assert frame["you"]["seat"] == (None if who == "spectator" else 0)
        assert frame["table"]["spectators"] == (2 if who == "spectator" else 1)  # carol too
    statements, other_threads, trips = BUDGETS[(kind, who)]
    assert counted.trips() <= trips, counted.listing()
    assert len(counted.statements) <= statements, counted.listing()
    assert counted.on_other_threads(database_thread) <= other_threads, counted.listing()
