"""Real Chromium against a real Daphne, for the table rules a player meets at the felt: hands
turned face up for an all-in run-out, Show or Muck after a showdown, the room's rules in words,
being sat out after two turns ran out, and the buy-in a returning player owes (RULES.md 2, 4, 5).
"""

import json
import re
import time

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_play import (
    button,
    cards_at,
    console_state,
    expect,
    open_table,
    sit,
    table_state,
    wait_hand,
    whose_turn,
)

pytestmark = pytest.mark.e2e

# This module's own rooms and players, made once in the served database.
RULES_ROOMS = {
    "runout": {
        "preset": "nl50",
        "seats": 6,
        "countdown_seconds": 2,
        "countdown_full_seconds": 1,
        "turn_seconds": 20,
    },
    # Long enough between games to look at the Show-or-Muck screen before the next deal.
    "muck": {
        "preset": "nl50",
        "seats": 6,
        "countdown_seconds": 8,
        "countdown_full_seconds": 1,
        "turn_seconds": 20,
    },
    "rules": {"preset": "fl20", "countdown_seconds": 30},
    # A short turn clock, so two turns run out quickly.
    "idle": {
        "preset": "nl50",
        "seats": 6,
        "countdown_seconds": 2,
        "countdown_full_seconds": 1,
        "turn_seconds": 5,
        "time_bank_seconds": 0,  # the turns run out at once (the bank has its own tests)
    },
    "rebuy": {"preset": "nl50", "seats": 6, "countdown_seconds": 30},
    # All-in protection (the fixed-limit preset), a short grace and turns that outlast it.
    "protect": {
        "preset": "fl20",
        "seats": 6,
        "countdown_seconds": 2,
        "countdown_full_seconds": 1,
        "turn_seconds": 120,
        "disconnect_grace_seconds": 4,
    },
}
RULES_PLAYERS = [f"rules{n:02d}" for n in range(1, 16)]

SETUP = """
import json
from django.contrib.auth.hashers import make_password
from casino.accounts.models import User
from casino.accounts.services import account_open
from holdem.services import room_create
setup = json.loads({setup!r})
rooms = {{key: room_create(name="E2E Rules " + key.title(), **options).pk for key, options in setup["rooms"].items()}}
hashed = make_password(setup["password"])
for name in setup["players"]:
    account_open(user=User.objects.create(username=name, password=hashed))
print("ROOMS=" + json.dumps(rooms))
"""


@pytest.fixture(scope="module")
def rooms(site):
    """Create this module's rooms (holdem.services.room_create) and players; their ids by key."""
    setup = json.dumps({"rooms": RULES_ROOMS, "players": RULES_PLAYERS, "password": PASSWORD})
    out = site["manage"]("shell", "-c", SETUP.format(setup=setup))
    created = json.loads(next(line for line in out.splitlines() if line.startswith("ROOMS="))[6:])
    site["rooms"].update({f"rules_{key}": pk for key, pk in created.items()})
    return {key: f"rules_{key}" for key in created}


