"""Real Chromium against a real Daphne: a ten-seat room filled and played to the showdown, read
with element boxes at 1280 and 360 px wide. No card covers another card or the dealer button,
and no seat's text spills out of its box. On the way: the raise screen in totals (keys, wheel,
Enter) and the pre-action boxes. The nine other players are bots on the table socket."""

import json
import threading
import uuid

import pytest
from websockets.sync.client import connect

from holdem.realtime.delta import client_view
from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_play import expect, open_table, room_update, sit, wait_hand, whose_turn
from tests.e2e.test_table_rules import play_calls

pytestmark = pytest.mark.e2e

ROOM = "layout"  # tests/e2e/conftest.py ROOMS: ten seats
VIEWER = "layout00"
BOTS = [f"layout{n:02d}" for n in range(1, 10)]
WIDTHS = ((1280, 900), (360, 780))
TOUCH = 1  # px: boxes that share an edge (or a rotated corner's antialiasing) do not cover

# The players' accounts, and a signed-in session for each bot, in the served database.
SETUP = """
import json
from django.contrib.auth.hashers import make_password
from django.test import Client
from casino.accounts.models import User
from casino.accounts.services import account_open
setup = json.loads({setup!r})
hashed = make_password(setup["password"])
sessions = {{}}
for name in setup["players"]:
    user = User.objects.create(username=name, password=hashed)
    account_open(user=user)
    client = Client()
    client.force_login(user)
    sessions[name] = client.cookies["sessionid"].value
print("SESSIONS=" + json.dumps(sessions))
"""


@pytest.fixture(scope="module")
def sessions(site):
    """Create this module's players; the session id of each by name."""
    setup = json.dumps({"players": [VIEWER, *BOTS], "password": PASSWORD})
    out = site["manage"]("shell", "-c", SETUP.format(setup=setup))
    return json.loads(next(line for line in out.splitlines() if line.startswith("SESSIONS="))[9:])


class CallingPlayer(threading.Thread):
    """A player without a browser, on the table socket as the page would be (docs/protocol.md):
    sits down, checks or calls each turn (unless held: then it waits until let go), and shows a
    beaten hand at the showdown."""

    def __init__(self, site, table_id, session, seat):
        super().__init__(daemon=True)
        self.url = f"ws://{site['base'].split('://', 1)[1]}/ws/table/{table_id}/"
        self.origin = site["base"]
        self.session = session
        self.seat = seat
        self.stopping = threading.Event()
        self.seated = threading.Event()
        self.playing = threading.Event()  # cleared: the bot holds its turn
        self.playing.set()
        self.errors = []
        self.answered = set()  # turn tokens and hands already answered: one frame each
        self.waiting = None  # the act frame of a turn held back
        self.seq = None

    def run(self):
        headers = {"Cookie": f"sessionid={self.session}"}
        with connect(self.url, origin=self.origin, additional_headers=headers, proxy=None) as ws:
            send = lambda frame: ws.send(json.dumps(frame))  # noqa: E731
            send({"type": "sit", "seat": self.seat, "buy_in": 2000})
            table = you = None
            while not self.stopping.is_set():
                if self.waiting and self.playing.is_set():
                    send(self.waiting)
                    self.waiting = None
                try:
                    frame = json.loads(ws.recv(timeout=0.1))
                except TimeoutError:
                    continue
                kind = frame.get("type")
                if kind == "ok" and frame.get("for") == "sit":
                    send({"type": "auto_muck", "value": False})  # every hand is shown
                elif kind == "ok" and frame.get("for") == "auto_muck":
                    self.seated.set()
                elif kind == "error":
                    self.errors.append(frame)
                elif kind == "heartbeat" and self.seq is not None and frame["seq"] > self.seq:
                    send({"type": "snapshot"})  # an event was lost
                if kind in ("snapshot", "event"):
                    self.seq = frame["seq"]
                table, you = client_view(table, you, frame)
                if you and kind in ("snapshot", "event"):
                    self.answer(send, table, you)

    def answer(self, send, table, you):
        legal = you.get("legal")
        turn = table.get("turn") or {}
        token = turn.get("token")
        if legal and legal.get("seat") == you.get("seat") and token not in self.answered:
            self.answered.add(token)
            action = "check" if "check" in legal["actions"] else "call"
            self.waiting = {
                "type": "act",
                "action": action,
                "action_id": uuid.uuid4().hex,
                "turn": token,
            }
        last = table.get("last_hand") or {}
        if (
            you.get("can_show")
            and you.get("can_muck")
            and ("hand", last.get("number")) not in self.answered
        ):
            self.answered.add(("hand", last.get("number")))
            send({"type": "show"})


