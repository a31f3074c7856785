"""Real Chromium: the monthly statement reached from the profile, its CSV download, and a player
closing their own account, after which signing in with it is refused (RULES.md 10)."""

import csv
import io
import json

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_alerts import MAKE_PLAYERS
from tests.e2e.test_table_rules import shoot

pytestmark = pytest.mark.e2e

PLAYERS = ["acct01", "acct02"]


@pytest.fixture(scope="module")
def players(site):
    setup = json.dumps({"players": PLAYERS, "password": PASSWORD})
    site["manage"]("shell", "-c", MAKE_PLAYERS.format(setup=setup))
    return PLAYERS


def test_the_statement_opens_from_the_profile_and_downloads_as_csv(
    site, players, sign_in, artifacts
):
    page = sign_in(players[0])
    page.goto(site["base"] + "/accounts/profile/")
    shoot(page, artifacts, "account-profile-links")
    page.get_by_role("link", name="Monthly statement").click()
    page.wait_for_url("**/accounts/statement/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Statement for")
    picker = page.get_by_label("Month")
    expect(picker).to_be_visible()
    closing = page.locator('[data-row="closing"]')
    expect(closing).to_have_attribute("data-chips", "10000")  # the welcome grant, this month
    expect(page.locator('[data-row="sign_ins"]')).to_have_attribute("data-quantity", "1")
    # Keyboard: the picker and its button are reachable with Tab.
    picker.focus()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Show")).to_be_focused()
    shoot(page, artifacts, "account-statement")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download as CSV").click()
    download = download_info.value
    assert download.suggested_filename.startswith("statement-")
    with open(download.path(), encoding="utf-8") as handle:
        rows = list(csv.reader(io.StringIO(handle.read())))
    assert rows[0] == ["month", "item", "quantity", "chips"]
    by_item = {row[1]: row for row in rows[1:]}
    assert by_item["Closing balance"][3] == "10000"
    assert by_item["Welcome grant"][2:] == ["1", "10000"]
    assert by_item["Sign-ins"][2] == "1"
    page_rows = page.locator("[data-row]").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.quantity, n.dataset.chips])"
    )
    assert page_rows == [[row[2], row[3]] for row in rows[1:]]
    assert page.errors == []


def test_a_player_closes_their_account_and_can_no_longer_sign_in(
    site, players, sign_in, artifacts, browser
):
    name = players[1]
    page = sign_in(name)
    page.goto(site["base"] + "/accounts/profile/")
    page.get_by_role("link", name="Close your account").click()
    page.wait_for_url("**/accounts/close/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Close your account")
    # Without the confirmation the browser itself asks for it; with a wrong password, the
    # server refuses and nothing changes.
    page.get_by_label("Your password").fill("not-my-password")
    page.get_by_label("I understand, close my account").check()
    page.get_by_role("button", name="Close my account").click()
    expect(page.get_by_test_id("close-error")).to_have_text("That is not your password.")
    shoot(page, artifacts, "account-close")

    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_label("I understand, close my account").focus()
    page.keyboard.press("Space")  # the box by keyboard
    expect(page.get_by_label("I understand, close my account")).to_be_checked()
    page.get_by_role("button", name="Close my account").click()
    page.wait_for_url(site["base"] + "/")
    expect(page.locator(".messages")).to_contain_text("Your account is closed")

    # Signing in again is refused, with the old name as with the password.
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    again = context.new_page()
    again.goto(site["base"] + "/accounts/login/")
    again.fill("#id_username", name)
    again.fill("#id_password", PASSWORD)
    again.click("form button[type=submit]")
    expect(again.locator("main")).to_contain_text("correct username and password")
    assert "/accounts/login/" in again.url
    shoot(again, artifacts, "account-closed-sign-in")
    context.close()
