"""Real Chromium: the player's table settings, kept on the server. Changed in the table's gear
dialog on one page, they reach the player's other page (another browser, signed in as the same
player) without a reload: the raise screen's size buttons, the two-colour deck, fold without
asking (while a free fold still asks, rules.md 6). A muted player is unmuted from the dialog's
list. The settings page at /accounts/settings/ changes the same settings."""

import json
import re
import time

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_play import button, console_state, expect, open_table, sit, whose_turn

pytestmark = pytest.mark.e2e

SETTINGS_ROOMS = {
    "table": {
        "preset": "nl50",
        "seats": 6,
        "countdown_seconds": 2,
        "countdown_full_seconds": 1,
        "turn_seconds": 60,
    },
}
SETTINGS_PLAYERS = ["prefs01", "prefs02", "prefs03", "prefs04"]
RED = "rgb(209, 32, 43)"
BLACK = "rgb(22, 22, 22)"
BLUE = "rgb(29, 95, 214)"


SETUP = """
import json
from django.contrib.auth.hashers import make_password
from casino.accounts.models import User
from casino.accounts.services import account_open
from holdem.services import room_create
setup = json.loads({setup!r})
rooms = {{key: room_create(name="E2E Settings " + key.title(), **options).pk
         for key, options in setup["rooms"].items()}}
hashed = make_password(setup["password"])
for name in setup["players"]:
    account_open(user=User.objects.create(username=name, password=hashed))
print("ROOMS=" + json.dumps(rooms))
"""


@pytest.fixture(scope="module")
def rooms(site):
    setup = json.dumps({"rooms": SETTINGS_ROOMS, "players": SETTINGS_PLAYERS, "password": PASSWORD})
    out = site["manage"]("shell", "-c", SETUP.format(setup=setup))
    created = json.loads(next(line for line in out.splitlines() if line.startswith("ROOMS="))[6:])
    site["rooms"].update({f"settings_{key}": pk for key, pk in created.items()})
    return {key: f"settings_{key}" for key in created}


def suit_colours(page, selector):
    """The text colour of each face-up card under `selector`, by suit."""
    return page.locator(selector).evaluate_all(
        """cards => Object.fromEntries(cards.map(c => [c.className.match(/suit-(\\w)/)[1],
            getComputedStyle(c).color]))"""
    )


def shoot_at(page, artifacts, name, width, height):
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(250)
    page.screenshot(path=str(artifacts / f"{name}-{width}.png"))


def open_dialog(page):
    page.get_by_role("button", name="Settings").click()
    dialog = page.get_by_role("dialog", name="Table settings")
    expect(dialog).to_be_visible()
    return dialog


def acted(page, before):
    """Wait until the page's log grows past `before` lines (the action went through)."""
    expect(page.locator("#action-log li")).not_to_have_count(before)