def shoot(page, artifacts, name):
    """The page as it is now at 1280 px and at 360 px wide (artifacts/<name>-1280.png, -360.png)."""
    size = page.viewport_size
    for width, height in ((1280, 900), (360, 780)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(250)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size(size)


def play_calls(pages, until, timeout=150):
    """Check or call whenever one of `pages` has the turn, until `until()` is true. A hand checked
    down takes about 20 s on a quiet machine and four times that while the suite loads it."""
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, f"gave up waiting: {[console_state(p) for p in pages]}"
        try:
            actor = whose_turn(pages, timeout=1)
        except AssertionError:
            continue
        name = "Check" if button(actor, "Check").count() else "Call"
        lines = actor.locator("#action-log li").count()
        seq = table_state(actor, "app.seq")
        button(actor, name).click()
        # The click took when the table moved on (a log line, or a later seq: a loaded machine
        # may bring the page a snapshot instead of the event, and a snapshot has no log lines).
        deadline_click = time.monotonic() + 30
        while (
            actor.locator("#action-log li").count() == lines
            and table_state(actor, "app.seq") == seq
        ):
            if time.monotonic() > deadline_click:
                problem = actor.locator("#console-error").all_inner_texts()
                raise AssertionError(
                    f"{name} changed nothing; console error: {problem}; "
                    f"state {console_state(actor)}"
                )
            time.sleep(0.1)


def test_an_all_in_call_turns_both_hands_face_up_before_the_run_out(
    site, rooms, sign_in, artifacts
):
    first, second = sign_in("rules01"), sign_in("rules02", phone=True)
    watcher = sign_in("rules03")
    for page in (first, second, watcher):
        open_table(page, site, rooms["runout"])
    sit(first, 1, 2000)
    sit(second, 4, 2000)
    wait_hand(first, second, watcher)
    cards = {1: cards_at(first, 1), 4: cards_at(second, 4)}

    actor = whose_turn([first, second])
    other = second if actor is first else first
    button(actor, "All in").click()
    button(actor, "Confirm").click()
    expect(other.locator("#console")).to_have_attribute(
        "data-console-state", re.compile("^(call_no_raise|forced_all_in)$")
    )
    if console_state(other) == "forced_all_in":
        button(other, "All in").click()
        button(other, "Confirm").click()
    else:
        button(other, "Call").click()

    # RULES.md 4: nobody can bet any more, so both hands are turned up and the board run out.
    log = watcher.locator("#action-log")
    expect(log).to_contain_text("All in: hands turned face up")
    expect(log).to_contain_text(re.compile(r"goes all in [1-9][\d,]*"))
    expect(watcher.locator("#stage.showdown")).to_be_visible()
    expect(watcher.locator("#board .pcard.face")).to_have_count(5)
    # With equal stacks the loser busts and their seat is released when the hand ends: a seat
    # shows only its current occupant's state (an empty seat shows nothing of who left it), so
    # the cards are checked on the seats still taken; the log keeps both hands (below).
    for seat, hole in cards.items():
        taken, shown = watcher.locator(f'.seat[data-seat="{seat}"]').evaluate(
            "seat => [!!seat.querySelector('.seat-name'),"
            " [...seat.querySelectorAll('.seat-cards .pcard.face')].map(c => c.dataset.card)]"
        )
        assert shown == (hole if taken else []), (seat, taken, shown)
    # The tabled hands are listed before the run-out's streets, each with its player's name.
    lines = log.locator("li").all_inner_texts()
    tabled = next(i for i, line in enumerate(lines) if line == "All in: hands turned face up")
    assert sorted(line.split(":")[0] for line in lines[tabled + 1 : tabled + 3]) == [
        "rules01",
        "rules02",
    ], lines
    assert tabled < next(i for i, line in enumerate(lines) if line.startswith("Flop:")), lines
    # Hands tabled for a run-out are never offered Show or Muck.
    for page in (first, second):
        expect(page.locator("#console")).not_to_have_attribute("data-console-state", "show_or_muck")
    shoot(watcher, artifacts, "table-all-in-run-out")
    assert not first.errors and not second.errors and not watcher.errors


def test_a_beaten_hand_may_be_mucked_and_the_others_see_the_seat_deciding(
    site, rooms, sign_in, artifacts
):
    names_by_seat = {0: "rules04", 2: "rules05", 4: "rules06"}
    players = [sign_in(name) for name in names_by_seat.values()]
    # The server gives 8 s to choose: too little to resize pages for pictures, so each player
    # also watches on a phone (a second tab of their own), and so does a spectator.
    phones = {seat: sign_in(name, phone=True) for seat, name in names_by_seat.items()}
    watcher, phone_watcher = sign_in("rules07"), sign_in("rules15", phone=True)
    for page in (*players, *phones.values(), watcher, phone_watcher):
        open_table(page, site, rooms["muck"])
    for page, seat in zip(players, (0, 2, 4)):
        sit(page, seat, 2000)
        page.get_by_label("Auto muck losing hand").uncheck()
    by_seat = dict(zip((0, 2, 4), players))

    # With three hands checked down, one is usually beaten by a hand shown before it; deal
    # again until that happens (a few hands at most).
    for _ in range(6):
        wait_hand(watcher)
        play_calls(players, lambda: watcher.locator("#stage.showdown").count() > 0)
        last = table_state(watcher, "app.table.last_hand")
        undecided = last.get("undecided") or []
        if undecided:
            break
        expect(watcher.locator("#stage.in-hand")).to_be_visible(timeout=20_000)  # the next deal
    else:
        pytest.fail("no hand was beaten by one shown before it in six showdowns")

    seat = undecided[0]
    chooser = by_seat[seat]
    console = chooser.locator("#console")
    expect(console).to_have_attribute("data-console-state", "show_or_muck")
    expect(console).to_contain_text("Show or muck?")
    expect(console.locator("[data-decide-seconds]")).to_have_text(re.compile(r"^[1-8]s$"))
    expect(watcher.locator(f'.seat[data-seat="{seat}"] .deciding')).to_have_text("Deciding…")
    expect(watcher.locator(f'.seat[data-seat="{seat}"] .pcard.face')).to_have_count(0)
    expect(phones[seat].locator("#console")).to_have_attribute("data-console-state", "show_or_muck")
    quick = {"animations": "disabled", "scale": "css"}
    chooser.screenshot(path=str(artifacts / "table-show-or-muck-1280.png"), full_page=True, **quick)
    phones[seat].screenshot(
        path=str(artifacts / "table-show-or-muck-360.png"), full_page=True, **quick
    )

    def time_left():
        return table_state(chooser, "app.console.decideLeftMs()") or 0

    if time_left() > 4_000:  # a loaded machine takes seconds a picture: the choice comes first
        watcher.screenshot(path=str(artifacts / "table-deciding-spectator-1280.png"), **quick)
        phone_watcher.screenshot(path=str(artifacts / "table-deciding-spectator-360.png"), **quick)

    if time_left() > 1_000:
        button(chooser, "Muck").click(timeout=2_000)
    # Mucked by the click, or (on a machine too slow for the pictures) when the time ran out:
    # either way the hand is not shown.
    expect(console).not_to_have_attribute("data-console-state", "show_or_muck")
    expect(watcher.locator(f'.seat[data-seat="{seat}"] .deciding')).to_have_count(0)
    expect(watcher.locator(f'.seat[data-seat="{seat}"] .pcard.face')).to_have_count(
        0
    )  # mucked unseen
    expect(watcher.locator("#action-log")).to_contain_text(re.compile(r"rules0[456] mucks"))
    # Every player still choosing had the same screen; they muck when the time runs out.
    for other_seat in undecided[1:]:
        expect(by_seat[other_seat].locator("#console")).not_to_have_attribute(
            "data-console-state", "show_or_muck", timeout=12_000
        )

    # Show previous hand: the cards of every player still in at the showdown, mucked or not
    # (RULES.md 4 [002]), when the server sends them (hand summaries' `showdown`).
    chooser.locator("#console").get_by_role("button", name="Show previous hand").click()
    panel = chooser.locator("#previous-dialog")
    expect(panel).to_contain_text("Your cards")
    expect(panel.locator("th", has_text="Cards at showdown")).to_be_visible()
    mucked_row = panel.locator("tr", has_text=names_by_seat[seat])
    expect(mucked_row.locator(".mucked-tag")).to_have_text("mucked")
    expect(mucked_row.locator(".pcard.face")).to_have_count(2)
    shoot(chooser, artifacts, "table-previous-hand-mucked")
    assert (
        not watcher.errors
        and not phone_watcher.errors
        and not any(p.errors for p in (*players, *phones.values()))
    )

    # The hand's own page says the same, and links to the hand before it at this table.
    chooser.goto(f"{site['base']}/hands/{last['hand_id']}/")
    expect(chooser.locator("th", has_text="Cards at showdown")).to_be_visible()
    row = chooser.locator("tr", has_text=names_by_seat[seat])
    expect(row.locator(".mucked-tag")).to_have_text("mucked")
    expect(row.locator(".pcard.face")).to_have_count(2)
    previous = chooser.get_by_role("link", name="Previous hand")
    if last["number"] > 1:
        expect(previous).to_have_attribute("href", re.compile(r"^/hands/\d+/$"))
        earlier = previous.get_attribute("href").split("/")[2]  # one number: the hand's id
        previous.click()
        expect(chooser.locator("h1")).to_contain_text(f"Hand #{earlier}")
        chooser.go_back()
    else:
        expect(previous).to_have_count(0)
    shoot(chooser, artifacts, "hand-page-mucked")


def test_the_rules_dialog_lists_the_rooms_options_in_words(site, rooms, sign_in, artifacts):
    page = sign_in("rules08")
    open_table(page, site, rooms["rules"])
    page.get_by_role("button", name="Room rules").click()
    dialog = page.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    # The fixed-limit 20/40 preset: all-in protection and the default 20 s grace.
    expect(dialog.locator('[data-rule="disconnect"]')).to_contain_text(
        "a dropped connection has 20 s to come back", ignore_case=True
    )
    expect(dialog.locator('[data-rule="disconnect"]')).to_contain_text(
        "all in for what you have already put in"
    )
    expect(dialog.locator('[data-rule="stakes"]')).to_contain_text(
        "20 in the first two rounds and 40 in the last two"
    )
    expect(dialog.locator('[data-rule="raise_cap"]')).to_contain_text("3 raises")
    expect(dialog.locator('[data-rule="buy_in"]')).to_contain_text("At least 200 chips")
    expect(dialog.locator('[data-rule="entry"]')).to_contain_text("post a big blind")
    expect(dialog.locator('[data-rule="turn"]')).to_contain_text("s to act")
    expect(dialog.locator('[data-rule="countdown"]')).to_contain_text("30 s")
    expect(dialog.locator('[data-rule="rake"]')).to_have_text("No rake.")
    expect(dialog.locator('[data-rule="auto_muck"]')).to_contain_text("Auto muck is")
    shoot(page, artifacts, "table-rules-dialog")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    assert not page.errors


def test_a_player_whose_time_runs_out_twice_is_sat_out_and_comes_back(
    site, rooms, sign_in, artifacts
):
    active, idle = sign_in("rules09"), sign_in("rules10")
    for page in (active, idle):
        open_table(page, site, rooms["idle"])
    sit(active, 0, 2000)
    sit(idle, 3, 2000)
    wait_hand(active, idle)

    # The idle player never acts; each of their turns runs out after 5 s (check, or fold).
    notice = idle.locator("#console .sat-out-notice")
    play_calls([active], lambda: notice.count() > 0)
    expect(notice).to_contain_text("You were sat out: your time ran out twice in a row.")
    expect(idle.locator("#action-log")).to_contain_text("time ran out")
    # Let the hand end (the active player checks or calls it down) before the screenshots.
    play_calls([active], lambda: idle.locator("#stage.in-hand").count() == 0)
    expect(notice).to_be_visible()
    expect(active.locator('.seat[data-seat="3"]')).to_have_attribute(
        "data-state", re.compile("^(sitting_out|winner)$")
    )
    expect(idle.locator("#console-tools").get_by_role("button", name="Sit in")).to_have_count(
        0
    )  # one way back
    shoot(idle, artifacts, "table-sat-out-idle")

    button(idle, "I'm back").click()
    expect(notice).to_have_count(0)
    expect(idle.locator("#console-tools").get_by_role("button", name="Sit out")).to_be_visible()
    expect(active.locator("#action-log")).to_contain_text("rules10 is back")
    shoot(idle, artifacts, "table-back-from-idle")
    assert not active.errors and not idle.errors


def test_a_player_coming_back_buys_in_for_at_least_what_they_left_with(
    site, rooms, sign_in, artifacts
):
    page = sign_in("rules11")
    open_table(page, site, rooms["rebuy"])
    sit(page, 2, 5000)
    page.locator("#console-tools").get_by_role("button", name="Leave table").click()
    expect(page.locator("#console")).to_have_attribute("data-console-state", "not_playing")
    open_table(page, site, rooms["rebuy"])  # a fresh snapshot
    assert table_state(page, "app.you && app.you.buy_in ? true : false"), (
        "the snapshot carries you.buy_in"
    )

    page.locator('.seat[data-seat="2"]').get_by_role("button", name="Sit here").click()
    dialog = page.locator("#sit-dialog")
    expect(dialog).to_be_visible()
    # RULES.md 2: back within 30 minutes, the minimum is the 5,000 chips they left with.
    expect(dialog.locator("#sit-amount")).to_have_attribute("min", "5000")
    expect(dialog.locator("#sit-range")).to_contain_text("5,000")
    expect(dialog.locator("#sit-reason")).to_be_visible()
    expect(dialog.locator("#sit-reason")).to_contain_text("5,000")
    dialog.locator("#sit-amount").fill("3000")
    expect(dialog.locator("#sit-problem")).to_contain_text("minimum buy-in is 5,000")
    expect(dialog.get_by_role("button", name="Confirm")).to_be_disabled()
    shoot(page, artifacts, "table-buy-in-rathole")
    dialog.locator("#sit-amount").fill("5000")
    dialog.get_by_role("button", name="Confirm").click()
    expect(page.locator('.seat.mine[data-seat="2"] .seat-stack')).to_have_text("5,000")
    assert not page.errors


def test_a_protected_player_who_comes_back_sees_the_seat_all_in_and_protected(
    site, rooms, sign_in, artifacts
):
    names = {0: "rules12", 2: "rules13", 4: "rules14"}
    pages = {seat: sign_in(name) for seat, name in names.items()}
    for page in pages.values():
        open_table(page, site, rooms["protect"])
    for seat, page in pages.items():
        sit(page, seat, 1000)
    wait_hand(*pages.values())

    # Someone who is not to act drops out; once the grace has passed they are all-in protected.
    actor = whose_turn(list(pages.values()))
    seat, dropped = next((s, p) for s, p in pages.items() if p is not actor)
    dropped.context.close()
    others = [p for p in pages.values() if p is not dropped]
    expect(actor.locator(f'.seat[data-seat="{seat}"]')).to_have_attribute(
        "data-state", "disconnected", timeout=20_000
    )
    expect(actor.locator(f'.seat[data-seat="{seat}"] .tag.protected')).to_be_visible(timeout=20_000)
    expect(actor.locator("#action-log")).to_contain_text("all-in protection")

    back = sign_in(names[seat])
    open_table(back, site, rooms["protect"])
    mine = back.locator(f'.seat.mine[data-seat="{seat}"]')
    expect(mine).to_have_attribute("data-state", "all_in")
    expect(mine.locator(".tag.protected")).to_have_text("protected")
    expect(mine.locator(".seat-cards .pcard.face")).to_have_count(2)  # their own cards again
    expect(back.locator("#console")).to_have_attribute("data-console-state", "waiting_all_in")
    expect(back.locator("#console")).to_contain_text("protected")
    for page in others:
        expect(page.locator(f'.seat[data-seat="{seat}"]')).to_have_attribute("data-state", "all_in")
        expect(page.locator(f'.seat[data-seat="{seat}"] .tag.protected')).to_be_visible()
    shoot(back, artifacts, "table-protected-back")
    assert not back.errors and not any(p.errors for p in others)
