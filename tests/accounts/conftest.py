"""The account pages' tests play real hands and tournaments: they use the fixtures of the tables'
tests (tests/holdem/conftest.py), a Sit & Go (tests/holdem/test_sit_and_go.py) and rooms for
sockets (tests/realtime/conftest.py). Imported, so pytest finds them here too."""

from tests.holdem.conftest import clock, room, seated
from tests.holdem.test_sit_and_go import sit_and_go
from tests.realtime.conftest import table_room

__all__ = ["clock", "room", "seated", "sit_and_go", "table_room"]
