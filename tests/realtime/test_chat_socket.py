"""Table chat over the socket: every socket at the table gets each line, as text, with no seq;
a reload brings the last lines back; muting is answered with the new list."""

import pytest
from asgiref.sync import async_to_sync

from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_line_reaches_players_and_spectators_as_text(table_room, make_player):
    table = table_room()
    alice, carol = make_player("alice"), make_player("carol")

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        c = await open_socket(f"/ws/table/{table.pk}/", user=carol)
        for sock in (a, c):
            await sock.receive()
        assert (await a.request({"type": "sit", "seat": 0, "buy_in": 3000}))["type"] == "ok"
        await a.drain(), await c.drain()
        seq = a.seq
        answer = await c.request({"type": "chat", "text": "<script>alert('hi')</script>"})
        assert answer == {"type": "ok", "for": "chat"}
        for sock in (a, c):
            line = await sock.until(lambda f: f["type"] == "chat")
            assert line["line"]["text"] == "<script>alert('hi')</script>"
            assert line["line"]["username"] == "carol" and "seq" not in line
        assert a.seq == seq  # chat is not table state
        await a.send({"type": "chat_mute", "user_id": carol.pk, "value": True})
        muted = await a.until(lambda f: f["type"] in ("chat_muted", "error"))
        assert muted == {
            "type": "chat_muted",
            "user_ids": [carol.pk],
            "players": [{"user_id": carol.pk, "username": "carol"}],
        }
        await a.close()
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        snapshot = await a.receive()
        assert snapshot["chat"][-1]["text"] == "<script>alert('hi')</script>"
        assert snapshot["chat_muted"] == [carol.pk]
        assert snapshot["chat_muted_players"] == [{"user_id": carol.pk, "username": "carol"}]
        for sock in (a, c):
            await sock.close()

    async_to_sync(scenario)()
