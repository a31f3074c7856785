"""Real Chromium against a real Daphne: the table page on the screens people play on. On a laptop
(1280x800, 1366x768) the whole felt and the betting console are on screen together, without
scrolling, in every console state; on a 360 px phone every control a finger uses is at least
44x44 px, the lobby's filters wait behind one button, the raise screen leaves the keyboard shut
on a touch screen, and your own cards keep clear of the next seat's box."""

import json

import pytest

from tests.e2e.conftest import LOADED_MACHINE_WAIT_MS, PASSWORD
from tests.e2e.test_table_play import expect, open_table, sit, table_state, wait_hand, whose_turn

pytestmark = pytest.mark.e2e

LAPTOPS = ((1280, 800), (1366, 768))
PHONE = (360, 740)
FINGER = 44  # px: the smallest box a finger hits reliably (WCAG 2.5.5, Apple's and Google's guides)
QUICK = {"countdown_seconds": 2, "countdown_full_seconds": 1, "turn_seconds": 120}
FIT_ROOMS = {
    "laptop": {"preset": "nl50", "seats": 6, **QUICK},
    # Ten seats: the most boxes round a phone's felt, next to your own cards.
    "phone": {"preset": "nl50", "seats": 10, **QUICK},
}
FIT_PLAYERS = [f"fit{n:02d}" for n in range(1, 8)]

SETUP = """
import json
from django.contrib.auth.hashers import make_password
from casino.accounts.models import User
from casino.accounts.services import account_open
from holdem.services import room_create
setup = json.loads({setup!r})
rooms = {{key: room_create(name="E2E Fit " + key.title(), **options).pk
         for key, options in setup["rooms"].items()}}
hashed = make_password(setup["password"])
for name in setup["players"]:
    account_open(user=User.objects.create(username=name, password=hashed))
print("ROOMS=" + json.dumps(rooms))
"""


@pytest.fixture(scope="module")
def rooms(site):
    """This module's rooms and players, made once in the served database."""
    setup = json.dumps({"rooms": FIT_ROOMS, "players": FIT_PLAYERS, "password": PASSWORD})
    out = site["manage"]("shell", "-c", SETUP.format(setup=setup))
    created = json.loads(next(line for line in out.splitlines() if line.startswith("ROOMS="))[6:])
    site["rooms"].update({f"fit_{key}": pk for key, pk in created.items()})
    return {key: f"fit_{key}" for key in created}