class Bots:
    """The nine bots of the ten-seat room, in seats 1-9."""

    def __init__(self, site, sessions):
        self.players = [
            CallingPlayer(site, site["rooms"][ROOM], sessions[name], seat)
            for seat, name in enumerate(BOTS, start=1)
        ]

    def sit_down(self):
        for bot in self.players:
            bot.start()
        for bot in self.players:
            assert bot.seated.wait(15), f"seat {bot.seat} was not taken: {bot.errors}"

    def hold(self):
        for bot in self.players:
            bot.playing.clear()

    def play(self):
        for bot in self.players:
            bot.playing.set()

    def stop(self):
        for bot in self.players:
            bot.stopping.set()
        for bot in self.players:
            if bot.is_alive():
                bot.join(5)


@pytest.fixture
def bots(site, sessions):
    """Nine bots ready to sit in seats 1-9 of the ten-seat room (the test takes seat 0)."""
    nine = Bots(site, sessions)
    yield nine
    nine.stop()


# --- reading the page -------------------------------------------------------------------------

CARDS = "#seats .pcard, #board .pcard"
# What sits on a seat box's edge and must not cover a card either: the dealer button, the blinds'
# tags and the winner's W.
MARKS = "#seats .dealer-button, #seats .seat-tags .tag, #seats .win-flag"
DESCRIBE = """els => els.map((el) => {
    const seat = el.closest('[data-seat]');
    const where = seat ? `seat ${seat.dataset.seat}` : el.closest('#board') ? 'board' : 'felt';
    const what = el.classList.contains('dealer-button') ? 'button'
        : el.classList.contains('win-flag') ? 'W'
        : el.classList.contains('tag') ? el.textContent
        : el.dataset.card || (el.classList.contains('back') ? 'back' : 'slot');
    return `${where} ${what}`;
})"""


def boxes_of(page, selector):
    """(what, bounding box) of each element `selector` finds that is drawn."""
    things = page.locator(selector)
    named = zip(things.evaluate_all(DESCRIBE), things.all(), strict=True)
    return [(what, box) for what, thing in named if (box := thing.bounding_box())]


def covers(a, b):
    width = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    height = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return width > TOUCH and height > TOUCH


def overlaps(page):
    """Pairs of a card and another card, or a card and the button (or a tag), that overlap."""
    cards, marks = boxes_of(page, CARDS), boxes_of(page, MARKS)
    assert any(what.endswith("button") for what, _ in marks), "no dealer button drawn"
    pairs = [(first, second) for i, first in enumerate(cards) for second in cards[i + 1 :]]
    pairs += [(card, mark) for card in cards for mark in marks]
    return [(first, second) for (first, a), (second, b) in pairs if covers(a, b)]


SPILLS = """() => [...document.querySelectorAll(
        '#seats .seat-name, #seats .seat-stack, #seats .seat-status, #seats .seat-open, #seats .seat-closed')]
    .filter(el => el.scrollWidth > el.clientWidth)
    .map(el => `seat ${el.closest('[data-seat]').dataset.seat} ${el.className}: `
        + `"${el.textContent}" needs ${el.scrollWidth}px of ${el.clientWidth}px`)"""


def spills(page):
    """Seat text wider than its box."""
    return page.evaluate(SPILLS)


