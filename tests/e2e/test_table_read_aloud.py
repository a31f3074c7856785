"""Real Chromium against a real Daphne: the table read aloud on demand (Alt+1..Alt+5 put the hand,
the board, the pot and what you owe, the stacks and the time left in the live region without
moving the focus, never another player's cards, never while typing), listed in the rules dialog,
at a slow table whose clock the client shows as the server runs it (RULES.md 1 `pace`)."""

import json
import re
import time

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_play import expect, open_table, sit, table_state, wait_hand

pytestmark = pytest.mark.e2e

TURN_SECONDS = 40  # the room's; the slow pace makes it 120
SLOW_TURN = 120
HEAR_ROOMS = {
    "slow": {
        "preset": "nl50_slow",
        "countdown_seconds": 2,
        "countdown_full_seconds": 1,
        "turn_seconds": TURN_SECONDS,
    },
}
HEAR_PLAYERS = ["hear01", "hear02", "hear03"]

SETUP = """
import json
from django.contrib.auth.hashers import make_password
from casino.accounts.models import User
from casino.accounts.services import account_open
from holdem.services import room_create
setup = json.loads({setup!r})
rooms = {{key: room_create(name="E2E Hear " + key.title(), **options).pk for key, options in setup["rooms"].items()}}
hashed = make_password(setup["password"])
for name in setup["players"]:
    account_open(user=User.objects.create(username=name, password=hashed))
print("ROOMS=" + json.dumps(rooms))
"""

RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine", "8": "eight"}
RANKS |= {"7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}
SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}

# Every line added to the live region from now on, in order (a line asked for twice is two lines).
LISTEN = """() => {
    window.heard = [];
    new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) window.heard.push(node.textContent);
    }).observe(document.querySelector('#table-announcer'), { childList: true, subtree: true });
}"""


def card_words(code):
    return f"{RANKS[code[0]]} of {SUITS[code[1]]}"


@pytest.fixture(scope="module")
def rooms(site):
    setup = json.dumps({"rooms": HEAR_ROOMS, "players": HEAR_PLAYERS, "password": PASSWORD})
    out = site["manage"]("shell", "-c", SETUP.format(setup=setup))
    created = json.loads(next(line for line in out.splitlines() if line.startswith("ROOMS="))[6:])
    site["rooms"].update({f"hear_{key}": pk for key, pk in created.items()})
    return {key: f"hear_{key}" for key in created}


def heard(page):
    return page.evaluate("() => window.heard.slice()")


def hear(page, keys, pattern):
    """Press `keys` and wait for a new line matching `pattern` in the live region; return it."""
    before = len(heard(page))
    page.keyboard.press(keys)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        # The answer, among whatever else the table said meanwhile (an opponent's action).
        answers = [line for line in heard(page)[before:] if re.fullmatch(pattern, line)]
        if answers:
            assert len(answers) == 1, answers
            return answers[0]
        time.sleep(0.05)
    raise AssertionError(f"{keys} said nothing like {pattern!r}: {heard(page)[before:]}")


def focused(page):
    return page.evaluate("() => document.activeElement && document.activeElement.id")


