"""Real Chromium, RULES.md 2: the two sit-out boxes under the console ("Sit out next hand", "Sit
out at next big blind"), followed by the player's other tab, and auto top-up, set in the Top up
dialog and made before the next hand."""

import json

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_alerts import MAKE_PLAYERS
from tests.e2e.test_table_play import expect, open_table, sit, table_state, wait_hand
from tests.e2e.test_table_rules import play_calls, shoot

pytestmark = pytest.mark.e2e

SITTERS = ["sitout01", "sitout02", "sitout03", "autotop01", "autotop02"]


@pytest.fixture(scope="module")
def sitters(site):
    setup = json.dumps({"players": SITTERS, "password": PASSWORD})
    site["manage"]("shell", "-c", MAKE_PLAYERS.format(setup=setup))
    return SITTERS


def you(page, field):
    return table_state(page, f"app.you && app.you.{field}")


def wait_until(page, expression, timeout=60_000):
    page.wait_for_function(
        f"async () => {{ const {{ app }} = await import('/static/js/table.js'); return {expression}; }}",
        timeout=timeout,
    )


def test_the_sit_out_boxes_sit_the_player_out_and_follow_them_to_another_tab(
    site, sitters, sign_in, artifacts
):
    pages = [sign_in(name) for name in sitters[:3]]
    for page in pages:
        open_table(page, site, "sitout")
    for number, page in enumerate(pages):
        sit(page, number, 3000)
    wait_hand(*pages)
    first, second, third = pages

    # Sit out next hand, ticked mid-hand: the hand is finished, then no more hands.
    box = third.locator("#console-tools").get_by_label("Sit out next hand")
    expect(box).not_to_be_checked()
    box.check()
    expect(box).to_be_checked()
    other_tab = third.context.new_page()
    other_tab.errors = []
    other_tab.on("pageerror", lambda error: other_tab.errors.append(str(error)))
    open_table(other_tab, site, "sitout")
    expect(other_tab.locator("#console-tools").get_by_label("Sit out next hand")).to_be_checked()
    assert you(third, "in_hand") is True and you(third, "sitting_out") is False
    shoot(third, artifacts, "table-sit-out-boxes")
    play_calls(pages, until=lambda: you(third, "sitting_out") is True)
    expect(third.locator(".seat.mine")).to_contain_text("Sitting out")
    wait_until(first, "app.table.hand && app.table.hand.seats.every((s) => s.seat !== 2)")
    assert you(third, "in_hand") is False
    expect(other_tab.locator("#console-tools").get_by_label("Sit out next hand")).to_be_checked()

    # Unticked in the other tab: the player is back, in both tabs.
    other_tab.locator("#console-tools").get_by_label("Sit out next hand").uncheck()
    wait_until(third, "app.you.sitting_out === false")
    expect(box).not_to_be_checked()

    # Sit out at next big blind: the player plays on and is sat out before the hand in which
    # they would post it, owing it in this wait-or-post room.
    big = second.locator("#console-tools").get_by_label("Sit out at next big blind")
    big.check()
    expect(big).to_be_checked()
    play_calls(pages, until=lambda: you(second, "sitting_out") is True, timeout=300)
    assert you(second, "missed_blinds") is True
    wait_until(first, "app.table.hand && app.table.hand.seats.every((s) => s.seat !== 1)")
    expect(big).to_be_checked()
    expect(second.locator("#console-tools").get_by_label("Sit out next hand")).to_be_checked()
    shoot(second, artifacts, "table-sit-out-big-blind")
    second.locator("#console-tools").get_by_role("button", name="Sit in").click()
    wait_until(second, "app.you.sitting_out === false")
    expect(big).not_to_be_checked()
    assert not any(page.errors for page in [*pages, other_tab])


def test_auto_top_up_is_set_in_the_top_up_dialog_and_made_before_the_next_hand(
    site, sitters, sign_in, artifacts
):
    regular, other = sign_in(sitters[3]), sign_in(sitters[4])
    for page in (regular, other):
        open_table(page, site, "autotopup")
    sit(regular, 0, 2000)
    regular.locator("#seat-tools").get_by_role("button", name="Top up").click()
    dialog = regular.locator("#topup-dialog")
    expect(dialog).to_be_visible()
    form = dialog.locator("#auto-topup-form")
    expect(form.get_by_label("Top up automatically before each hand")).not_to_be_checked()
    # A bad value is named before anything is sent.
    form.get_by_label("When my stack is below (% of the target)").fill("0")
    expect(form.locator("#auto-topup-problem")).to_have_text(
        "The threshold is a whole percent from 1 to 100."
    )
    expect(form.get_by_role("button", name="Save auto top-up")).to_be_disabled()
    form.get_by_label("When my stack is below (% of the target)").fill("50")
    form.get_by_label("Top up automatically before each hand").check()
    expect(form.locator("#auto-topup-words")).to_contain_text("brought back to 20,000")
    form.get_by_label("Target", exact=True).select_option("bb")
    expect(form.get_by_label("Big blinds")).to_be_visible()
    form.get_by_label("Big blinds").fill("150")
    expect(form.locator("#auto-topup-words")).to_contain_text(
        "under 7,500 before a hand, it is brought back to 15,000"
    )
    shoot(regular, artifacts, "table-auto-top-up")
    form.get_by_role("button", name="Save auto top-up").click()
    expect(form.locator("#auto-topup-status")).to_have_text("Saved.")
    assert table_state(regular, "app.autoTopUp") == {
        "enabled": True,
        "below_percent": 50,
        "to_big_blinds": 150,
    }
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()

    # A second player sits: before the first hand is dealt, 2,000 (under 7,500) is brought to
    # 15,000 from the 8,000 the wallet holds: what it has, 8,000.
    sit(other, 3, 2000)
    wait_hand(regular, other)
    expect(regular.locator("#action-log")).to_contain_text(f"{sitters[3]} adds 8,000 chips")
    wait_until(regular, "app.you.balance === 0")
    stack = table_state(
        regular,
        "(() => { const s = app.table.hand.seats.find((x) => x.seat === 0); return s.stack + s.committed; })()",
    )
    assert stack == 10_000
    # The setting is the player's on another device: a fresh page shows it.
    regular.reload()
    expect(regular.locator("#conn-status")).to_have_attribute("data-state", "open")
    # The socket opens before its snapshot lands: wait for the snapshot's setting.
    wait_until(regular, "app.autoTopUp?.to_big_blinds === 150")
    assert not regular.errors and not other.errors
