"""Real Chromium on the Responsible play tools (rules.md 11): a limit set on the page refuses a
buy-in over it with the message the server gives; a break, once confirmed, signs the player out
and the sign-in page says until when; a session reminder comes at the table, takes the focus,
waits for an answer and leaves the table when asked."""

import json

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_alerts import MAKE_PLAYERS
from tests.e2e.test_table_play import expect, sit
from tests.e2e.test_table_rules import shoot
from tests.e2e.test_table_truths import open_room

pytestmark = pytest.mark.e2e

PLAYERS = ["care01", "care02", "care03"]
MAKE_ROOMS = """
from holdem.services import room_create
for name in ("E2E Care Limit", "E2E Care Reminder"):
    print("ROOM=" + str(room_create(name=name, preset="nl50", seats=6, countdown_seconds=30).pk))
"""


@pytest.fixture(scope="module")
def care(site):
    """This module's own players and rooms."""
    setup = json.dumps({"players": PLAYERS, "password": PASSWORD})
    site["manage"]("shell", "-c", MAKE_PLAYERS.format(setup=setup))
    out = site["manage"]("shell", "-c", MAKE_ROOMS)
    limit, reminder = [int(line[5:]) for line in out.splitlines() if line.startswith("ROOM=")]
    return {"limit": limit, "reminder": reminder}


def test_a_limit_set_on_the_page_refuses_a_buy_in_over_it(site, care, sign_in, artifacts):
    page = sign_in(PLAYERS[0])
    page.get_by_role("link", name="Responsible play").first.click()
    expect(page.get_by_role("heading", name="Responsible play")).to_be_visible()
    page.select_option("#limit-period", "day")
    page.fill("#limit-amount", "1000")
    page.get_by_role("button", name="Set limit").click()
    expect(page.locator(".messages")).to_contain_text("Your daily limit is now 1,000 chips.")
    expect(page.locator('tr[data-period="day"]')).to_contain_text("1,000")
    shoot(page, artifacts, "responsible-play")
    open_room(page, site, care["limit"])
    page.locator('.seat[data-seat="0"]').get_by_role("button", name="Sit here").click()
    dialog = page.locator("#sit-dialog")
    dialog.locator("#sit-amount").fill("2000")
    dialog.get_by_role("button", name="Confirm").click()
    expect(dialog.locator("#sit-problem")).to_contain_text(
        "daily buy-in limit of 1,000 chips leaves 1,000 chips until 00:00 UTC on"
    )
    expect(page.locator(".seat.mine")).to_have_count(0)
    shoot(page, artifacts, "responsible-play-refused-buy-in")
    assert not page.errors


def test_a_break_signs_the_player_out_and_the_sign_in_says_until_when(
    site, care, sign_in, artifacts
):
    page = sign_in(PLAYERS[1])
    page.goto(site["base"] + "/accounts/responsible-play/")
    page.locator("#break").get_by_label("24 hours").check()
    page.get_by_role("button", name="Take a break…").click()
    expect(page.get_by_role("heading", name="Take a break for 24 hours?")).to_be_visible()
    expect(page.get_by_role("button", name="Yes, take a break")).to_be_focused()
    shoot(page, artifacts, "responsible-play-break-confirm")
    page.get_by_role("button", name="Yes, take a break").click()
    page.wait_for_url("**/accounts/login/")
    expect(page.locator(".messages")).to_contain_text("You took a break until ")
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()  # signed out
    page.fill("#id_username", PLAYERS[1])
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    expect(page.locator("form")).to_contain_text("You took a break until ")
    expect(page.locator("form")).to_contain_text("UTC")
    shoot(page, artifacts, "sign-in-on-a-break")
    assert "/accounts/login/" in page.url
    assert not page.errors


def test_a_session_reminder_comes_at_the_table_and_waits_for_an_answer(
    site, care, sign_in, artifacts
):
    page = sign_in(PLAYERS[2])
    page.goto(site["base"] + "/accounts/responsible-play/")
    page.select_option("#reminder-minutes", "15")  # 15 "minutes" of a second each here
    page.locator("#reminder").get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("A reminder every 15 minutes of play.")
    open_room(page, site, care["reminder"])
    sit(page, 2, 2000)
    dialog = page.locator("#reminder-dialog")
    expect(dialog).to_be_visible(timeout=40_000)
    expect(page.locator("#reminder-continue")).to_be_focused()
    expect(dialog.locator("#reminder-net")).to_have_text("0 chips (even)")
    expect(dialog.locator("#reminder-played")).not_to_be_empty()
    shoot(page, artifacts, "table-session-reminder")
    page.keyboard.press("Escape")  # it waits for an answer
    expect(dialog).to_be_visible()
    page.keyboard.press("Enter")  # Continue
    expect(dialog).to_be_hidden()
    # The next one counts from the answer; this time the player leaves the table.
    expect(dialog).to_be_visible(timeout=40_000)
    dialog.get_by_role("button", name="Leave table").click()
    expect(dialog).to_be_hidden()
    expect(page.locator(".seat.mine")).to_have_count(0)
    assert not page.errors
