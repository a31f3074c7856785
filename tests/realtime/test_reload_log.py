"""A page reloaded between hands writes the last hand's log again, as the page that stayed open
still shows it: the snapshot its socket gets carries that hand's public events (and nobody's
hole cards)."""

import json

import pytest
from asgiref.sync import async_to_sync

from holdem import engine
from holdem.services import table_act
from tests.holdem.conftest import clock, current, room, seated
from tests.realtime.conftest import open_socket

__all__ = ["clock", "room", "seated"]  # fixtures, written once in tests/holdem/conftest.py

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_page_reloaded_between_hands_gets_the_last_hands_log(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)  # the countdown ends: the hand is dealt
    holes = [card for seat in current(table).players for card in seat.hole]
    while current(table) is not None:
        legal = engine.legal_actions(current(table))
        table_act(table_id=table.pk, user=users[legal.seat], action="fold")
    table.refresh_from_db()
    assert not table.in_hand and table.last_hand is not None

    async def reload(user):
        page = await open_socket(f"/ws/table/{table.pk}/", user=user, name=user.username)
        snapshot = await page.until(lambda f: f["type"] == "snapshot")
        await page.close()
        return snapshot

    for user in users.values():
        snapshot = async_to_sync(reload)(user)
        kinds = [event["kind"] for event in snapshot.get("log", [])]
        assert kinds[:1] == ["hand_started"] and "pot_awarded" in kinds, kinds
        assert kinds[-1] == "hand_ended", kinds
        text = json.dumps(snapshot["log"])
        assert not any(f'"{card}"' in text for card in holes), text
