"""Notes and colour tags on players (rules.md 6): written through the services, each bad input
refused with a clear error and nothing changed, read back for their author alone (the snapshot,
the lobby's tag map, the notes page), and never for anyone else over HTTP."""

import json

import pytest
from django.test import Client

from casino.accounts.models import Preferences
from casino.errors import DomainError
from holdem.models import NOTE_MAX_CHARS, PlayerNote
from holdem.selectors.notes import (
    DEFAULT_TAG_NAMES,
    TAG_NAME_MAX_CHARS,
    notes_on,
    tag_names_of,
    tags_of,
)
from holdem.selectors.snapshot import table_view_for
from holdem.services.notes import player_note_set, tag_names_set

pytestmark = pytest.mark.django_db

SECRET = "folds to every three-bet"


def state():
    """Everything the notes and tag names are made of, to show a refusal changed nothing."""
    return (
        list(PlayerNote.objects.values_list("author_id", "subject_id", "text", "colour")),
        list(Preferences.objects.values_list("user_id", "tag_names")),
    )


def test_a_note_and_a_tag_are_written_replaced_and_deleted(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    note = player_note_set(
        author=alice, subject_id=bob.pk, text="  " + SECRET + "\r\n", colour="red"
    )
    assert (note.text, note.colour) == (SECRET, "red")  # trimmed, lines as \n
    again = player_note_set(author=alice, subject_id=bob.pk, text="calls light", colour="")
    assert again.pk == note.pk and (again.text, again.colour) == ("calls light", "")
    tag_only = player_note_set(author=alice, subject_id=bob.pk, text="", colour="teal")
    assert (tag_only.text, tag_only.colour) == ("", "teal")
    assert tags_of(alice) == [{"user_id": bob.pk, "username": "bob", "colour": "teal"}]
    # rules.md 6: an empty note without a tag is no note.
    assert player_note_set(author=alice, subject_id=bob.pk, text="   ", colour="") is None
    assert not PlayerNote.objects.exists()


def test_a_note_of_a_thousand_characters_is_kept_whole(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    text = "line one\n\tand two " + "x" * (NOTE_MAX_CHARS - 18)
    assert len(text) == NOTE_MAX_CHARS
    assert player_note_set(author=alice, subject_id=bob.pk, text=text, colour="").text == text


@pytest.mark.parametrize(
    "change, code",
    [
        ({"text": "x" * (NOTE_MAX_CHARS + 1)}, "note_too_long"),
        ({"text": "hidden\u202etext"}, "note_bad_text"),
        ({"text": "bell\x07"}, "note_bad_text"),
        ({"colour": "pink"}, "note_unknown_colour"),
        ({"colour": "RED"}, "note_unknown_colour"),
        ({"subject": "self"}, "note_on_self"),
        ({"subject": "nobody"}, "no_user"),
    ],
)
def test_a_bad_note_is_refused_and_nothing_changes(make_player, change, code):
    alice, bob = make_player("alice"), make_player("bob")
    player_note_set(author=alice, subject_id=bob.pk, text="kept", colour="green")
    before = state()
    subject = {"self": alice.pk, "nobody": bob.pk + 1000}.get(change.get("subject"), bob.pk)
    with pytest.raises(DomainError) as refused:
        player_note_set(
            author=alice,
            subject_id=subject,
            text=change.get("text", "changed"),
            colour=change.get("colour", "blue"),
        )
    assert refused.value.code == code and refused.value.message
    assert state() == before


def test_tag_names_start_as_the_colours_and_are_renamed(make_player):
    alice = make_player("alice")
    assert tag_names_of(alice) == DEFAULT_TAG_NAMES
    now = tag_names_set(user=alice, names={"red": "  Fish  ", "blue": "Shark"})
    assert now == {**DEFAULT_TAG_NAMES, "red": "Fish", "blue": "Shark"}
    assert tag_names_set(user=alice, names={"green": "Nit"})["red"] == "Fish"  # others kept
    assert tag_names_of(alice)["green"] == "Nit"


@pytest.mark.parametrize(
    "names, code",
    [
        ({"red": "   "}, "tag_name_empty"),
        ({"red": "y" * (TAG_NAME_MAX_CHARS + 1)}, "tag_name_too_long"),
        ({"red": "ok", "pink": "Whale"}, "tag_unknown_colour"),
        ({"red": "zero\u200bwidth"}, "tag_name_bad_text"),
    ],
)
def test_a_bad_tag_name_is_refused_and_nothing_changes(make_player, names, code):
    alice = make_player("alice")
    tag_names_set(user=alice, names={"red": "Fish"})
    before = state()
    with pytest.raises(DomainError) as refused:
        tag_names_set(user=alice, names=names)
    assert refused.value.code == code and refused.value.message
    assert state() == before


def test_the_snapshot_carries_the_viewers_notes_on_the_players_here_only(seated, make_player):
    table, users = seated("nl50", seats=(0, 1, 2))
    viewer, other, elsewhere = users[0], users[1], make_player("elsewhere")
    player_note_set(author=viewer, subject_id=other.pk, text=SECRET, colour="purple")
    player_note_set(author=viewer, subject_id=elsewhere.pk, text="not here", colour="")
    tag_names_set(user=viewer, names={"purple": "Maniac"})
    mine = table_view_for(table, viewer)
    assert [(n["user_id"], n["text"], n["colour"]) for n in mine["notes"]] == [
        (other.pk, SECRET, "purple")
    ]
    assert mine["tag_names"]["purple"] == "Maniac"
    # Another player and a spectator at the same table: nothing of it.
    for reader in (other, users[2], make_player("watcher")):
        theirs = table_view_for(table, reader)
        assert theirs["notes"] == [] and "tag_names" not in theirs
        assert SECRET not in json.dumps(theirs) and "Maniac" not in json.dumps(theirs)
    assert notes_on(other, [viewer.pk]) == []


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_notes_endpoints_answer_with_the_askers_own_notes_only(make_player):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    mine = client_of(alice)
    answer = mine.post(
        f"/accounts/notes/{bob.pk}/",
        {"text": SECRET, "colour": "red"},
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 200 and answer.json()["note"]["text"] == SECRET
    mine.post(
        "/accounts/notes/tags/names/", {"name_red": "Whalebone"}, HTTP_ACCEPT="application/json"
    )
    tags = mine.get("/accounts/notes/tags/").json()
    assert tags["tags"] == [{"user_id": bob.pk, "username": "bob", "colour": "red"}]
    assert tags["tag_names"]["red"] == "Whalebone"
    assert SECRET.encode() in mine.get("/accounts/notes/").content
    assert mine.get("/accounts/notes/tags/")["Cache-Control"] == "no-store, private"

    # Bob (the subject) and carol read every notes endpoint: nothing of alice's.
    for reader in (bob, carol):
        theirs = client_of(reader)
        pages = [
            theirs.get("/accounts/notes/").content.decode(),
            theirs.get("/accounts/notes/tags/").content.decode(),
        ]
        for text in pages:
            assert SECRET not in text and "Whalebone" not in text
        assert theirs.get("/accounts/notes/tags/").json()["tags"] == []
    # Writing on bob's behalf about alice's note is writing bob's own note: alice's stays.
    client_of(carol).post(f"/accounts/notes/{bob.pk}/", {"text": "", "colour": ""})
    assert PlayerNote.objects.get(author=alice).text == SECRET
    # Signed out: sent to sign in, nothing shown.
    assert Client().get("/accounts/notes/tags/").status_code == 302


def test_a_refused_note_over_http_says_why_and_changes_nothing(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    mine = client_of(alice)
    answer = mine.post(
        f"/accounts/notes/{bob.pk}/",
        {"text": "x" * (NOTE_MAX_CHARS + 1), "colour": ""},
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "note_too_long"
    # The page's form: back to the page, with the reason.
    page = mine.post(f"/accounts/notes/{alice.pk}/", {"text": "me", "colour": ""}, follow=True)
    assert "cannot write a note on yourself" in page.content.decode()
    bad_name = mine.post("/accounts/notes/tags/names/", {"name_red": ""}, follow=True)
    assert "give the red tag a name" in bad_name.content.decode()
    assert not PlayerNote.objects.exists() and not Preferences.objects.exists()
    assert mine.get(f"/accounts/notes/{bob.pk}/").status_code == 405  # writes are POSTs


def test_the_notes_page_lists_edits_and_deletes(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    mine = client_of(alice)
    assert "No notes yet" in mine.get("/accounts/notes/").content.decode()
    page = mine.post(
        f"/accounts/notes/{bob.pk}/", {"text": "<b>loose</b>", "colour": "yellow"}, follow=True
    )
    body = page.content.decode()
    assert "Note saved." in body and "&lt;b&gt;loose&lt;/b&gt;" in body and "<b>loose" not in body
    assert 'class="note-tag tag-yellow"' in body
    page = mine.post(f"/accounts/notes/{bob.pk}/", {"text": "", "colour": ""}, follow=True)
    assert "Note deleted." in page.content.decode() and not PlayerNote.objects.exists()
    assert 'href="/accounts/notes/"' in mine.get("/accounts/profile/").content.decode()
