"""Real Chromium against a real Daphne: a seat shows only the player sitting in it (nothing of the
one who left it after a shown hand), and the console says what will happen: the raise button's
amount is always what a click would send, the time bank reads differently from the turn clock,
sitting out mid-hand starts after the hand, and switching rooms waits for the hand's end."""

import json
import re

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_play import (
    expect,
    open_table,
    room_update,
    sit,
    table_state,
    wait_hand,
    whose_turn,
)
from tests.e2e.test_table_rules import play_calls

pytestmark = pytest.mark.e2e

SIZES = ((1280, 800), (1366, 768), (360, 740))
QUICK = {"countdown_seconds": 2, "countdown_full_seconds": 1, "turn_seconds": 120}
SEAT_ROOMS = {
    "leaver": {"preset": "nl50", "seats": 6, **QUICK},
    "notes": {"preset": "nl50", "seats": 6, **QUICK},
    # The shortest turn clock, then a time bank long enough to read.
    "bank": {"preset": "nl50", "seats": 6, **QUICK, "turn_seconds": 5, "time_bank_seconds": 30},
}
SEAT_PLAYERS = [f"seat{n:02d}" for n in range(1, 10)]

SETUP = """
import json
from django.contrib.auth.hashers import make_password
from casino.accounts.models import User
from casino.accounts.services import account_open
from holdem.services import room_create
setup = json.loads({setup!r})
rooms = {{key: room_create(name="E2E Seat " + key.title(), **options).pk
         for key, options in setup["rooms"].items()}}
hashed = make_password(setup["password"])
for name in setup["players"]:
    account_open(user=User.objects.create(username=name, password=hashed))
print("ROOMS=" + json.dumps(rooms))
"""


@pytest.fixture(scope="module")
def rooms(site):
    """This module's rooms and players, made once in the served database."""
    setup = json.dumps({"rooms": SEAT_ROOMS, "players": SEAT_PLAYERS, "password": PASSWORD})
    out = site["manage"]("shell", "-c", SETUP.format(setup=setup))
    created = json.loads(next(line for line in out.splitlines() if line.startswith("ROOMS="))[6:])
    site["rooms"].update({f"seat_{key}": pk for key, pk in created.items()})
    return {key: f"seat_{key}" for key in created}


def shoot(page, artifacts, name):
    """The page at the three sizes people play on (artifacts/<name>-<w>x<h>.png)."""
    size = page.viewport_size
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(250)
        page.screenshot(path=str(artifacts / f"{name}-{width}x{height}.png"))
    page.set_viewport_size(size)


def seat_shows_nobody(page, seat):
    """The seat is open and shows nothing of anyone: no card, no result, no button."""
    box = page.locator(f'.seat[data-seat="{seat}"]')
    expect(box).to_have_attribute("data-state", "open")
    expect(box.locator(".pcard")).to_have_count(0)
    expect(box.locator(".dealer-button, .net, .win-flag")).to_have_count(0)
    expect(box.locator(".seat-box")).to_have_text("Sit here")


def seat_shows_only(page, seat, username):
    """The seat shows its new player, with nothing of the hand they did not play."""
    box = page.locator(f'.seat[data-seat="{seat}"]')
    expect(box.locator(".seat-name")).to_have_text(re.compile(f"^{username}"))
    expect(box.locator(".pcard")).to_have_count(0)
    expect(box.locator(".dealer-button, .net, .win-flag")).to_have_count(0)
    expect(box.locator(".seat-status")).to_have_text("Waiting")


def test_a_seat_left_after_a_shown_hand_shows_nothing_of_its_player_to_anyone(
    site, rooms, sign_in, artifacts
):
    room = rooms["leaver"]
    first, second, watcher = (sign_in(name) for name in SEAT_PLAYERS[:3])
    for page in (first, second, watcher):
        open_table(page, site, room)
    sit(first, 0, 2000)
    sit(second, 3, 2000)
    wait_hand(first, second)
    room_update(site, room, countdown_seconds=120, countdown_full_seconds=120)  # time to look
    play_calls([first, second], until=lambda: watcher.locator("#stage.showdown").count() > 0)

    winner = table_state(watcher, "app.table.last_hand.winners[0]")
    leaver = first if winner == 0 else second
    stays = second if leaver is first else first
    shown = watcher.locator(f'.seat[data-seat="{winner}"] .seat-cards .pcard.face')
    expect(shown).to_have_count(2)  # the winner's hand is on their seat while they sit there
    leaver.locator("#console-tools").get_by_role("button", name="Leave table").click()
    expect(leaver.locator(".seat.mine")).to_have_count(0)
    for page in (watcher, stays):
        expect(page.locator(f'.seat[data-seat="{winner}"]')).not_to_have_attribute(
            "data-state", re.compile("waiting|winner")
        )
    seat_shows_nobody(watcher, winner)
    expect(stays.locator(f'.seat[data-seat="{winner}"] .pcard')).to_have_count(0)

    # Somebody else sits there: neither they nor anyone else sees the last player's result.
    newcomer = sign_in(SEAT_PLAYERS[3])
    open_table(newcomer, site, room)
    seat_shows_nobody(newcomer, winner)  # a page opened after the hand (a snapshot)
    sit(newcomer, winner, 2000)
    for page in (newcomer, watcher, stays):
        seat_shows_only(page, winner, SEAT_PLAYERS[3])
    watcher.reload()
    expect(watcher.locator("#conn-status")).to_have_attribute("data-state", "open")
    seat_shows_only(watcher, winner, SEAT_PLAYERS[3])
    shoot(newcomer, artifacts, "table-seat-newcomer")
    assert not any(page.errors for page in (first, second, watcher, newcomer))


