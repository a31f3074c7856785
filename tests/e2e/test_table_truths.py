"""Real Chromium: what the pages say is what is true. After a reload mid-hand the table
log keeps chat and the hand in the order they happened, each chat line with its time; the lobby
says "Waiting for players" while only one seated player can play; and a seat held for the waiting
list shows as held, with its time left, to a spectator, and as theirs to the player it is held for."""

import json
import re
import time

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_alerts import put_all_in
from tests.e2e.test_table_play import expect, sit, wait_hand, whose_turn
from tests.e2e.test_table_rules import shoot

pytestmark = pytest.mark.e2e

PLAYERS = [f"truth{n}" for n in range(1, 11)]

SETUP = """
import json
from django.contrib.auth.hashers import make_password
from casino.accounts.models import User
from casino.accounts.services import account_open
from holdem.services import room_create, table_sit, table_sit_out
from holdem.services.waiting import waiting_join
setup = json.loads({setup!r})
hashed = make_password(setup["password"])
users = {{}}
for name in setup["players"]:
    users[name] = User.objects.create(username=name, password=hashed)
    account_open(user=users[name])
slow = dict(countdown_seconds=900, countdown_full_seconds=900, time_bank_seconds=0)
rooms = {{
    "reload": room_create(name="E2E Truth Reload", preset="nl50", seats=6, countdown_seconds=2,
                          countdown_full_seconds=1, turn_seconds=60, time_bank_seconds=0).pk,
    "sitting_out": room_create(name="E2E Truth Sitting Out", preset="nl50", seats=6, **slow).pk,
    "held": room_create(name="E2E Truth Held", preset="nl50", seats=2, **slow).pk,
    "bust": room_create(name="E2E Truth Bust", preset="nl50", seats=2, countdown_seconds=2,
                        countdown_full_seconds=1, turn_seconds=20, time_bank_seconds=0).pk,
}}
table_sit(table_id=rooms["sitting_out"], user=users["truth3"], seat=0, buy_in=2_000)
table_sit_out(table_id=rooms["sitting_out"], user=users["truth3"])
table_sit(table_id=rooms["sitting_out"], user=users["truth4"], seat=1, buy_in=2_000)
table_sit(table_id=rooms["held"], user=users["truth5"], seat=0, buy_in=2_000)
table_sit(table_id=rooms["held"], user=users["truth6"], seat=1, buy_in=2_000)
waiting_join(table_id=rooms["held"], user=users["truth7"])
print("ROOMS=" + json.dumps(rooms))
"""


@pytest.fixture(scope="module")
def rooms(site):
    setup = json.dumps({"players": PLAYERS, "password": PASSWORD})
    out = site["manage"]("shell", "-c", SETUP.format(setup=setup))
    return json.loads(next(line for line in out.splitlines() if line.startswith("ROOMS="))[6:])


def open_room(page, site, room_id):
    page.goto(f"{site['base']}/tables/{room_id}/")
    expect(page.locator("#conn-status")).to_have_attribute("data-state", "open")
    expect(page.locator("#seats .seat").first).to_be_visible()


def say(page, text):
    page.locator("#chat-text").fill(text)
    page.locator("#chat-form").get_by_role("button", name="Send").click()
    expect(page.locator("#action-log li.log-chat").last).to_contain_text(text)


def log_lines(page) -> list[str]:
    return page.locator("#action-log li").evaluate_all("items => items.map(i => i.textContent)")


def test_after_a_reload_chat_and_the_hand_keep_their_order_and_chat_lines_their_time(
    site, rooms, sign_in, artifacts
):
    first, second = sign_in("truth1"), sign_in("truth2")
    for page in (first, second):
        open_room(page, site, rooms["reload"])
    say(first, "an old line, before the hand")
    sit(first, 0, 2_000)
    sit(second, 1, 2_000)
    for page in (first, second):
        expect(page.locator("#stage.in-hand")).to_be_visible()
    say(first, "a line during the hand")

    second.reload()
    expect(second.locator("#stage.in-hand")).to_be_visible()
    log = second.locator("#action-log")
    expect(log.locator("li.log-chat")).to_have_count(2)
    expect(log.locator("li", has_text=re.compile(r"^Hand #\d+"))).to_have_count(1)
    lines = log_lines(second)
    old = next(i for i, text in enumerate(lines) if "an old line" in text)
    start = next(i for i, text in enumerate(lines) if re.match(r"Hand #\d+", text))
    blind = next(i for i, text in enumerate(lines) if "posts big blind" in text)
    during = next(i for i, text in enumerate(lines) if "a line during the hand" in text)
    assert old < start < blind < during, lines
    for line in log.locator("li.log-chat").all():
        expect(line.locator(".chat-time")).to_have_text(re.compile(r"^\d\d:\d\d $"))
    shoot(second, artifacts, "truth-log-after-reload")
    assert not first.errors and not second.errors


