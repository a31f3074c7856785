"""Real Chromium, for what a regular expects around the betting: topping up between hands, and a
time bank that keeps the turn once the turn clock runs out (a 5 s clock and a 3 s bank here)."""

import json
import re

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_alerts import MAKE_PLAYERS
from tests.e2e.test_table_play import expect, open_table, sit, table_state, wait_hand, whose_turn
from tests.e2e.test_table_rules import shoot

pytestmark = pytest.mark.e2e

REGULARS = ["regular01", "regular02", "regular03", "regular04", "regular05", "regular06"]


@pytest.fixture(scope="module")
def regulars(site):
    setup = json.dumps({"players": REGULARS, "password": PASSWORD})
    site["manage"]("shell", "-c", MAKE_PLAYERS.format(setup=setup))
    return REGULARS


def test_a_seated_player_tops_up_between_hands(site, regulars, sign_in, artifacts):
    page = sign_in(regulars[0])
    open_table(page, site, "topup")
    sit(page, 1, 2000)
    expect(page.locator(".seat.mine .seat-stack")).to_have_text("2,000")
    page.locator("#seat-tools").get_by_role("button", name="Top up").click()
    dialog = page.locator("#topup-dialog")
    expect(dialog).to_be_visible()
    # nl50: at most 20,000 at the table; the wallet holds 8,000 after the buy-in.
    expect(dialog.locator("#topup-range")).to_contain_text("Add up to 8,000 chips")
    dialog.locator("#topup-amount").fill("9000")
    expect(dialog.locator("#topup-problem")).to_have_text("You can add at most 8,000 chips now.")
    expect(dialog.get_by_role("button", name="Add chips")).to_be_disabled()
    dialog.locator("#topup-amount").fill("1500")
    shoot(page, artifacts, "table-top-up")
    dialog.get_by_role("button", name="Add chips").click()
    expect(dialog).to_be_hidden()
    expect(page.locator(".seat.mine .seat-stack")).to_have_text("3,500")
    expect(page.locator("#action-log")).to_contain_text("1,500")
    assert table_state(page, "app.you.balance") == 6500
    assert not page.errors


def test_the_time_bank_keeps_the_turn_then_the_timeout_acts(site, regulars, sign_in, artifacts):
    first, second = sign_in(regulars[2]), sign_in(regulars[3])
    for page in (first, second):
        open_table(page, site, "bank")
    sit(first, 0, 2000)
    sit(second, 3, 2000)
    wait_hand(first, second)
    idle = whose_turn([first, second])
    other = second if idle is first else first
    seat = table_state(idle, "app.you.seat")
    # The 5 s turn clock runs out: the bank (3 s) keeps the turn, and the table sees it.
    idle.wait_for_function(
        "async () => (await import('/static/js/table.js')).app.table.turn?.bank_from != null",
        timeout=9_000,
    )
    assert table_state(other, "app.table.turn.seat") == seat
    assert table_state(other, f"app.table.seats[{seat}].time_bank") == 3
    shoot(other, artifacts, "table-time-bank")
    # Then the bank runs out and the timeout acts (the small blind owes chips: a fold).
    expect(other.locator("#action-log")).to_contain_text("time ran out", timeout=8_000)
    other.wait_for_function(
        f"async () => (await import('/static/js/table.js')).app.table.seats[{seat}].time_bank === 0",
        timeout=5_000,
    )
    assert re.search(r"\d", other.locator("#action-log").inner_text())
    assert not first.errors and not second.errors


def test_a_pre_action_box_survives_a_reload_and_acts_the_moment_the_turn_comes(
    site, regulars, sign_in, artifacts
):
    first, second = sign_in(regulars[4]), sign_in(regulars[5])
    for page in (first, second):
        open_table(page, site, "preact")
    sit(first, 0, 2000)
    sit(second, 3, 2000)
    wait_hand(first, second)
    actor = whose_turn([first, second])  # heads-up: the button posts the small blind, acts first
    waiter = second if actor is first else first
    # The big blind owes nothing yet: Check/Fold, Check, Call any. They tick Check.
    boxes = waiter.locator("#console .pre-action")
    expect(boxes).to_have_text(["Check/Fold", "Check", "Call any"])
    waiter.locator('.pre-action[data-pre-action="check"] input').click()  # checked by the answer
    expect(waiter.locator('.pre-action[data-pre-action="check"] input')).to_be_checked()
    shoot(waiter, artifacts, "table-pre-action")
    waiter.reload()
    expect(waiter.locator('.pre-action[data-pre-action="check"] input')).to_be_checked()
    # The small blind calls: the big blind's check follows at once, and the flop comes.
    actor.locator("#console").get_by_role("button", name=re.compile("^Call")).click()
    expect(waiter.locator("#action-log")).to_contain_text("Flop")
    waiter_name = table_state(waiter, "app.you.username")
    expect(actor.locator("#action-log")).to_contain_text(f"{waiter_name} checks")
    expect(waiter.locator('.pre-action input:checked')).to_have_count(0)
    assert not first.errors and not second.errors
