"""A Heads-up Hyper played through the pages (RULES.md 8): two players register in the lobby,
are taken to the table when the second seat is taken, play it to the end, and see their places,
the prizes and the results page. Screenshots at 1280 px and 360 px go to artifacts/."""

import json
import re
import time

from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD

SETUP = """
import json
from casino.accounts.services import account_create
from casino.accounts.models import User
from holdem.models import SitGoTemplate
from holdem.services.tournaments import sit_and_go_open
for name in ("sng-ann", "sng-ben"):
    if not User.objects.filter(username=name).exists():
        account_create(username=name, password=%r)
template = SitGoTemplate.objects.create(
    name="E2E Hyper", seats=2, structure="no_limit", buy_in=2000, fee=100,
    starting_stack=500, level_seconds=20, turn_seconds=20, time_bank_seconds=0,
)
print("SNG=" + json.dumps(sit_and_go_open(template).pk))
"""

BETTING = ("start_bet", "call_bet", "call_no_raise", "forced_all_in")


def console_state(page):
    return page.locator("#console").get_attribute("data-console-state")


def act_all_in(page) -> bool:
    """Put everything in when the page's console offers a bet; True if it acted."""
    state = console_state(page)
    if state not in BETTING:
        return False
    console = page.locator("#console")
    if state == "call_no_raise":
        console.get_by_role("button", name="Call", exact=True).click()
        return True
    console.get_by_role("button", name="All in", exact=True).click()
    console.get_by_role("button", name="Confirm", exact=True).click()
    return True


def wallet_text(page) -> str:
    return page.locator("[data-wallet-balance]").first.inner_text()


def test_two_players_play_a_heads_up_hyper_to_the_end(site, sign_in, artifacts):
    out = site["manage"]("shell", "-c", SETUP % PASSWORD)
    sng = json.loads(next(line for line in out.splitlines() if line.startswith("SNG="))[4:])
    ann, ben = sign_in("sng-ann"), sign_in("sng-ben", phone=True)
    rows = [page.locator(f'[data-sit-and-go-id="{sng}"]') for page in (ann, ben)]
    for row in rows:
        expect(row).to_contain_text("E2E Hyper")
        expect(row).to_contain_text("2,000 + 100")
    ben.screenshot(path=str(artifacts / "sng-lobby-360.png"), full_page=True)

    rows[0].get_by_role("button", name="Register").click()
    # The other player's lobby hears it live: one of two seats taken, and who took it.
    expect(rows[1]).to_contain_text("sng-ann")
    expect(rows[1].locator(".sng-taken")).to_have_text("1")
    ann.screenshot(path=str(artifacts / "sng-lobby-1280.png"), full_page=True)
    rows[1].get_by_role("button", name="Register").click()

    # The last seat taken: both are taken to the table, where the first hand comes 10 s later.
    for page in (ann, ben):
        page.wait_for_url(re.compile(r"/tables/\d+/"), timeout=20_000)
        panel = page.locator("#tournament-panel")
        expect(panel).to_be_visible()
        expect(panel).to_contain_text("Level 1")
        expect(panel).to_contain_text("10/20")
        expect(panel).to_contain_text("2 of 2")
        # No top-up, no leaving with the chips: the console offers neither.
        expect(page.locator("#console").get_by_role("button", name="Top up")).to_have_count(0)

    # All in each hand until one of them has every chip.
    deadline = time.monotonic() + 150
    screenshot_taken = False
    while time.monotonic() < deadline:
        if (
            ann.locator("#finish-dialog[open]").count()
            or ben.locator("#finish-dialog[open]").count()
        ):
            break
        acted = False
        for page in (ann, ben):
            acted = act_all_in(page) or acted
        if acted and not screenshot_taken:
            ann.screenshot(path=str(artifacts / "sng-table-1280.png"))
            ben.screenshot(path=str(artifacts / "sng-table-360.png"))
            screenshot_taken = True
        time.sleep(0.3)
    for page in (ann, ben):
        expect(page.locator("#finish-dialog")).to_be_visible(timeout=30_000)
    titles = {page: page.locator("#finish-title").inner_text() for page in (ann, ben)}
    winner = next(page for page, title in titles.items() if "won" in title.lower())
    loser = ben if winner is ann else ann
    assert re.search(r"You finished 2nd", titles[loser]), titles
    expect(winner.locator("#finish-prize")).to_contain_text("4,000")  # RULES.md 8: 100% of 2
    expect(loser.locator("#finish-prize")).to_contain_text("No prize")
    winner.screenshot(
        path=str(
            artifacts / "sng-finished-1280.png"
            if winner is ann
            else artifacts / "sng-finished-360.png"
        )
    )

    # The results page: places, prizes and the hands, linked from the dialog.
    loser.locator("#finish-results").click()
    loser.wait_for_url(re.compile(r"/tournaments/\d+/"))
    places = loser.locator("main")
    expect(places).to_contain_text("1st")
    expect(places).to_contain_text("2nd")
    expect(places).to_contain_text("4,000")
    loser.screenshot(
        path=str(artifacts / ("sng-results-360.png" if loser is ben else "sng-results-1280.png")),
        full_page=True,
    )
    hand_link = loser.locator('a[href^="/hands/"]').first
    expect(hand_link).to_be_visible()
    hand_link.click()
    loser.wait_for_url(re.compile(r"/hands/\d+/"))
    expect(loser.locator("main")).to_contain_text("E2E Hyper")
    for page in (ann, ben):
        assert not page.errors, page.errors
