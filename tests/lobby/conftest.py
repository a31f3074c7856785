"""The lobby's tests use the fixtures of the tables' tests: rooms, seated players and test time
(tests/holdem/conftest.py), and rooms for sockets (tests/realtime/conftest.py). Imported, so
pytest finds them here too; they are written once, there."""

from tests.holdem.conftest import clock, room, scheduled, seated
from tests.realtime.conftest import lobby_sends_often, table_room

__all__ = ["clock", "lobby_sends_often", "room", "scheduled", "seated", "table_room"]
