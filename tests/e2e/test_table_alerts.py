"""Real Chromium against a real Daphne, for what keeps a player informed away from the felt: the
turn alert (live region, flashing title, beep), the warning before leaving a hand, the buy-in
dialog's Min/Max and proposed amount, the new buy-in offered after a bust, and the lobby's
"Your seat" room."""

import json
import re
import time

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_play import (
    button,
    expect,
    open_table,
    sit,
    table_state,
    wait_hand,
    whose_turn,
)
from tests.e2e.test_table_rules import shoot

pytestmark = pytest.mark.e2e

TURN_TITLE = "\u25b6 Your turn"
ALERT_PLAYERS = ["alerts01", "alerts02", "alerts03", "alerts04", "alerts05"]

MAKE_PLAYERS = """
import json
from django.contrib.auth.hashers import make_password
from casino.accounts.models import User
from casino.accounts.services import account_open
setup = json.loads({setup!r})
hashed = make_password(setup["password"])
for name in setup["players"]:
    account_open(user=User.objects.create(username=name, password=hashed))
"""


@pytest.fixture(scope="module")
def players(site):
    """This module's own players (no seat anywhere yet), so no other test's seat gets in the way."""
    setup = json.dumps({"players": ALERT_PLAYERS, "password": PASSWORD})
    site["manage"]("shell", "-c", MAKE_PLAYERS.format(setup=setup))
    return ALERT_PLAYERS


def leaving_is_questioned(page):
    """Whether the page asks before it is unloaded (a synthetic beforeunload, nothing leaves)."""
    return page.evaluate("""() => {
        const event = new Event("beforeunload", { cancelable: true });
        window.dispatchEvent(event);
        return event.defaultPrevented;
    }""")


