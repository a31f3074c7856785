"""Real Chromium: a player writes a note and a colour tag on another at the table (by mouse and by
keyboard), sees the tag on the seat and in the lobby's player list, edits it, renames the colour
and deletes the note on their notes page, while the table page they left open follows; the other
player never sees any of it (rules.md 6)."""

import json

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_alerts import MAKE_PLAYERS
from tests.e2e.test_table_play import expect, sit
from tests.e2e.test_table_rules import shoot
from tests.e2e.test_table_truths import open_room

pytestmark = pytest.mark.e2e

NOTE_PLAYERS = ["notes01", "notes02"]
MAKE_ROOM = """
from holdem.services import room_create
print("ROOM=" + str(room_create(name="E2E Notes", preset="nl50", seats=6, countdown_seconds=120).pk))
"""


@pytest.fixture(scope="module")
def notes_room(site):
    setup = json.dumps({"players": NOTE_PLAYERS, "password": PASSWORD})
    site["manage"]("shell", "-c", MAKE_PLAYERS.format(setup=setup))
    out = site["manage"]("shell", "-c", MAKE_ROOM)
    return int(next(line for line in out.splitlines() if line.startswith("ROOM="))[5:])


def test_a_note_and_a_tag_at_the_table_in_the_lobby_and_on_the_notes_page(
    site, notes_room, sign_in, artifacts
):
    author, other = sign_in(NOTE_PLAYERS[0]), sign_in(NOTE_PLAYERS[1])
    for page in (author, other):
        open_room(page, site, notes_room)
    sit(author, 0, 2000)
    sit(other, 2, 2000)

    # The other player's name on their seat is a button; the author's own is not.
    name = author.locator('.seat[data-seat="2"] .name-button')
    expect(name).to_have_text("notes02")
    expect(author.locator('.seat[data-seat="0"] .name-button')).to_have_count(0)
    name.click()
    dialog = author.locator("#note-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#note-title")).to_have_text("Note on notes02")
    expect(dialog.locator("#note-text")).to_be_focused()
    expect(dialog.get_by_role("button", name="Delete")).to_be_hidden()  # nothing to delete yet
    dialog.locator("#note-text").fill("Limps a lot, folds to a 3-bet")
    expect(dialog.locator("#note-count")).to_have_text("29 / 1,000")
    dialog.get_by_label("Red").check()
    shoot(author, artifacts, "notes-dialog")
    dialog.get_by_role("button", name="Save").click()
    expect(dialog).to_be_hidden()
    seat = author.locator('.seat[data-seat="2"]')
    expect(seat.locator(".note-tag.tag-red")).to_have_attribute("title", "Tag: Red")
    expect(seat.locator(".note-tag .visually-hidden")).to_have_text("tag: Red")
    expect(seat.locator(".note-mark")).to_be_visible()
    expect(seat.locator(".name-button")).to_have_attribute("title", "Limps a lot, folds to a 3-bet")
    expect(seat.locator(".name-button")).to_be_focused()  # back where the dialog was opened from
    shoot(author, artifacts, "notes-seat")

    # By keyboard: Enter on the focused name opens the dialog with the note; a colour by arrows.
    author.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#note-text")).to_have_value("Limps a lot, folds to a 3-bet")
    expect(dialog.get_by_label("Red")).to_be_checked()
    dialog.locator("#note-text").press("End")
    author.keyboard.type(" (edited)")
    dialog.get_by_label("Red").focus()
    author.keyboard.press("ArrowRight")  # the next colour: orange
    expect(dialog.get_by_label("Orange")).to_be_checked()
    dialog.get_by_label("Blue").check()
    dialog.get_by_role("button", name="Save").focus()
    author.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    expect(seat.locator(".note-tag.tag-blue")).to_have_attribute("title", "Tag: Blue")

    # The other player sees nothing of it, on their table or in what their client holds.
    expect(other.locator(".note-tag, .note-mark")).to_have_count(0)
    assert (
        other.evaluate("async () => (await import('/static/js/table.js')).app.notes.notes.size")
        == 0
    )
    assert "Limps" not in other.content()

    # The lobby's player list: the tag beside the player, for the author alone.
    for page in (author, other):
        page.goto(f"{site['base']}/lobby/")
    row = f'tr[data-room-id="{notes_room}"]'
    tagged = author.locator(f'{row} .tagged-player[data-player="notes02"] .note-tag')
    expect(tagged).to_have_class("note-tag tag-blue")
    expect(tagged).to_contain_text("Blue")
    expect(author.locator(f"{row} .room-players")).to_contain_text("notes01")
    expect(other.locator(f"{row} .room-players")).to_contain_text("notes02")
    expect(other.locator(".note-tag")).to_have_count(0)
    shoot(author, artifacts, "notes-lobby")
    author.set_viewport_size({"width": 360, "height": 780})
    author.locator(row).screenshot(path=str(artifacts / "notes-lobby-row-360.png"))
    author.set_viewport_size({"width": 1280, "height": 900})

    # A table page left open in another tab follows what the notes page changes.
    table_tab = author.context.new_page()
    table_tab.errors = []
    table_tab.on("pageerror", lambda error: table_tab.errors.append(str(error)))
    open_room(table_tab, site, notes_room)
    tab_seat = table_tab.locator('.seat[data-seat="2"]')
    expect(tab_seat.locator(".note-tag.tag-blue")).to_be_visible()

    # The notes page, from the profile: rename the blue tag, edit, delete.
    author.goto(f"{site['base']}/accounts/profile/")
    author.get_by_role("link", name="Notes on players").click()
    expect(author.locator("h1")).to_have_text("Your notes on players")
    listed = author.locator('.note-row[data-note-for="notes02"]')
    expect(listed.locator(".note-text")).to_have_text("Limps a lot, folds to a 3-bet (edited)")
    author.locator("#tag-name-blue").fill("Calling station")
    author.get_by_role("button", name="Save tag names").click()
    expect(author.locator(".messages")).to_contain_text("Tag names saved.")
    expect(listed.locator(".note-tag")).to_contain_text("Calling station")
    expect(tab_seat.locator(".note-tag")).to_have_attribute("title", "Tag: Calling station")
    listed.locator("summary").click()  # "Edit the note on notes02"
    listed.get_by_label("Note on notes02").fill("Now plays tight")
    listed.get_by_label("Calling station").check()
    shoot(author, artifacts, "notes-page")
    listed.get_by_role("button", name="Save").click()
    expect(author.locator(".messages")).to_contain_text("Note saved.")
    expect(listed.locator(".note-text")).to_have_text("Now plays tight")
    expect(tab_seat.locator(".name-button")).to_have_attribute("title", "Now plays tight")

    # A bad name is refused with the reason, and nothing changes.
    author.locator("#tag-name-red").fill("x" * 24)
    author.locator("#tag-name-red").evaluate("input => input.removeAttribute('maxlength')")
    author.locator("#tag-name-red").fill("y" * 30)
    author.get_by_role("button", name="Save tag names").click()
    expect(author.locator(".messages .error")).to_contain_text("at most 24 characters")
    expect(author.locator("#tag-name-red")).to_have_value("Red")

    listed.get_by_role("button", name="Delete").click()
    expect(author.locator(".messages")).to_contain_text("Note deleted.")
    expect(author.locator("#no-notes")).to_be_visible()
    expect(tab_seat.locator(".note-tag, .note-mark")).to_have_count(0)
    shoot(author, artifacts, "notes-page-empty")
    for page in (author, other, table_tab):
        assert not page.errors, page.errors
