"""axe-core (tests/e2e/axe.py) on every page a player meets, at 1280x800 and at 360x740: no
serious or critical WCAG 2.2 A/AA violation on the sign-up and sign-in pages, the lobby, a table
before a hand, with the buy-in and rules dialogs, during a hand, on the raise screen, at the
showdown, on Show or Muck, with the previous hand, then the hand's page with its replayer and
the player's statistics. One stacked hand gives all the table's states."""

import json

import pytest

from tests.e2e.axe import axe_ready, axe_violations, describe
from tests.e2e.conftest import ARTIFACTS, PASSWORD
from tests.e2e.test_table_alerts import MAKE_PLAYERS
from tests.e2e.test_table_play import (
    button,
    expect,
    open_table,
    room_update,
    table_state,
    wait_hand,
    whose_turn,
)
from tests.e2e.test_table_rules import play_calls

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
WIDTHS = {"1280": DESKTOP, "360": PHONE}


@pytest.fixture(scope="module", autouse=True)
def axe_installed():
    axe_ready()


class Findings:
    """Every page's serious and critical violations, gathered so one run names them all."""

    def __init__(self):
        self.failures = []

    def check(self, page, name, *, widths=WIDTHS, shoot=True, **options):
        """axe on `page` at each width (the page resized in place); back to its own size after.
        With `shoot`, a picture of each (artifacts/a11y-<name>-<width>.png) to look at."""
        size = page.viewport_size
        for label, viewport in widths.items():
            if viewport != page.viewport_size:
                page.set_viewport_size(viewport)
                page.wait_for_timeout(150)  # a layout pass for the media queries
            violations = axe_violations(page, f"{name}-{label}", **options)
            if shoot:
                page.screenshot(
                    path=str(ARTIFACTS / f"a11y-{name}-{label}.png"),
                    full_page=True,
                    animations="disabled",
                    scale="css",
                )
            serious = [v for v in violations if v.get("impact") in {"serious", "critical"}]
            if serious:
                self.failures.append(f"{name}-{label} ({page.url}):\n{describe(serious)}")
        if page.viewport_size != size:
            page.set_viewport_size(size)

    def assert_none(self):
        assert not self.failures, (
            "axe found serious or critical WCAG 2.2 A/AA violations (artifacts/axe-*.json):\n"
            + "\n".join(self.failures)
        )


def open_page(browser, site, viewport):
    context = browser.new_context(viewport=viewport, reduced_motion="reduce")
    context.set_default_timeout(15_000)
    return context, context.new_page()


A11Y_PLAYERS = ["a11y01", "a11y02", "a11y03"]


@pytest.fixture(scope="module")
def players(site):
    """This module's own players, seated nowhere yet."""
    setup = json.dumps({"players": A11Y_PLAYERS, "password": PASSWORD})
    site["manage"]("shell", "-c", MAKE_PLAYERS.format(setup=setup))
    return A11Y_PLAYERS


def test_the_sign_up_sign_in_and_lobby_pages(site, browser, players, sign_in):
    findings = Findings()
    context, page = open_page(browser, site, DESKTOP)
    try:
        page.goto(site["base"] + "/accounts/signup/")
        findings.check(page, "signup")
        # The form as it comes back with errors: each field's problem next to it.
        page.fill("#id_username", "alice")  # taken, and two passwords that differ
        passwords = page.locator("input[type=password]")
        passwords.nth(0).fill("short")
        passwords.nth(1).fill("other")
        page.locator("form button[type=submit]").click()
        expect(page.locator(".errorlist, .field-errors").first).to_be_visible()
        findings.check(page, "signup-errors")
        page.goto(site["base"] + "/accounts/login/")
        findings.check(page, "login")
        page.fill("#id_username", "nobody")
        page.fill("#id_password", "wrong-password")
        page.locator("form button[type=submit]").click()
        expect(page.locator(".errorlist, .field-errors, .form-errors").first).to_be_visible()
        findings.check(page, "login-errors")
    finally:
        context.close()

    lobby = sign_in(players[2])
    expect(lobby.locator("#room-list tr").first).to_be_visible()
    expect(lobby.locator("#lobby-status")).not_to_contain_text("Connecting")
    findings.check(lobby, "lobby")
    findings.assert_none()