@pytest.fixture
def open_page(site, browser):
    """open_page("fit01", 1280, 800, touch=False) -> a signed-in page of that size."""
    contexts = []

    def open_as(username, width, height, touch=False):
        context = browser.new_context(
            viewport={"width": width, "height": height},
            device_scale_factor=2 if touch else 1,
            has_touch=touch,
            is_mobile=touch,
            reduced_motion="reduce",
        )
        context.set_default_timeout(LOADED_MACHINE_WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.goto(site["base"] + "/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_url("**/lobby/")
        return page

    yield open_as
    for context in contexts:
        context.close()


# --- measuring --------------------------------------------------------------------------------

SETTLED = """() => new Promise((done) => setTimeout(done, 150))
    .then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))"""

# Where the felt and the console are drawn now, in the viewport's coordinates: the stage (rail,
# felt and the seats round it, each seat box) and the console; what sticks out of the window.
OFF_SCREEN = """() => {
    const seatName = (box) => `seat ${box.closest('[data-seat]').dataset.seat}`;
    const parts = [['felt', document.querySelector('#stage')], ['console', document.querySelector('#console')],
        ...[...document.querySelectorAll('#seats .seat-box')].map((box) => [seatName(box), box])];
    const out = [];
    for (const [name, node] of parts) {
        const r = node.getBoundingClientRect();
        if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
            out.push(`${name}: ${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight} px high, `
                + `${Math.round(r.left)}..${Math.round(r.right)} of ${innerWidth} px wide`);
        }
    }
    return out;
}"""


def assert_on_one_screen(page, moment, artifacts):
    """At each laptop size, as the page stands (scrolled where it scrolled itself): the felt, every
    seat box and the console are inside the window."""
    size = page.viewport_size
    try:
        for width, height in LAPTOPS:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(SETTLED)
            off = page.evaluate(OFF_SCREEN)
            page.screenshot(path=str(artifacts / f"table-fit-{moment}-{width}x{height}.png"))
            assert off == [], f"{moment} at {width}x{height}: off the screen"
    finally:
        page.set_viewport_size(size)


SHOW_OR_MUCK = """async () => {
    const { app } = await import('/static/js/table.js');
    const seat = app.you.seat;
    const winner = seat === 0 ? 3 : 0;
    app.table = { ...app.table, hand: null, turn: null, last_hand: {
        number: app.table.hand_number, board: ['2c', '7d', '9h', 'Js', 'Kd'],
        pots: [{ amount: 200, winners: [winner] }], winners: [winner], net: {}, shown: {}, best: {},
        undecided: [seat], decide_by: app.serverNow() + 60000 } };
    app.you = { ...app.you, legal: null, can_show: true, can_muck: true };
    app.render();
}"""
REAL_TABLE = "async () => (await import('/static/js/table.js')).app.askSnapshotNow()"


def test_at_laptop_sizes_the_felt_and_the_console_fit_on_one_screen_in_every_console_state(
    site, rooms, open_page, artifacts
):
    room = rooms["laptop"]
    first, second, watcher = (open_page(name, 1280, 800) for name in FIT_PLAYERS[:3])
    for page in (first, second, watcher):
        open_table(page, site, room)
    expect(watcher.locator("#console")).to_have_attribute("data-console-state", "not_playing")
    assert_on_one_screen(watcher, "spectator", artifacts)

    sit(first, 0, 2000)
    sit(second, 3, 2000)
    wait_hand(first, second)
    actor = whose_turn([first, second])
    waiter = second if actor is first else first
    # The turn: the page scrolls the console into view if it has to, and must not have to.
    expect(actor.locator("#console")).to_have_attribute("data-console-state", "call_bet")
    assert_on_one_screen(actor, "turn", artifacts)
    expect(waiter.locator("#console")).to_have_attribute("data-console-state", "waiting")
    assert_on_one_screen(waiter, "waiting", artifacts)

    actor.locator("#console").get_by_role("button", name="Raise", exact=True).click()
    expect(actor.locator("#console")).to_have_attribute("data-console-state", "raise")
    assert_on_one_screen(actor, "raise", artifacts)

    waiter.locator("#console-tools").get_by_role("button", name="Sit out").click()
    expect(waiter.locator("#console-tools").get_by_role("button", name="Sit in")).to_be_visible()
    assert_on_one_screen(waiter, "sitting-out", artifacts)

    # Show or muck, drawn from a made-up end of hand (the client draws what it holds).
    try:
        waiter.evaluate(SHOW_OR_MUCK)
        expect(waiter.locator("#console")).to_have_attribute("data-console-state", "show_or_muck")
        assert_on_one_screen(waiter, "show-or-muck", artifacts)
    finally:
        waiter.evaluate(REAL_TABLE)
    assert not first.errors and not second.errors and not watcher.errors
    assert table_state(watcher, "app.you.seat") is None


# Every control a finger uses inside the page, with the box it answers to: a checkbox or radio
# answers with its label (tapping the words ticks it), everything else with its own box.
SMALL_TARGETS = """(finger) => {
    const controls = document.querySelectorAll(
        'main button, main input, main select, main textarea, main a.button, main [role=button]');
    const small = [];
    for (const control of controls) {
        if (control.closest('.visually-hidden, [hidden], dialog:not([open])')) continue;
        const tick = control.type === 'checkbox' || control.type === 'radio';
        const target = tick ? control.closest('label') || control : control;
        const r = target.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(target).visibility === 'hidden') continue;
        if (r.width < finger - 0.5 || r.height < finger - 0.5) {
            const name = (control.getAttribute('aria-label') || target.textContent || control.id
                || control.type || '').trim().slice(0, 30);
            small.push(`${control.tagName.toLowerCase()} "${name}": ${Math.round(r.width)}x${Math.round(r.height)}`);
        }
    }
    return small;
}"""


def assert_finger_sized(page, moment, artifacts):
    page.evaluate(SETTLED)
    page.screenshot(path=str(artifacts / f"table-fit-phone-{moment}.png"), full_page=True)
    assert page.evaluate(SMALL_TARGETS, FINGER) == [], f"{moment}: controls under {FINGER} px"


# Your own cards against every other seat's box (empty seats' boxes too).
CARDS_ON_SEATS = """() => {
    const covers = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
        && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    const cards = [...document.querySelectorAll('.seat.mine .seat-cards .pcard')];
    const boxes = [...document.querySelectorAll('.seat:not(.mine) .seat-box')];
    const on = (card, box) => covers(card.getBoundingClientRect(), box.getBoundingClientRect());
    return cards.flatMap((card) => boxes.filter((box) => on(card, box))
        .map((box) => `${card.dataset.card} on seat ${box.closest('[data-seat]').dataset.seat}`));
}"""


def test_on_a_phone_every_control_is_finger_sized_and_the_raise_screen_keeps_the_keyboard_shut(
    site, rooms, open_page, artifacts
):
    room = rooms["phone"]
    width, height = PHONE
    lobby = open_page(FIT_PLAYERS[5], width, height, touch=True)
    # The lobby: the filters wait behind one button, so the first screen shows rooms.
    filters = lobby.locator("#lobby-filters")
    expect(filters).to_be_hidden()
    expect(lobby.locator("#room-list .room-tile").first).to_be_in_viewport()
    assert_finger_sized(lobby, "lobby", artifacts)
    lobby.get_by_role("button", name="Filters", exact=True).tap()
    expect(filters).to_be_visible()
    expect(lobby.get_by_role("button", name="Filters", exact=True)).to_have_attribute(
        "aria-expanded", "true"
    )
    assert_finger_sized(lobby, "lobby-filters", artifacts)

    player, other = (open_page(name, width, height, touch=True) for name in FIT_PLAYERS[3:5])
    for page in (player, other):
        open_table(page, site, room)
    assert_finger_sized(player, "spectator", artifacts)
    sit(player, 0, 2000)
    sit(other, 5, 2000)
    wait_hand(player, other)
    actor = whose_turn([player, other])
    waiter = other if actor is player else player
    assert_finger_sized(waiter, "waiting", artifacts)
    assert_finger_sized(actor, "turn", artifacts)
    for page in (actor, waiter):
        assert page.evaluate(CARDS_ON_SEATS) == [], "your cards cover another seat's box"

    # A tap on Raise opens the raise screen without focusing the number box: a phone's keyboard
    # would cover the table.
    actor.locator("#console").get_by_role("button", name="Raise", exact=True).tap()
    expect(actor.locator("#console")).to_have_attribute("data-console-state", "raise")
    assert actor.evaluate("() => document.activeElement?.tagName") != "INPUT"
    assert_finger_sized(actor, "raise", artifacts)
    assert not lobby.errors and not player.errors and not other.errors