def test_the_console_says_what_a_click_does_while_dealt_in(site, rooms, sign_in, artifacts):
    room = rooms["notes"]
    first, second = sign_in(SEAT_PLAYERS[4]), sign_in(SEAT_PLAYERS[5])
    for page in (first, second):
        open_table(page, site, room)
    sit(first, 0, 2000)
    sit(second, 3, 2000)
    wait_hand(first, second)
    actor = whose_turn([first, second])
    waiter = second if actor is first else first

    # RULES.md 2: no switching rooms while dealt in; the tool says so instead of being refused.
    tools = waiter.locator("#console-tools")
    switch = tools.get_by_role("button", name="Switch room")
    expect(switch).to_be_disabled()
    expect(switch).to_have_attribute("title", "You can switch after this hand")
    expect(tools).to_contain_text("You can switch after this hand")

    # Sitting out mid-hand takes effect after it: the console says so.
    tools.get_by_role("button", name="Sit out").click()
    expect(tools.get_by_role("button", name="Sit in")).to_be_visible()
    expect(waiter.locator("#console-main")).to_contain_text("You will sit out after this hand")
    shoot(waiter, artifacts, "table-console-dealt-in")

    # The raise button shows what would be sent: after Max, a typed 150 (below the smallest raise
    # to 200) goes as 200 (Enter, or leaving the box), and the button says 200, not Max's 2,000.
    console = actor.locator("#console")
    console.get_by_role("button", name="Raise", exact=True).click()
    console.get_by_role("button", name="Max").click()
    place = console.locator(".raise-screen .actions .act.raise")
    expect(place.locator(".act-amount")).to_have_text("2,000")
    console.get_by_role("spinbutton", name="Raise to").fill("150")
    expect(console.locator("[data-raise-problem]")).to_have_text("The smallest raise is to 200.")
    expect(place.locator(".act-amount")).to_have_text("200")
    expect(console.locator("[data-raise-total]")).to_have_text("200")
    shoot(actor, artifacts, "table-console-raise-corrected")
    console.get_by_role("spinbutton", name="Raise to").press("Tab")
    expect(console.get_by_role("spinbutton", name="Raise to")).to_have_value("200")
    expect(place.locator(".act-amount")).to_have_text("200")
    place.click()
    expect(actor.locator("#action-log")).to_contain_text(
        f"{table_state(actor, 'app.you.username')} raises to 200"
    )
    assert not first.errors and not second.errors


def test_the_time_bank_reads_as_the_time_bank_on_the_seat_and_the_console(
    site, rooms, sign_in, artifacts
):
    room = rooms["bank"]
    first, second = sign_in(SEAT_PLAYERS[6]), sign_in(SEAT_PLAYERS[7])
    for page in (first, second):
        open_table(page, site, room)
    sit(first, 0, 2000)
    sit(second, 3, 2000)
    wait_hand(first, second)
    idle = whose_turn([first, second])
    other = second if idle is first else first
    seat = table_state(idle, "app.you.seat")
    idle.wait_for_function(
        "async () => (await import('/static/js/table.js')).app.table.turn?.bank_from != null",
        timeout=12_000,
    )
    bank = re.compile(r"^Time bank \d+ s$")
    for page in (idle, other):
        status = page.locator(f'.seat[data-seat="{seat}"] .seat-status')
        expect(status).to_have_text(bank)
        expect(status.locator(".time-bank")).to_have_count(1)
        expect(page.locator(f'.seat[data-seat="{seat}"] .turn-clock.bank')).to_have_count(1)
    expect(idle.locator("#console [data-turn-seconds]")).to_have_text(bank)
    expect(idle.locator("#console [data-turn-seconds].bank")).to_have_count(1)
    expect(idle.locator("#console .my-clock.bank")).to_have_count(1)
    # In its own colour: not the turn clock's gold and green.
    colours = idle.evaluate("""() => [
        getComputedStyle(document.querySelector('#console [data-turn-seconds]')).color,
        getComputedStyle(document.querySelector('#console .my-clock i')).backgroundImage]""")
    assert colours[0] != "rgb(232, 182, 76)" and "76, 195, 138" not in colours[1], colours
    shoot(idle, artifacts, "table-time-bank-running")
    assert not first.errors and not second.errors
