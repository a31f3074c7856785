"""Notes on players are their author's alone (rules.md 6, style.md 5): with three players, a staff
spectator and a lobby socket at work, every frame every other socket received (table sockets,
ws/me/ sockets, the lobby's) is read, and the note's text, its tag's name and any note frame are
in none of them; the author's own sockets get them, and so does their table socket when a player
they wrote on sits down later."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from holdem.services.notes import player_note_set, tag_names_set
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "bluffs every river, tilts after a bad beat"
LATER_SECRET = "limps with aces"
TAG_NAME = "Calling station"


def leaked(frames) -> list:
    """The frames that carry anything of a note: its text, its tag's name, a note frame, or a
    snapshot whose notes are not empty."""
    found = []
    for frame in frames:
        text = json.dumps(frame)
        if (
            SECRET in text
            or LATER_SECRET in text
            or TAG_NAME in text
            or frame.get("type") in ("note", "tag_names")
            or frame.get("notes")
            or "tag_names" in frame
        ):
            found.append(frame)
    return found


def test_no_socket_but_the_authors_ever_receives_a_note_or_a_tag(table_room, make_player):
    table = table_room()
    author, subject, third, latecomer = (make_player(n) for n in ("ann", "sam", "tom", "lou"))
    watcher = make_player("staffer")
    watcher.is_staff = True
    watcher.save()

    async def scenario():
        url = f"/ws/table/{table.pk}/"
        tables = {
            user.username: await open_socket(url, user=user, name=f"{user.username} table")
            for user in (author, subject, third, watcher)
        }
        mes = {
            user.username: await open_socket("/ws/me/", user=user, name=f"{user.username} me")
            for user in (author, subject, third, latecomer, watcher)
        }
        lobby = await open_socket("/ws/lobby/", user=third, name="lobby")
        for sock in [*tables.values(), *mes.values(), lobby]:
            await sock.receive()
        for seat, name in enumerate(("ann", "sam", "tom")):
            answer = await tables[name].request({"type": "sit", "seat": seat, "buy_in": 3_000})
            assert answer["type"] == "ok", answer

        await database_sync_to_async(player_note_set)(
            author=author, subject_id=subject.pk, text=SECRET, colour="orange"
        )
        await database_sync_to_async(tag_names_set)(user=author, names={"orange": TAG_NAME})
        # A note on a player not here yet: the author, watching, hears of it when they sit.
        await database_sync_to_async(player_note_set)(
            author=author, subject_id=latecomer.pk, text=LATER_SECRET, colour=""
        )

        # The author's own ws/me/ hears of each change.
        mine = mes["ann"]
        note = await mine.until(lambda f: f["type"] == "note")
        assert note["note"]["text"] == SECRET and note["note"]["colour"] == "orange"
        assert note["note"]["user_id"] == subject.pk and note["note"]["username"] == "sam"
        names = await mine.until(lambda f: f["type"] == "tag_names")
        assert names["tag_names"]["orange"] == TAG_NAME

        # Everyone asks for a snapshot again: only the author's holds the note and the names.
        for name, sock in tables.items():
            snapshot = await sock.request({"type": "snapshot"})
            if name == "ann":
                assert [n["text"] for n in snapshot["notes"]] == [SECRET]
                assert snapshot["tag_names"]["orange"] == TAG_NAME
            else:
                assert snapshot["notes"] == [] and "tag_names" not in snapshot

        # The latecomer sits down: the author's table socket is told of their note, alone.
        late_table = await open_socket(url, user=latecomer, name="lou table")
        await late_table.receive()
        assert (await late_table.request({"type": "sit", "seat": 3, "buy_in": 3_000}))["type"] == (
            "ok"
        )
        arrival = await tables["ann"].until(lambda f: f["type"] == "note")
        assert arrival["note"]["text"] == LATER_SECRET
        assert arrival["note"]["user_id"] == latecomer.pk

        # Deleting tells the author's pages the note is gone.
        await database_sync_to_async(player_note_set)(
            author=author, subject_id=subject.pk, text="", colour=""
        )
        gone = await mine.until(lambda f: f["type"] == "note" and f["note"]["text"] == "")
        assert gone["note"] == {
            "user_id": subject.pk,
            "username": "sam",
            "text": "",
            "colour": "",
            "updated_at": None,
        }

        # The lobby lists the players seated, the latecomer too: its stream was live (and is
        # checked below with the rest).
        await lobby.until(
            lambda f: f["type"] == "rooms" and any("lou" in r["players"] for r in f["rooms"])
        )
        others = [
            *(sock for name, sock in tables.items() if name != "ann"),
            *(sock for name, sock in mes.items() if name != "ann"),
            late_table,
            lobby,
        ]
        for sock in [*others, tables["ann"], mine]:
            await sock.drain(0.2)
        for sock in others:
            assert sock.frames, f"{sock.name} received nothing: the test would prove nothing"
            assert leaked(sock.frames) == [], sock.name
        for sock in [*tables.values(), *mes.values(), late_table, lobby]:
            await sock.close()

    async_to_sync(scenario)()