def test_settings_changed_at_one_page_apply_on_the_players_other_page(
    site, rooms, sign_in, artifacts
):
    desk = sign_in("prefs01")
    phone = sign_in("prefs01", phone=True)  # the same player on a second device
    rival, chatter = sign_in("prefs02"), sign_in("prefs04")
    for page in (desk, phone, rival, chatter):
        open_table(page, site, rooms["table"])

    # Muted from the chat, unmuted from the dialog's list; the other page follows both.
    chatter.locator("#chat-text").fill("hello from four")
    chatter.locator("#chat-form").get_by_role("button", name="Send").click()
    line = desk.locator("#action-log li.log-chat", has_text="hello from four")
    line.get_by_role("button", name="Mute").click()
    expect(line).to_be_hidden()
    expect(phone.locator("#action-log li.log-chat", has_text="hello from four")).to_be_hidden()

    dialog = open_dialog(desk)
    expect(dialog.locator("#settings-postflop")).to_be_focused()
    expect(dialog.locator("#settings-postflop")).to_have_value("33, 50, 67, 75, 100")
    expect(dialog.locator("#settings-preflop")).to_have_value("2, 2.5, 3")
    expect(dialog.get_by_role("checkbox", name="Ask before I fold")).to_be_checked()
    expect(dialog.locator("#settings-muted")).to_contain_text("prefs04")
    shoot_at(desk, artifacts, "table-settings-dialog", 1280, 800)
    desk.set_viewport_size({"width": 1280, "height": 900})

    dialog.get_by_role("button", name="Unmute prefs04").click()
    expect(dialog.locator("#settings-muted")).to_contain_text("You have muted nobody.")
    expect(line).to_be_visible()
    expect(phone.locator("#action-log li.log-chat", has_text="hello from four")).to_be_visible()

    # A bad size is refused by the server, in the dialog, and nothing changes.
    dialog.locator("#settings-preflop").fill("2, 0.5")
    dialog.get_by_role("button", name="Save").click()
    expect(dialog.locator("#settings-problem")).to_contain_text("from 1.5x to 20x")
    dialog.locator("#settings-preflop").fill("2, two")
    expect(dialog.locator("#settings-preflop-help")).to_contain_text('"two" is not a number.')

    # The player's own sizes, no fold confirmation, two colours.
    dialog.locator("#settings-postflop").fill("40, 125")
    expect(dialog.locator("#settings-postflop-help")).to_contain_text("Buttons: 40%, 125%.")
    dialog.locator("#settings-preflop").fill("2.2, 4")
    dialog.get_by_role("checkbox", name="Ask before I fold").uncheck()
    dialog.get_by_role("radio", name=re.compile("Two colours")).check()
    dialog.get_by_role("button", name="Save").click()
    expect(dialog).to_be_hidden()
    expect(desk.get_by_role("button", name="Settings")).to_be_focused()  # back where it was

    # The other page applied it without a reload: the deck at once, the rest in the dialog.
    expect(phone.locator("#table-app")).to_have_attribute("data-deck", "two_colour")
    on_phone = open_dialog(phone)
    expect(on_phone.locator("#settings-preflop")).to_have_value("2.2, 4")
    expect(on_phone.get_by_role("checkbox", name="Ask before I fold")).not_to_be_checked()
    assert suit_colours(phone, "#settings-dialog .deck-sample[data-deck=two_colour] .pcard") == {
        "s": BLACK,
        "h": RED,
        "d": RED,
        "c": BLACK,
    }
    assert (
        suit_colours(phone, "#settings-dialog .deck-sample[data-deck=four_colour] .pcard")["d"]
        == BLUE
    )
    phone.wait_for_timeout(300)
    phone.screenshot(path=str(artifacts / "table-settings-dialog-360.png"))
    on_phone.get_by_role("button", name="Cancel").click()
    expect(on_phone).to_be_hidden()

    phone.evaluate("window.scrollTo(0, 0)")
    phone.screenshot(path=str(artifacts / "table-settings-gear-360.png"))
    sit(desk, 0, 5000)
    sit(rival, 1, 5000)
    expect(phone.locator('.seat.mine[data-seat="0"]')).to_be_visible()
    players = [desk, rival]
    phase = "sizes"
    deadline = time.monotonic() + 240
    while phase != "done":
        assert time.monotonic() < deadline, (
            f"stuck in {phase}: {[console_state(p) for p in players]}"
        )
        actor = whose_turn(players, timeout=60)
        lines = actor.locator("#action-log li").count()
        if actor is rival:
            if phase == "bet_fold" and button(rival, "Bet").count():
                # The rival bets the minimum, so that the player has a bet to fold to.
                button(rival, "Bet").click()
                rival.locator("#console").get_by_role("button", name="Min").click()
                rival.keyboard.press("Enter")
            else:
                button(rival, "Check" if button(rival, "Check").count() else "Call").click()
            acted(rival, lines)
            continue
        free = button(desk, "Check").count() > 0
        if phase == "sizes":
            # Before the flop, on the other page: the player's multiples of the big blind.
            expect(phone.locator("#console")).to_have_attribute(
                "data-console-state", re.compile("start_bet|call_bet")
            )
            button(phone, "Raise").click()
            quick = phone.locator("#console .quick-row .quick")
            expect(quick).to_have_text(["Min", "2.2x", "4x", "Max"])
            expect(phone.get_by_role("button", name="2.2 big blinds")).to_have_attribute(
                "data-to", "220"
            )
            expect(phone.get_by_role("button", name="4 big blinds")).to_have_attribute(
                "data-to", "400"
            )
            # Two colours on the felt too: every face-up card red or black.
            colours = set(suit_colours(phone, "#seats .seat.mine .pcard.face").values())
            assert colours <= {RED, BLACK}, colours
            phone.screenshot(path=str(artifacts / "table-settings-raise-360.png"))
            phone.keyboard.press("Escape")
            expect(phone.locator("#console")).not_to_have_attribute("data-console-state", "raise")
            phase = "free_fold"
        if phase == "free_fold" and free:
            # Checking is free: Fold asks even with the confirmation turned off.
            button(desk, "Fold").click()
            expect(desk.locator("#console")).to_have_attribute("data-console-state", "confirm_fold")
            expect(desk.locator("#console")).to_contain_text("Nothing is owed")
            button(desk, "Cancel").click()
            button(desk, "Check").click()
            acted(desk, lines)
            phase = "bet_fold"
            continue
        if phase == "bet_fold" and not free:
            # After the flop, the player's shares of the pot, on the other page too.
            button(phone, "Raise").click()
            expect(phone.locator("#console .quick-row .quick")).to_have_text(
                ["Min", "40%", "125%", "Max"]
            )
            expect(phone.get_by_role("button", name="40% of the pot")).to_be_visible()
            phone.screenshot(path=str(artifacts / "table-settings-raise-flop-360.png"))
            # Facing a bet: Fold folds at once, no confirmation.
            button(desk, "Fold").click()
            expect(desk.locator("#action-log")).to_contain_text("prefs01 folds")
            assert console_state(desk) != "confirm_fold"
            phase = "done"
            continue
        button(desk, "Check" if free else "Call").click()
        acted(desk, lines)

    for page in (desk, phone, rival, chatter):
        assert not page.errors, page.errors