def test_the_player_to_act_is_told_in_words_in_the_title_and_with_a_beep(
    site, players, sign_in, artifacts
):
    first, second = sign_in(players[0]), sign_in(players[1])
    for page in (first, second):
        open_table(page, site, "alerts")
    own_title = first.title()
    assert TURN_TITLE not in own_title

    # The Sound choice outlives a reload (localStorage); it is on until the player turns it off.
    sound = second.get_by_label("Sound")
    expect(sound).to_be_checked()
    sound.uncheck()
    open_table(second, site, "alerts")
    expect(second.get_by_label("Sound")).not_to_be_checked()
    second.get_by_label("Sound").check()

    # The buy-in form: Min and Max fill the amount; a 10,000 wallet proposes all of it (max 20,000).
    first.locator('.seat[data-seat="0"]').get_by_role("button", name="Sit here").click()
    dialog = first.locator("#sit-dialog")
    expect(dialog.locator("#sit-amount")).to_have_value("10000")
    expect(dialog.locator("#sit-rebuy")).to_be_hidden()
    dialog.get_by_role("button", name="Min 2,000").click()
    expect(dialog.locator("#sit-amount")).to_have_value("2000")
    dialog.get_by_role("button", name="Max 10,000").click()
    expect(dialog.locator("#sit-amount")).to_have_value("10000")
    dialog.get_by_role("button", name="Min 2,000").click()
    dialog.get_by_role("button", name="Confirm").click()
    expect(first.locator('.seat.mine[data-seat="0"] .seat-stack')).to_have_text("2,000")
    assert not leaving_is_questioned(first), "no hand yet: leaving costs nothing"
    sit(second, 3, 2000)
    wait_hand(first, second)

    actor = whose_turn([first, second])
    waiter = second if actor is first else first
    announcer = actor.locator("#table-announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    expect(announcer).to_contain_text(re.compile(r"Your turn: (call 50 or raise|check or raise)"))
    expect(actor).to_have_title(TURN_TITLE)
    expect(actor).to_have_title(own_title)  # it alternates
    expect(actor).to_have_title(TURN_TITLE)
    assert table_state(actor, "app.alerts.beeps") == 1, "the Sit here click unlocked the sound"
    expect(waiter.locator("#table-announcer")).not_to_contain_text("Your turn")
    assert waiter.title() == own_title
    for page in (actor, waiter):
        assert leaving_is_questioned(page), "dealt in: the browser asks before leaving"
    shoot(actor, artifacts, "alerts-your-turn")

    # The small blind calls: the big blind hears it, then its own turn.
    button(actor, "Call").click()
    expect(waiter.locator("#table-announcer")).to_contain_text(
        re.compile(rf"{actor_name(actor)} calls 50.*Your turn: check or raise", re.S)
    )
    expect(waiter).to_have_title(TURN_TITLE)
    expect(actor).to_have_title(own_title, timeout=3_000)  # acted, looking: the flashing stops
    expect(actor.locator("#table-announcer")).not_to_contain_text(f"{actor_name(actor)} calls")
    assert not actor.errors and not waiter.errors


def actor_name(page):
    return table_state(page, "app.you.username")


def test_the_buy_in_proposes_the_whole_balance_without_a_maximum_and_the_lobby_leads_back(
    site, players, sign_in, artifacts
):
    page = sign_in(players[2])
    open_table(page, site, "buy_in")
    page.locator('.seat[data-seat="2"]').get_by_role("button", name="Sit here").click()
    dialog = page.locator("#sit-dialog")
    # Fixed limit 20/40 without a maximum: the whole balance first (RULES.md 1); the text names
    # the minimum (200).
    expect(dialog.locator("#sit-amount")).to_have_value("10000")
    expect(dialog.locator("#sit-range")).to_contain_text("at least 200 chips")
    expect(dialog.get_by_role("button", name="Min 200")).to_be_visible()
    expect(dialog.get_by_role("button", name="Max 10,000")).to_be_visible()
    shoot(page, artifacts, "alerts-buy-in-dialog")
    dialog.get_by_role("button", name="Min 200").click()
    dialog.locator("#sit-amount").fill("2000")
    dialog.get_by_role("button", name="Confirm").click()
    expect(page.locator('.seat.mine[data-seat="2"] .seat-stack')).to_have_text("2,000")

    page.goto(site["base"] + "/lobby/")
    expect(page.locator("#lobby-status")).to_have_attribute("data-state", "open")
    mine = page.locator(f'.room-tile[data-room-id="{site["rooms"]["buy_in"]}"]')
    expect(mine).to_have_class(re.compile(r"\bmine\b"))
    expect(mine.locator(".your-seat")).to_have_text("Your seat")
    expect(page.locator(".your-seat")).to_have_count(1)  # only the room with the seat
    other = page.locator(f'.room-tile[data-room-id="{site["rooms"]["alerts"]}"]')
    expect(
        other.get_by_role("button", name=re.compile(r"^(Join|Watch) E2E Alerts$"))
    ).to_be_visible()
    shoot(page, artifacts, "alerts-lobby-your-seat")
    # The page as the server sends it, before lobby.js draws it again, says the same.
    served = page.request.get(site["base"] + "/lobby/").text()
    assert served.count("Your seat") == 1 and "Back to your seat" in served
    mine.get_by_role("link", name="Back to your seat").click()
    page.wait_for_url(f"**/tables/{site['rooms']['buy_in']}/")
    expect(page.locator('.seat.mine[data-seat="2"]')).to_be_visible()
    assert not page.errors


def put_all_in(page, action):
    """Act through the client's own console (whatever its buttons are labelled): `all_in`, or
    `call` when a call is offered (else all in: the call takes every chip)."""
    page.evaluate(
        """async (action) => {
        const { app } = await import("/static/js/table.js");
        const offered = app.you.legal.actions;
        app.console.act(action === "call" && !offered.includes("call") ? "all_in" : action);
    }""",
        action,
    )


def rebuy_offered(pages, timeout=20):
    """The page whose buy-in dialog opened by itself after the hand, or None when a new hand
    started instead (a split pot: nobody busted)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("#sit-dialog[open]").count():
                return page
        if all(page.locator("#stage.in-hand").count() for page in pages):
            return None
        time.sleep(0.05)
    raise AssertionError("the hand neither busted anybody nor made way for the next one")


def test_a_player_who_busts_is_offered_a_new_buy_in_at_the_same_seat(site, players, sign_in):
    first, second = sign_in(players[3]), sign_in(players[4])
    for page in (first, second):
        open_table(page, site, "rebuy")
    sit(first, 1, 2000)
    sit(second, 4, 2000)
    # Equal stacks, all in before the flop: anything but a split pot busts one of them.
    for _ in range(4):
        wait_hand(first, second)
        actor = whose_turn([first, second])
        caller = second if actor is first else first
        put_all_in(actor, "all_in")
        put_all_in(whose_turn([caller]), "call")
        expect(first.locator("#stage.in-hand")).to_be_hidden(timeout=15_000)
        loser = rebuy_offered([first, second])
        if loser:
            break
    else:
        pytest.skip("four split pots in a row: nobody busted")
    seat = "1" if loser is first else "4"
    dialog = loser.locator("#sit-dialog")
    expect(dialog.locator("#sit-rebuy")).to_have_text("You busted. Buy in again?")
    expect(dialog.locator("#sit-seat-number")).to_have_text(str(int(seat) + 1))
    # The wallet's 8,000 (under the room's 20,000 maximum).
    expect(dialog.locator("#sit-amount")).to_have_value("8000")
    dialog.get_by_role("button", name="Min 2,000").click()
    dialog.get_by_role("button", name="Confirm").click()
    expect(loser.locator(f'.seat.mine[data-seat="{seat}"] .seat-stack')).to_have_text("2,000")
    winner = second if loser is first else first
    expect(winner.locator("#sit-dialog")).to_be_hidden()
    assert not first.errors and not second.errors
