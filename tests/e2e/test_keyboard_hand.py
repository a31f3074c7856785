"""Real Chromium: a hand played with the keyboard alone. From the lobby the player Tabs to the
room's Join, to a seat, buys in through the dialog, acts with the table's shortcuts and with a
console button, opens the previous hand and closes it, and leaves the table; no mouse. At every
stop the focus is on an element (never lost to the page) and visibly marked. The opponent, in a
second browser context, uses the mouse."""

import json

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_alerts import MAKE_PLAYERS
from tests.e2e.test_table_play import (
    button,
    console_state,
    expect,
    my_turn,
    open_table,
    room_update,
    sit,
    table_state,
)

pytestmark = pytest.mark.e2e

KEYBOARD_PLAYERS = ["keys01", "keys02"]

# What has the focus, and whether it is marked: an outline (or a box shadow) on the element or,
# for a checkbox or radio drawn inside its label, on that label.
FOCUS = """() => {
    const a = document.activeElement;
    if (!a || a === document.body || a === document.documentElement) return { lost: true };
    const marked = (node) => {
        if (!node) return false;
        const s = getComputedStyle(node);
        return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
    };
    const label = a.closest("label");
    const words = a.cloneNode(true);  // its words as read out: without the aria-hidden parts
    words.querySelectorAll("[aria-hidden=true]").forEach((hidden) => hidden.remove());
    const box = a.getBoundingClientRect();
    return {
        lost: false,
        visible: a.matches(":focus-visible") && (marked(a) || marked(label)),
        shown: box.width > 0 && box.height > 0,
        tag: a.tagName.toLowerCase(),
        id: a.id,
        text: (a.getAttribute("aria-label") || words.textContent || a.value || "").trim().slice(0, 40),
        dialog: a.closest("dialog[open]") ? a.closest("dialog[open]").id : null,
    };
}"""


@pytest.fixture(scope="module")
def players(site):
    setup = json.dumps({"players": KEYBOARD_PLAYERS, "password": PASSWORD})
    site["manage"]("shell", "-c", MAKE_PLAYERS.format(setup=setup))
    return KEYBOARD_PLAYERS


def focus(page):
    """The focused element, asserted visibly marked and not lost to the page."""
    now = page.evaluate(FOCUS)
    assert not now["lost"], "the focus was lost to the page"
    assert now["visible"] and now["shown"], f"no visible focus on {now}"
    return now


def press(page, key):
    page.keyboard.press(key)
    return focus(page)


def tab_to(page, matches, *, limit=120, key="Tab"):
    """Tab (or Shift+Tab) until `matches(focused)`, checking the focus at every stop. Past the
    page's last control the browser takes the focus to its own toolbar (the page sees none) and
    the next Tab brings it back to the first: that one step is allowed, once."""
    stops = []
    wrapped = False
    for _ in range(limit):
        page.keyboard.press(key)
        now = page.evaluate(FOCUS)
        if now["lost"] and not wrapped:
            wrapped = True
            continue
        now = focus(page)
        stops.append(now)
        if matches(now):
            return now
    raise AssertionError(f"never reached the control after {limit} presses: {stops[-12:]}")


