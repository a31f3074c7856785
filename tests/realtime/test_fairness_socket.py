"""docs/fairness.md over the table socket: the frame that deals a hand carries its deck
commitment, the snapshot has it from then on, a reloaded page reads the same one, the hand's
record keeps it, and no socket ever receives a salt (with one, a leaf would name its card)."""

import json

import pytest
from asgiref.sync import async_to_sync

from holdem.engine.commitment import deck_commitment
from holdem.models import HandRecord
from tests.realtime.conftest import countdown_left, fire_clock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_deal_publishes_the_commitment_and_no_salt_ever_leaves(table_room, make_player):
    table = table_room("nl50")
    alice, bob, watcher = make_player("alice"), make_player("bob"), make_player("watcher")

    async def scenario():
        sockets = {}
        for seat, user in ((0, alice), (1, bob)):
            sockets[seat] = await open_socket(
                f"/ws/table/{table.pk}/", user=user, name=user.username
            )
            await sockets[seat].receive()
            await sockets[seat].request({"type": "sit", "seat": seat, "buy_in": 5_000})
        spectator = await open_socket(f"/ws/table/{table.pk}/", user=watcher, name="watcher")
        await spectator.receive()
        await fire_clock(await countdown_left(table.pk))
        deal = await spectator.until(
            lambda f: (
                f["type"] == "event"
                and any(e["kind"] == "hand_started" for e in f["event"]["engine"])
            )
        )
        for _ in range(40):  # fold or check it down to the end
            snap = await spectator.request({"type": "snapshot"})
            if snap["table"]["hand"] is None:
                break
            actor = snap["table"]["hand"]["to_act"]
            mine = await sockets[actor].request({"type": "snapshot"})
            legal = mine["you"]["legal"]["actions"]
            move = "check" if "check" in legal else "call"
            await sockets[actor].request({"type": "act", "action": move})
        reload = await open_socket(f"/ws/table/{table.pk}/", user=alice, name="reload")
        after = await reload.receive()
        frames = [f for s in [*sockets.values(), spectator, reload] for f in [*s.frames]]
        for s in [*sockets.values(), spectator, reload]:
            await s.close()
        return deal, after, frames

    deal, after, frames = async_to_sync(scenario)()
    record = HandRecord.objects.get(table=table)
    assert record.commitment == deck_commitment(record.deck, record.salts)
    # The dealing frame names it in its event and in the table it changes, before any action.
    assert deal["event"]["commitment"] == record.commitment
    assert deal["changes"]["commitment"] == record.commitment
    assert after["table"]["commitment"] == record.commitment  # a page opened after the hand
    assert after["table"]["hand_id"] == record.pk
    sent = json.dumps(frames)
    assert not [salt for salt in record.salts if salt in sent]
    assert "salts" not in sent
