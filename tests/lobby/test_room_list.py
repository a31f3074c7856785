"""The room list the lobby and the table pages' room switcher refresh from (/lobby/rooms/)."""

import pytest

from holdem.services import room_create

pytestmark = pytest.mark.django_db


def test_the_room_switcher_reads_the_rooms_now(client, make_player):
    room_create(name="Switcher", preset="nl50")
    assert client.get("/lobby/rooms/").status_code == 302  # signed-in users only
    client.force_login(make_player("switcher"))
    answer = client.get("/lobby/rooms/")
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    names = [room["name"] for room in answer.json()["rooms"]]
    assert "Switcher" in names
    assert client.post("/lobby/rooms/").status_code == 405