def test_a_hand_played_by_keyboard_alone(site, players, sign_in, artifacts):
    room = site["rooms"]["a11y_keys"]
    page = sign_in(players[0])
    opponent = sign_in(players[1])
    assert page.url.endswith("/lobby/")

    # The lobby: Tab to this room's Join (Enter posts its form and opens the table).
    expect(page.locator(f'#room-list tr[data-room-id="{room}"]')).to_be_visible()
    this_rooms_join = """(room) => document.activeElement.type === "submit"
        && document.activeElement.closest("tr")?.dataset.roomId === String(room)"""
    tab_to(page, lambda now: page.evaluate(this_rooms_join, room))
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/tables/{room}/")
    expect(page.locator("#conn-status")).to_have_attribute("data-state", "open")
    expect(page.locator("#seats .seat").first).to_be_visible()

    # A seat: Tab to the first "Sit here", Enter opens the buy-in with the amount chosen.
    tab_to(page, lambda now: now["text"].startswith("Sit here"))
    page.keyboard.press("Enter")
    dialog = page.locator("#sit-dialog")
    expect(dialog).to_be_visible()
    now = focus(page)
    assert now["id"] == "sit-amount", now
    page.keyboard.type("2000")  # the proposed amount is selected: typing replaces it
    expect(page.locator("#sit-amount")).to_have_value("2000")
    # The dialog keeps the focus: a round of Tab and Shift+Tab never leaves it.
    for key in ["Tab"] * 6 + ["Shift+Tab"] * 6:
        assert press(page, key)["dialog"] == "sit-dialog"
    tab_to(page, lambda now: now["text"] == "Confirm")
    page.screenshot(path=str(artifacts / "keyboard-buy-in-1280.png"))
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    expect(page.locator(".seat.mine")).to_be_visible()
    seat = table_state(page, "app.you.seat")
    focus(page)  # the focus went somewhere sensible, not back to the page

    open_table(opponent, site, "a11y_keys")
    free = next(n for n in (3, 4, 2, 5, 0, 1) if n != seat)
    sit(opponent, free, 2000)
    expect(page.locator("#stage.in-hand")).to_be_visible(timeout=15_000)
    room_update(site, "a11y_keys", countdown_seconds=120)  # no second hand before the test leaves

    # The hand: check or call down. The first turn by a console button reached with Tab, the
    # raise screen opened with R and closed with Escape; the others by the C shortcut.
    turns = 0
    while not page.locator("#stage.showdown").count():
        if my_turn(opponent):
            name = "Check" if button(opponent, "Check").count() else "Call"
            button(opponent, name).click()
            page.wait_for_timeout(200)
            continue
        if not my_turn(page):
            page.wait_for_timeout(100)
            continue
        seq = table_state(page, "app.seq")
        if turns == 0:
            page.keyboard.press("r")
            expect(page.locator("#console")).to_have_attribute("data-console-state", "raise")
            focus(page)
            page.screenshot(path=str(artifacts / "keyboard-raise-screen-1280.png"))
            page.keyboard.press("Escape")
            expect(page.locator("#console")).not_to_have_attribute("data-console-state", "raise")
            now = focus(page)
            target = "Check" if button(page, "Check").count() else "Call"
            if now["text"] != target:  # before Raise in the row
                tab_to(page, lambda now, name=target: now["text"] == name, key="Shift+Tab")
            page.screenshot(path=str(artifacts / "keyboard-turn-1280.png"))
            page.keyboard.press("Space")
        else:
            page.keyboard.press("c")
        turns += 1
        page.wait_for_function(
            "async (seq) => (await import('/static/js/table.js')).app.seq !== seq", arg=seq
        )
    assert turns >= 1
    if console_state(page) == "show_or_muck":
        page.keyboard.press("m")
    expect(page.locator("#console")).not_to_have_attribute("data-console-state", "show_or_muck")

    # The previous hand: Tab to its button, Enter opens the dialog with the focus inside it,
    # Escape closes it and the focus comes back to the button.
    previous = tab_to(page, lambda now: now["text"] == "Show previous hand")
    page.keyboard.press("Enter")
    panel = page.locator("#previous-dialog")
    expect(panel).to_contain_text("Board")
    assert focus(page)["dialog"] == "previous-dialog"
    page.screenshot(path=str(artifacts / "keyboard-previous-hand-1280.png"))
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert focus(page)["text"] == previous["text"]

    # Leave: Tab to "Leave table", Enter; the player watches again.
    tab_to(page, lambda now: now["text"] == "Leave table")
    page.keyboard.press("Enter")
    expect(page.locator("#console")).to_have_attribute("data-console-state", "not_playing")
    expect(page.locator(".seat.mine")).to_have_count(0)
    page.screenshot(path=str(artifacts / "keyboard-left-1280.png"))
    assert not page.errors and not opponent.errors