# Measured once the page has laid itself out at the new size and every animation (a card dealt
# in) has ended (animations that loop for ever aside): a box caught on its way would look like an
# overlap.
SETTLED = """() => Promise.race([
    Promise.all(document.getAnimations()
      .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime))  // not a glow's loop
      .map((a) => a.finished.catch(() => null))),
    new Promise((done) => setTimeout(done, 2000)),  // one paused for good does not stop the test
  ]).then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))"""


def at_each_width(page, check):
    """Run check(width) at 1280 and at 360 px wide, then put the page back to its own size."""
    size = page.viewport_size
    try:
        for width, height in WIDTHS:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(SETTLED)
            check(width)
    finally:
        page.set_viewport_size(size)


def assert_clear(page, moment, artifacts):
    """No covered card and no spilled seat text at either width (a picture of the page if there is)."""

    def check(width):
        covered, spilled = overlaps(page), spills(page)
        if covered or spilled:
            page.screenshot(
                path=str(artifacts / f"table-layout-failed-{width}.png"), full_page=True
            )
        assert covered == [], f"{moment} at {width} px: covered cards"
        assert spilled == [], f"{moment} at {width} px: seat text spills"

    at_each_width(page, check)


def shoot(page, path):
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=True, animations="disabled", scale="css")


# Redraw the felt from a made-up table (the client draws whatever it holds), run `check`, then
# ask the server for the real one again.
WITH_BUTTON_AT = """async (seat) => {
    const { app } = await import('/static/js/table.js');
    app.table = { ...app.table, button: seat, hand: app.table.hand && { ...app.table.hand, button: seat } };
    app.render();
}"""

WITH_SEATS_IN = """async ({ state, stack }) => {
    const { app } = await import('/static/js/table.js');
    const [name, shield] = state.split('+');  // "all_in+protected": all-in protection
    app.table = { ...app.table, last_hand: null,
        seats: app.table.seats.map((s) => s.occupied ? { ...s, state: name, stack, protected: Boolean(shield) } : s) };
    app.render();
}"""

REAL_TABLE = "async () => (await import('/static/js/table.js')).app.askSnapshotNow()"


SCROLL_SETTLED = """() => new Promise((settled) => {
    const y = window.scrollY;
    requestAnimationFrame(() => requestAnimationFrame(() => settled(window.scrollY === y)));
})"""


def raise_to_250_with_the_keyboard_and_the_wheel(page, artifacts):
    """Before the flop, nobody has raised the big blind of 100: the raise screen speaks in totals,
    steps by the big blind, offers 2.5x and 3x, and Enter places what it shows."""
    console = page.locator("#console")
    console.get_by_role("button", name="Raise", exact=True).click()
    expect(console).to_have_attribute("data-console-state", "raise")
    box = console.get_by_role("spinbutton", name="Raise to")
    slider = console.get_by_role("slider")
    expect(box).to_have_value("200")
    expect(console.locator("[data-raise-limits]")).to_contain_text("Raise to between 200 and")
    box.press("ArrowUp")
    expect(box).to_have_value("300")
    # The console scrolls itself into view (smoothly) when the turn comes: let it settle, so the
    # wheel turns over the slider.
    page.wait_for_function(SCROLL_SETTLED)
    slider.hover()
    page.mouse.wheel(0, -100)  # a notch up
    expect(box).to_have_value("400")
    page.mouse.wheel(0, 100)
    expect(box).to_have_value("300")
    slider.press("ArrowDown")
    expect(box).to_have_value("200")
    quick = console.get_by_role("button", name="2.5 big blinds")
    quick.click()
    expect(console.locator("[data-raise-total]")).to_have_text("250")
    expect(console.get_by_role("button", name="Raise", exact=True)).to_contain_text("250")
    at_each_width(page, lambda width: shoot(page, artifacts / f"table-layout-raise-{width}.png"))
    quick.focus()
    page.keyboard.press("Enter")  # on a quick button too, Enter places the amount shown
    expect(page.locator("#action-log")).to_contain_text(f"{VIEWER} raises to 250")


