"""Real Chromium: a room an admin opens, then closes, in the admin shows up on an open
lobby and in an open table page's room list at once, and leaves them, without a reload."""

import json
from base64 import b32decode
from urllib.parse import parse_qs, urlsplit

import pytest
from django_otp.oath import totp

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_alerts import MAKE_PLAYERS
from tests.e2e.test_table_play import expect
from tests.e2e.test_table_rules import shoot

pytestmark = pytest.mark.e2e

LIVE_PLAYERS = ["live01", "live02"]
ROOM = "E2E Opened Live"


@pytest.fixture(scope="module")
def players(site):
    setup = json.dumps({"players": LIVE_PLAYERS, "password": PASSWORD})
    site["manage"]("shell", "-c", MAKE_PLAYERS.format(setup=setup))
    return LIVE_PLAYERS


def admin_page(site, browser):
    """The seeded admin, signed in past the second factor (an operator enrols the phone)."""
    out = site["manage"]("totp_enrol", "admin", "--replace")
    uri = next(line for line in out.splitlines() if line.startswith("otpauth URI: "))
    secret = b32decode(parse_qs(urlsplit(uri.split(": ", 1)[1]).query)["secret"][0])
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(site["base"] + "/admin/login/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "holdem-admin")  # seed_demo's local-only admin
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/second-factor/**")
    page.fill("#id_token", f"{totp(secret):06d}")
    page.click("#second-factor-form input[type=submit]")
    page.wait_for_url("**/admin/")
    return context, page


def test_a_room_opened_and_closed_in_the_admin_reaches_the_lobby_and_the_room_list_live(
    site, players, sign_in, browser, artifacts
):
    lobby, watcher = (sign_in(name) for name in players)
    expect(lobby.locator("#lobby-status")).to_have_attribute("data-state", "open")
    watcher.goto(f"{site['base']}/tables/{site['rooms']['lobby']}/")
    expect(watcher.locator("#conn-status")).to_have_attribute("data-state", "open")
    rooms_list = watcher.locator("#console")
    expect(rooms_list).to_contain_text("Classic")  # the room list a spectator is shown
    expect(rooms_list).not_to_contain_text(ROOM)

    context, admin = admin_page(site, browser)
    try:
        admin.goto(site["base"] + "/admin/holdem/table/from-preset/")
        admin.fill("#id_name", ROOM)
        admin.select_option("#id_preset", "pl50")
        admin.click("input[type=submit]")
        expect(admin.get_by_text(f"Room {ROOM} is open.")).to_be_visible()
        room_id = admin.url.rstrip("/").split("/")[-2]

        tile = lobby.locator(f'.room-tile[data-room-id="{room_id}"]')
        expect(tile).to_contain_text(ROOM)
        expect(tile).to_contain_text("Waiting for players")
        expect(rooms_list).to_contain_text(ROOM)
        shoot(watcher, artifacts, "admin-room-live-switcher")

        admin.goto(site["base"] + "/admin/holdem/table/")
        admin.check(f'input[name=_selected_action][value="{room_id}"]')
        admin.select_option("select[name=action]", "close_rooms")
        admin.click("button[name=index]")
        expect(admin.get_by_text("room(s) closed or closing")).to_be_visible()
        expect(tile).to_have_count(0)
        expect(rooms_list).not_to_contain_text(ROOM)
    finally:
        context.close()
    assert not lobby.errors and not watcher.errors