def test_a_table_before_during_and_after_a_hand_then_its_page_and_the_statistics(
    site, players, sign_in
):
    """The stacked deck of conftest's "a11y" room: the big blind has aces, the button seven-
    eight; checked down, the aces are shown first and the button is offered Show or Muck."""
    findings = Findings()
    first, second = sign_in(players[0]), sign_in(players[1])
    # The same players on phones (a second tab each): Show or Muck lasts 8 s, too short to
    # resize a page and run axe twice.
    phones = [sign_in(name, phone=True) for name in players[:2]]
    for page in (first, second, *phones):
        open_table(page, site, "a11y")

    # Before a hand: the empty table, the rules, the buy-in.
    findings.check(first, "table-empty")
    first.get_by_role("button", name="Room rules").click()
    expect(first.locator("#rules-dialog")).to_be_visible()
    expect(first.locator("#rules-dialog [data-rule]").first).to_be_visible()
    findings.check(first, "rules-dialog")
    first.locator("#rules-dialog").get_by_role("button", name="Close").click()
    first.locator('.seat[data-seat="0"]').get_by_role("button", name="Sit here").click()
    dialog = first.locator("#sit-dialog")
    expect(dialog).to_be_visible()
    findings.check(first, "buy-in-dialog")
    dialog.locator("#sit-amount").fill("2000")
    dialog.get_by_role("button", name="Confirm").click()
    expect(dialog).to_be_hidden()
    first.get_by_label("Auto muck losing hand").uncheck()
    findings.check(first, "table-seated-waiting")

    second.locator('.seat[data-seat="3"]').get_by_role("button", name="Sit here").click()
    second.locator("#sit-amount").fill("2000")
    second.locator("#sit-dialog").get_by_role("button", name="Confirm").click()
    expect(second.locator('.seat.mine[data-seat="3"]')).to_be_visible()
    second.get_by_label("Auto muck losing hand").uncheck()
    wait_hand(first, second)
    # Time to look at the showdown before the next deal.
    room_update(site, "a11y", countdown_seconds=60)

    # During the hand: the player to act, the raise screen, the one waiting.
    actor = whose_turn([first, second])
    waiter = second if actor is first else first
    findings.check(actor, "table-your-turn")
    findings.check(waiter, "table-waiting-turn")
    button(actor, "Raise").click()
    expect(actor.locator("#console")).to_have_attribute("data-console-state", "raise")
    findings.check(actor, "raise-screen")
    actor.keyboard.press("Escape")
    expect(actor.locator("#console")).not_to_have_attribute("data-console-state", "raise")

    # Checked down: the big blind's aces are shown first, the button chooses Show or Muck.
    play_calls([first, second], lambda: first.locator("#stage.showdown").count() > 0)
    undecided = table_state(first, "app.table.last_hand.undecided || []")
    assert len(undecided) == 1, undecided
    loser_index = 0 if undecided[0] == 0 else 1
    loser, loser_phone = (first, second)[loser_index], phones[loser_index]
    winner = (second, first)[loser_index]
    for page in (loser, loser_phone):
        expect(page.locator("#console")).to_have_attribute("data-console-state", "show_or_muck")
    # No pictures here: the 8 s to choose are for axe (test_table_rules.py takes them).
    findings.check(loser, "show-or-muck", widths={"1280": DESKTOP}, shoot=False)
    findings.check(loser_phone, "show-or-muck", widths={"360": PHONE}, shoot=False)
    button(loser, "Muck").click()
    expect(loser.locator("#console")).not_to_have_attribute("data-console-state", "show_or_muck")
    findings.check(winner, "table-showdown")

    loser.locator("#console").get_by_role("button", name="Show previous hand").click()
    expect(loser.locator("#previous-dialog")).to_contain_text("Your cards")
    findings.check(loser, "previous-hand-dialog")
    loser.locator("#previous-dialog").get_by_role("button", name="Close").click()

    # The hand's page with its replayer, and the player's statistics.
    hand_id = table_state(loser, "app.table.last_hand.hand_id")
    loser.goto(f"{site['base']}/hands/{hand_id}/")
    expect(loser.locator("#replay")).to_be_visible()
    findings.check(loser, "hand-page")
    loser.locator("#replay").get_by_role("button", name="Showdown", exact=True).click()
    findings.check(loser, "hand-page-showdown")
    loser.goto(f"{site['base']}/accounts/stats/")
    expect(loser.locator('[data-stat="hands"]')).to_have_text("1")
    findings.check(loser, "statistics")
    assert not any(page.errors for page in (first, second, *phones))
    findings.assert_none()


# The player's own pages: the profile and what it links to (the table settings, responsible play,
# the monthly statement, closing the account, the notes on players).
ACCOUNT_PAGES = {
    "profile": "/accounts/profile/",
    "settings": "/accounts/settings/",
    "responsible-play": "/accounts/responsible-play/",
    "statement": "/accounts/statement/",
    "close-account": "/accounts/close/",
    "notes": "/accounts/notes/",
}


def test_the_account_pages_and_the_table_settings_dialog(site, browser, players, sign_in):
    findings = Findings()
    page = sign_in(players[2])
    for name, path in ACCOUNT_PAGES.items():
        page.goto(site["base"] + path)
        expect(page.locator("main h1").first).to_be_visible()
        findings.check(page, name)
    # A table watched (nobody sits down): its settings dialog, open.
    page.goto(site["base"] + f"/tables/{site['rooms']['a11y']}/")
    expect(page.locator("#conn-status")).to_have_attribute("data-state", "open")
    page.locator("#settings-open").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    findings.check(page, "table-settings-dialog")
    findings.assert_none()