def test_the_settings_page_changes_the_same_settings(site, rooms, sign_in, artifacts):
    page = sign_in("prefs03")
    page.get_by_role("link", name="Settings").first.click()
    page.wait_for_url("**/accounts/settings/")
    expect(page.get_by_role("heading", name="Settings", exact=True)).to_be_visible()
    expect(page.get_by_label("After the flop: percent of the pot")).to_have_value(
        "33, 50, 67, 75, 100"
    )
    shoot_at(page, artifacts, "settings-page", 1280, 800)
    page.set_viewport_size({"width": 360, "height": 780})
    page.screenshot(path=str(artifacts / "settings-page-360.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})

    page.get_by_label("After the flop: percent of the pot").fill("33, 0")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".field-errors")).to_contain_text("from 10% to 500%")
    page.get_by_label("After the flop: percent of the pot").fill("50, 100, 200")
    page.get_by_label("Before the flop", exact=False).fill("3")
    page.get_by_role("radio", name=re.compile("Two colours")).check()
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Your table settings are saved.")

    # The table draws them: the dialog shows them, the deck is two-coloured.
    open_table(page, site, rooms["table"])
    expect(page.locator("#table-app")).to_have_attribute("data-deck", "two_colour")
    dialog = open_dialog(page)
    expect(dialog.locator("#settings-postflop")).to_have_value("50, 100, 200")
    expect(dialog.locator("#settings-postflop-help")).to_contain_text("Buttons: ½ Pot, Pot, 200%.")
    expect(dialog.locator("#settings-preflop")).to_have_value("3")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert not page.errors, page.errors