def test_each_key_reads_the_table_aloud_without_moving_the_focus_and_only_your_own_cards(
    site, rooms, sign_in, artifacts
):
    first, second, watcher = (sign_in(name) for name in HEAR_PLAYERS)
    for page in (first, second, watcher):
        open_table(page, site, rooms["slow"])
    sit(first, 0, 5_000)
    sit(second, 3, 4_000)
    wait_hand(first, second, watcher)
    for page in (first, watcher):
        page.evaluate(LISTEN)
        page.locator("#rules-open").focus()  # a control the player was on; the keys leave it there
    mine = table_state(first, "app.you.hole")
    theirs = table_state(second, "app.you.hole")
    assert len(mine) == 2 and len(theirs) == 2

    # Alt+1: your hand, in words.
    hand = hear(first, "Alt+1", r"Your hand: [a-z ,]+\.")
    assert hand == f"Your hand: {card_words(mine[0])}, {card_words(mine[1])}."
    assert focused(first) == "rules-open"

    # Alt+2: the board; asked twice, it is said twice (the region is emptied, then filled).
    board = "Board: no cards yet, before the flop."
    assert hear(first, "Alt+2", re.escape(board)) == board
    assert hear(first, "Alt+2", re.escape(board)) == board
    assert first.locator("#table-announcer p").all_inner_texts() == [board]

    # Alt+3: the pot and what this player owes, from the blinds posted (heads-up: 50 and 100).
    my_bet = table_state(first, "app.table.hand.seats.find((s) => s.seat === 0).bet")
    owed = "nothing to call" if my_bet == 100 else "you owe 50 to call"
    assert hear(first, "Alt+3", r"Pot .*") == f"Pot 150; {owed}."

    # Alt+4: the stacks, you as "you", the other player by name.
    stacks = hear(first, "Alt+4", r"Stacks: .*")
    assert re.fullmatch(r"Stacks: you [\d,]+, bet \d+; hear02 [\d,]+, bet \d+\.", stacks), stacks

    # Alt+5: the time left, at the slow pace the server runs: more than the room's 40 s is left,
    # and the client's ring spans the same 120 s.
    time_left = hear(first, "Alt+5", r".*")
    match = re.fullmatch(
        r"(Your turn|hear02's turn): (\d+) seconds left\.(?: Your time bank: 90 seconds\.)?",
        time_left,
    )
    assert match, time_left
    assert TURN_SECONDS < int(match.group(2)) <= SLOW_TURN
    assert table_state(first, "app.table.turn.seconds") == SLOW_TURN
    assert focused(first) == "rules-open"

    # A watcher hears the table too, and no cards as "their hand".
    assert hear(watcher, "Alt+1", r".*") == "You are watching: you have no cards."
    hear(watcher, "Alt+4", r"Stacks: hear01 [\d,]+, bet \d+; hear02 [\d,]+, bet \d+\.")

    # Never while typing: in the chat box Alt+1 says nothing, types nothing, moves nothing.
    chat = first.locator("#chat-text")
    chat.click()
    chat.fill("gl")
    before = len(heard(first))
    first.keyboard.press("Alt+1")
    first.wait_for_timeout(600)
    assert heard(first)[before:] == []
    expect(chat).to_have_value("gl")
    assert focused(first) == "chat-text"

    # The other player's cards were never spoken, on either page.
    for page in (first, watcher):
        spoken = " ".join(heard(page))
        for card in theirs:
            assert card_words(card) not in spoken, f"{card} was read aloud on another page"
    assert first.errors == [] and watcher.errors == []


def test_the_rules_dialog_lists_the_keys_and_says_the_table_is_slow(
    site, rooms, sign_in, artifacts
):
    page = sign_in(HEAR_PLAYERS[2])
    open_table(page, site, rooms["slow"])
    page.get_by_role("button", name="Room rules").click()
    dialog = page.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    # RULES.md 1 `pace`: the slow figures, and why the table has them.
    expect(dialog.locator('dd[data-rule="pace"]')).to_contain_text("A slow table")
    expect(dialog.locator('dd[data-rule="turn"]')).to_contain_text(f"{SLOW_TURN} s to act")
    expect(dialog.locator('dd[data-rule="time_bank"]')).to_contain_text("90 s of extra time")
    keys = dialog.locator("#table-keys")
    expect(keys.get_by_role("heading", name="Keyboard")).to_be_visible()
    for number, does in enumerate(
        ("your hand", "the board", "the pot and what you owe", "the stacks", "the time left"),
        start=1,
    ):
        expect(keys.locator("dt", has_text=f"Alt+{number}")).to_be_visible()
        expect(keys.locator("dd", has_text=f"Hear {does}")).to_be_visible()
    for key in ("F", "C", "R", "Enter", "Escape", "S / M"):
        expect(keys.locator("dt kbd", has_text=re.compile(f"^{re.escape(key)}$"))).to_have_count(1)
    for width, height in ((1280, 800), (360, 780)):
        page.set_viewport_size({"width": width, "height": height})
        keys.scroll_into_view_if_needed()
        dialog.screenshot(path=str(artifacts / f"read-aloud-keys-{width}.png"))
        # Nothing runs off the side at a phone's width.
        assert page.evaluate("() => document.querySelector('#rules-dialog').scrollWidth") <= width
    # Alt+5 works with the dialog open too, and the focus stays in the dialog.
    page.evaluate(LISTEN)
    before = focused(page)
    hear(page, "Alt+5", r".+ (left|running|seconds?)\.")
    assert focused(page) == before
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
