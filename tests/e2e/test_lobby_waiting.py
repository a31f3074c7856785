"""Real Chromium: the lobby's filters and sort order (kept over a reload), its last hour's figures,
and the waiting list of a full room: a player gets in line, a seat frees, the offer appears on
their lobby, and "Take seat" leads to that table's buy-in for the seat held for them."""

import json
import re

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_play import expect
from tests.e2e.test_table_rules import shoot

pytestmark = pytest.mark.e2e

WAIT_PLAYERS = ["wait01", "wait02", "wait03"]
ROOM = "E2E Wait Full"

# Two seats, both taken, with no countdown to deal a hand while the test runs; six hands of the
# last hour behind it (average pot 123,456: the biggest of the site's rooms).
SETUP = """
import json
from datetime import timedelta
from django.contrib.auth.hashers import make_password
from django.utils import timezone
from casino.accounts.models import User
from casino.accounts.services import account_open
from holdem.models import HandParticipant, HandRecord
from holdem.services import room_create, table_sit
setup = json.loads({setup!r})
hashed = make_password(setup["password"])
users = [User.objects.create(username=name, password=hashed) for name in setup["players"]]
for user in users:
    account_open(user=user)
table = room_create(name=setup["room"], preset="nl50", seats=2, countdown_seconds=900,
                    countdown_full_seconds=900, time_bank_seconds=0)
now = timezone.now()
for number in range(1, 7):
    record = HandRecord.objects.create(
        table=table, number=number, started_at=now - timedelta(minutes=number + 1),
        ended_at=now - timedelta(minutes=number), button_seat=0, options={{}}, deck=[],
        players=[{{"seat": s, "user_id": users[s].pk}} for s in (0, 1)],
        board=["2c", "7d", "9h"] if number % 2 else [], pots=[{{"amount": 123_456}}])
    for seat in (0, 1):
        HandParticipant.objects.create(hand=record, user=users[seat], seat=seat)
table_sit(table_id=table.pk, user=users[0], seat=0, buy_in=2_000)
table_sit(table_id=table.pk, user=users[1], seat=1, buy_in=2_000)
print("ROOM=" + str(table.pk))
"""


@pytest.fixture(scope="module")
def full_room(site):
    setup = json.dumps({"players": WAIT_PLAYERS, "password": PASSWORD, "room": ROOM})
    out = site["manage"]("shell", "-c", SETUP.format(setup=setup))
    return int(next(line for line in out.splitlines() if line.startswith("ROOM="))[5:])


def test_filters_and_sort_hold_and_a_seat_offered_from_the_waiting_list_is_taken(
    site, full_room, sign_in, artifacts
):
    seated, _, waiting = WAIT_PLAYERS
    page = sign_in(waiting)
    expect(page.locator("#lobby-status")).to_have_attribute("data-state", "open")
    row = page.locator(f'.room-tile[data-room-id="{full_room}"]')
    expect(row.locator(".room-pot")).to_have_text("123,456")  # the last hour's figures
    expect(row.locator(".room-hands")).to_have_text("6")
    expect(row.locator(".room-flop")).to_have_text("50%")

    # Filters: the structure, then full rooms; the count says how many are shown.
    filters = page.locator("#lobby-filters")
    total = page.locator("#room-list .room-tile").count()
    filters.get_by_label("No-Limit").uncheck()
    expect(row).to_have_count(0)
    expect(page.locator("#room-count")).to_contain_text(f"of {total} rooms")
    filters.get_by_label("No-Limit").check()
    filters.get_by_label("Hide full").check()
    expect(row).to_have_count(0)
    filters.get_by_label("Hide full").uncheck()
    filters.get_by_label("Stakes").select_option("50/100")
    expect(row).to_be_visible()

    # Sort by the average pot: biggest first; a second click turns it round.
    heading = page.locator("#room-table th[data-sort=average_pot]")
    heading.get_by_role("button").click()
    expect(heading).to_have_attribute("aria-sort", "descending")
    expect(page.locator("#room-list .room-tile").first).to_have_attribute(
        "data-room-id", str(full_room)
    )

    # Kept over a reload (and over the live updates that follow it).
    page.reload()
    expect(page.locator("#lobby-status")).to_have_attribute("data-state", "open")
    expect(heading).to_have_attribute("aria-sort", "descending")
    expect(filters.get_by_label("Stakes")).to_have_value("50/100")
    expect(page.locator("#room-list .room-tile").first).to_have_attribute(
        "data-room-id", str(full_room)
    )

    # The room is full: get in line.
    row.get_by_role("button", name="Wait for a seat").click()
    expect(row.locator(".waiting-place")).to_have_text("You are next in line")
    expect(row.locator(".room-waiting")).to_have_text("1")  # the line's size counts you now
    expect(row.get_by_role("button", name="Leave list")).to_be_visible()
    expect(row.get_by_role("button", name=re.compile(f"^Watch {re.escape(ROOM)}$"))).to_be_visible()
    shoot(page, artifacts, "lobby-waiting")

    # A seated player leaves: the seat is offered to the first in line, on the lobby.
    leaver = sign_in(seated)
    leaver.goto(f"{site['base']}/tables/{full_room}/")
    expect(leaver.locator("#conn-status")).to_have_attribute("data-state", "open")
    leaver.locator("#console-tools").get_by_role("button", name="Leave table").click()
    offer = page.locator(".waiting-offer")
    expect(offer).to_contain_text(f"A seat is free at {ROOM}")
    expect(offer).to_contain_text(re.compile(r"Seat 1 is held for you for \d+ s"))
    shoot(page, artifacts, "lobby-waiting-offer")

    # Take it: the table's buy-in, for the seat held.
    offer.get_by_role("button", name="Take seat").click()
    page.wait_for_url(re.compile(rf"/tables/{full_room}/"))
    dialog = page.locator("#sit-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#sit-seat-number")).to_have_text("1")
    dialog.locator("#sit-amount").fill("2500")
    dialog.get_by_role("button", name="Confirm").click()
    expect(page.locator('.seat.mine[data-seat="0"] .seat-stack')).to_have_text("2,500")
    expect(page.locator(".waiting-offer")).to_have_count(0)
    assert not page.errors and not leaver.errors
