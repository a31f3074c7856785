"""Real Chromium: the wallet every page shows in its header, live (ws/me/), and free chips offered
only to a player who can claim them. An admin's adjustment reaches an open table page (its header,
its Top up limit) and the lobby in another tab within a second."""

import json
import time

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_admin_chips import code_now, enrol_authenticator
from tests.e2e.test_table_alerts import MAKE_PLAYERS
from tests.e2e.test_table_play import expect, open_table, sit
from tests.e2e.test_table_rules import shoot

pytestmark = pytest.mark.e2e

PLAYERS = ["wallet01", "wallet02", "wallet03"]
ROOM = "E2E Wallet Live"

# A room of this module's own, and a wallet left at 50 chips for the broke player.
SETUP = """
import json
from casino.accounts.models import LedgerKind, User
from casino.accounts.services import wallet_adjust
from holdem.services import room_create
room = room_create(name={room!r}, preset="nl50", seats=6, countdown_seconds=30)
broke = User.objects.get(username={broke!r})
wallet_adjust(user=broke, amount=-9_950, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="lost it all")
print("ROOM=" + json.dumps(room.pk))
"""


@pytest.fixture(scope="module")
def wallets(site):
    setup = json.dumps({"players": PLAYERS, "password": PASSWORD})
    site["manage"]("shell", "-c", MAKE_PLAYERS.format(setup=setup))
    out = site["manage"]("shell", "-c", SETUP.format(room=ROOM, broke=PLAYERS[1]))
    room = json.loads(next(line for line in out.splitlines() if line.startswith("ROOM="))[5:])
    site["rooms"]["wallet"] = room
    return PLAYERS


def wallet_shown(page):
    """The amount in the page's header."""
    return page.locator("#header-wallet [data-live-wallet]")


def admin_page(site, browser):
    """The admin, signed in with the password and the authenticator's code."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15_000)
    page = context.new_page()
    secret = enrol_authenticator(site, "admin")
    page.goto(site["base"] + "/admin/login/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "holdem-admin")
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/second-factor/**")
    page.fill("#id_token", code_now(secret))
    page.click("#second-factor-form input[type=submit]")
    page.wait_for_url("**/admin/")
    return page


def admin_adjust(admin, site, username, amount, reason):
    admin.goto(site["base"] + f"/admin/accounts/wallet/?q={username}")
    admin.locator("#result_list tbody tr", has_text=username).get_by_role(
        "link", name="Adjust chips"
    ).click()
    admin.fill("#id_amount", str(amount))
    admin.fill("#id_reason", reason)
    admin.click("input[type=submit]")
    return admin.locator(".messagelist li.success")


def test_an_admin_adjustment_reaches_the_open_table_and_the_lobby_within_a_second(
    site, browser, wallets, sign_in, artifacts
):
    lobby = sign_in(wallets[0])
    table = lobby.context.new_page()  # a second tab of the same player
    table.errors = []
    table.on("pageerror", lambda error: table.errors.append(str(error)))
    open_table(table, site, "wallet")
    header = wallet_shown(table)
    expect(header).to_have_text("10,000")
    sit(table, 0, 2000)
    # The buy-in left the wallet: the table's header and the lobby's, in the other tab, say so.
    expect(header).to_have_text("8,000")
    expect(wallet_shown(lobby)).to_have_text("8,000")
    expect(table.locator("#table-meta")).to_contain_text("Wallet 8,000")
    table.locator("#seat-tools").get_by_role("button", name="Top up").click()
    dialog = table.locator("#topup-dialog")
    expect(dialog.locator("#topup-range")).to_contain_text("Add up to 8,000 chips")

    admin = admin_page(site, browser)
    try:
        told = admin_adjust(admin, site, wallets[0], -100, "correction 26")
        expect(told).to_have_text(f"{wallets[0]}: -100 chips, balance now 7,900.")
        # The change committed before the admin's page came back: the player's pages show it
        # within a second of that, without a reload.
        started = time.monotonic()
        expect(dialog.locator("#topup-range")).to_contain_text(
            "Add up to 7,900 chips now (your wallet: 7,900)", timeout=1_000
        )
        expect(header).to_have_text("7,900", timeout=1_000)
        expect(wallet_shown(lobby)).to_have_text("7,900", timeout=1_000)
        assert time.monotonic() - started < 1.0
        expect(table.locator("#table-meta")).to_contain_text("Wallet 7,900")
        # The limit is the fresh one: 8,000 is refused before it is sent, 7,900 is taken.
        dialog.locator("#topup-amount").fill("8000")
        expect(dialog.locator("#topup-problem")).to_have_text(
            "You can add at most 7,900 chips now."
        )
        shoot(table, artifacts, "wallet-live-table")
        shoot(lobby, artifacts, "wallet-live-lobby")
        dialog.locator("#topup-amount").fill("7900")
        dialog.get_by_role("button", name="Add chips").click()
        expect(dialog).to_be_hidden()
        expect(table.locator(".seat.mine .seat-stack")).to_have_text("9,900")
        expect(header).to_have_text("0")
        expect(wallet_shown(lobby)).to_have_text("0")
        assert not table.errors and not lobby.errors
    finally:
        admin.context.close()


def test_free_chips_are_offered_only_to_a_broke_player_and_the_header_follows_the_claim(
    site, wallets, sign_in, artifacts
):
    rich, broke = sign_in(wallets[2]), sign_in(wallets[1], phone=True)
    # 10,000 chips: no offer, in the lobby or on the profile.
    expect(rich.locator("#lobby-wallet")).to_contain_text("10,000")
    expect(rich.get_by_role("button", name="Claim free chips")).to_have_count(0)
    rich.goto(site["base"] + "/accounts/profile/")
    expect(rich.get_by_role("button", name="Claim free chips")).to_have_count(0)

    # 50 chips: the Classic room would seat them for 1 chip, but no fixed-stake room would.
    expect(wallet_shown(broke)).to_have_text("50")
    expect(broke.locator("#lobby-wallet")).to_contain_text("50")
    offer = broke.locator("#free-chips")
    expect(offer).to_contain_text("Claim free chips")
    shoot(broke, artifacts, "wallet-free-chips-lobby")
    offer.get_by_role("button", name="Claim free chips").click()
    expect(broke.locator(".messages")).to_contain_text("9,950 free chips are in your wallet")
    expect(wallet_shown(broke)).to_have_text("10,000")
    expect(broke.get_by_role("button", name="Claim free chips")).to_have_count(0)
    assert not broke.errors and not rich.errors