def pre_action_boxes_follow_the_server(page, artifacts):
    """While a bot holds its turn the viewer has pre-action boxes: a tick is what the server
    keeps (it survives a reload), and a click on the ticked box clears it."""
    boxes = page.locator("#console .pre-actions")
    expect(boxes.locator("input")).to_have_count(3)
    boxes.get_by_label("Call any").click()
    expect(boxes.get_by_label("Call any")).to_be_checked()
    expect(boxes.locator("input:checked")).to_have_count(1)
    at_each_width(
        page, lambda width: shoot(page, artifacts / f"table-layout-pre-actions-{width}.png")
    )
    page.reload()
    expect(page.locator("#conn-status")).to_have_attribute("data-state", "open")
    expect(boxes.get_by_label("Call any")).to_be_checked()
    boxes.get_by_label("Call any").click()
    expect(boxes.get_by_label("Call any")).not_to_be_checked()
    expect(boxes.locator("input:checked")).to_have_count(0)


def the_viewers_turn(page, artifacts):
    """Mid-hand, on the viewer's turn: nine backs, the viewer's own cards, bets and the button, all
    clear of each other; the one to act says so; then a raise to 250."""
    whose_turn([page])
    expect(page.locator("#seats .pcard.back")).to_have_count(18)
    acting = page.locator(".seat.state-betting")
    expect(acting).to_have_count(1)
    expect(acting.locator(".seat-status")).to_have_text("To act")
    assert_clear(page, "the viewer's turn", artifacts)
    at_each_width(page, lambda width: shoot(page, artifacts / f"table-layout-turn-{width}.png"))
    raise_to_250_with_the_keyboard_and_the_wheel(page, artifacts)


def test_a_full_table_at_the_showdown_has_no_card_under_another_card_or_the_button(
    site, sessions, sign_in, bots, artifacts
):
    viewer = sign_in(VIEWER)
    open_table(viewer, site, ROOM)
    sit(viewer, 0, 2000)
    bots.hold()  # the first bot to act keeps its turn until let go
    bots.sit_down()  # the room is full: the hand is dealt a second later
    wait_hand(viewer)
    # Time to read the showdown before the next deal.
    room_update(site, ROOM, countdown_seconds=120, countdown_full_seconds=120)

    acting = viewer.locator(".seat.state-betting")
    expect(acting).to_have_count(1)
    if acting.get_attribute("data-seat") == "0":  # the viewer is first: boxes after the raise
        the_viewers_turn(viewer, artifacts)
        pre_action_boxes_follow_the_server(viewer, artifacts)
        bots.play()
    else:
        pre_action_boxes_follow_the_server(viewer, artifacts)
        bots.play()
        the_viewers_turn(viewer, artifacts)

    play_calls([viewer], until=lambda: viewer.locator("#stage.showdown").count() > 0)
    expect(viewer.locator("#seats .deciding")).to_have_count(0)  # every bot showed
    expect(viewer.locator("#seats .pcard.face")).to_have_count(20)
    expect(viewer.locator("#board .pcard.face")).to_have_count(5)
    assert_clear(viewer, "the showdown", artifacts)
    at_each_width(
        viewer, lambda width: shoot(viewer, artifacts / f"table-layout-showdown-{width}.png")
    )

    # The button at each seat in turn, the viewer's own (the disc beside the big cards) included.
    try:
        for seat in range(10):
            viewer.evaluate(WITH_BUTTON_AT, seat)

            def check(width, seat=seat):
                assert overlaps(viewer) == [], f"button at seat {seat}, {width} px"

            at_each_width(viewer, check)
        # Every seat label with the widest stack the room can see (ten 20,000 buy-ins).
        for state in (
            "waiting",
            "waiting_next_game",
            "post_game",
            "betting",
            "all_in",
            "folded",
            "winner",
            "disconnected",
            "sitting_out",
            "all_in+protected",
            "disconnected+protected",
        ):
            viewer.evaluate(WITH_SEATS_IN, {"state": state, "stack": 200_000})

            def fits(width, state=state):
                assert spills(viewer) == [], f"seats {state} at {width} px"

            at_each_width(viewer, fits)
    finally:
        viewer.evaluate(REAL_TABLE)
    assert not viewer.errors