def test_the_lobby_says_waiting_for_players_while_one_of_two_sits_out(site, rooms, sign_in):
    page = sign_in("truth1")
    expect(page.locator("#lobby-status")).to_have_attribute("data-state", "open")
    state = page.locator(f'.room-tile[data-room-id="{rooms["sitting_out"]}"] .room-state')
    expect(state).to_contain_text("Waiting for players")
    expect(state).not_to_contain_text("Next game soon")
    page.reload()  # the page as served says the same
    expect(state).to_contain_text("Waiting for players")
    # The player sitting out comes back: now a game can start, and the open lobby hears it.
    back = sign_in("truth3")
    open_room(back, site, rooms["sitting_out"])
    back.locator("#console-tools").get_by_role("button", name="Sit in").click()
    expect(state).to_contain_text("Next game soon")
    assert not page.errors


def test_a_seat_held_for_the_waiting_list_shows_held_to_a_spectator_and_free_to_its_holder(
    site, rooms, sign_in, artifacts
):
    watcher, holder = sign_in("truth2"), sign_in("truth7")
    open_room(watcher, site, rooms["held"])
    open_room(holder, site, rooms["held"])
    leaver = sign_in("truth5")
    open_room(leaver, site, rooms["held"])
    leaver.locator("#console-tools").get_by_role("button", name="Leave table").click()
    seat = watcher.locator('.seat[data-seat="0"]')
    expect(seat).to_contain_text("Reserved for the waiting list")
    expect(seat.locator(".seat-reserved-time")).to_have_text(re.compile(r"^\d+ s left$"))
    expect(seat.get_by_role("button", name="Sit here")).to_have_count(0)
    shoot(watcher, artifacts, "truth-held-seat")
    # The player it is held for is offered it, here on the table and in the notice.
    expect(holder.locator(".waiting-offer")).to_contain_text("Seat 1 is held for you")
    expect(
        holder.locator('.seat[data-seat="0"]').get_by_role("button", name="Sit here")
    ).to_be_visible()
    assert not watcher.errors and not holder.errors


def busted_page(pages, timeout=20):
    """The page whose player lost their seat at the end of the hand, or None when the next hand
    started instead (a split pot: nobody busted)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            if not page.locator(".seat.mine").count():
                return page
        if all(page.locator("#stage.in-hand").count() for page in pages):
            return None
        time.sleep(0.05)
    raise AssertionError("the hand neither busted anybody nor made way for the next one")


def test_a_busted_player_is_not_offered_a_seat_held_for_the_waiting_list(
    site, rooms, sign_in, artifacts
):
    first, second = sign_in("truth8"), sign_in("truth9")
    for page in (first, second):
        open_room(page, site, rooms["bust"])
    sit(first, 0, 2000)
    sit(second, 1, 2000)
    # The room is full: truth10 gets in line (no page of theirs is needed for the hold).
    site["manage"](
        "shell",
        "-c",
        "from casino.accounts.models import User\n"
        "from holdem.services.waiting import waiting_join\n"
        f"waiting_join(table_id={rooms['bust']}, user=User.objects.get(username='truth10'))",
    )
    for _ in range(4):  # equal stacks all in before the flop: anything but a split pot busts one
        wait_hand(first, second)
        actor = whose_turn([first, second])
        put_all_in(actor, "all_in")
        put_all_in(whose_turn([second if actor is first else first]), "call")
        expect(first.locator("#stage.in-hand")).to_be_hidden()
        loser = busted_page([first, second])
        if loser:
            break
    else:
        pytest.skip("four split pots in a row: nobody busted")
    seat = "0" if loser is first else "1"
    held = loser.locator(f'.seat[data-seat="{seat}"]')
    expect(held).to_contain_text("Reserved for the waiting list")
    loser.wait_for_timeout(1500)  # the rebuy offer, if any, opens within a moment of the bust
    expect(loser.locator("#sit-dialog")).to_be_hidden()
    expect(held.get_by_role("button", name="Sit here")).to_have_count(0)
    shoot(loser, artifacts, "truth-busted-held-seat")
    assert not first.errors and not second.errors
