"""A multi-table tournament in the browser (RULES.md 9): a player watches their table's panel
(players left, average stack, their rank, the level, what the next place pays), their table
breaks when a player goes out at another, the page goes to the table they were moved to by
itself and says so, and they play on there through the console.

The site runs as it does in production: a Daphne in services mode and a Celery worker with its
beat (the clock that deals, moves players and breaks tables), on the test PostgreSQL and Redis,
as tests/integration/test_sit_and_go_faults.py starts them. The other players are bots in a
thread of this process, acting through the services (their events reach the server through
Redis). Playwright's sync API keeps an event loop in this thread, so the database is read here
only before the browser starts and after it stops. Screenshots at 1280 x 800 and 360 px go to
artifacts/."""

import re
import threading
import time

import pytest
import redis
from django.db import close_old_connections, connection
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect, sync_playwright

from casino.errors import DomainError
from holdem import engine
from holdem.models import Seat, Table, TableStatus, TournamentStatus
from holdem.selectors.audit import audit_chips
from holdem.services import table_act
from holdem.services.multi_table import mtt_register, tournament_schedule, tournaments_start_due
from tests.e2e.conftest import CHROMIUM_ARGS, LOADED_MACHINE_WAIT_MS
from tests.integration.live_site import Stack, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

# The console's states in which it is this player's turn (static/js/console-state.js).
ACTING = ("start_bet", "call_bet", "call_no_raise", "forced_all_in")


@pytest.fixture
def stack(postgres, redis_url, settings, tmp_path):
    """Daphne and a Celery worker with beat on the test database; this process broadcasts
    through the same (emptied) Redis, so the bots' actions reach the browser."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }
    redis.Redis.from_url(redis_url).flushdb()
    site = Stack(redis_url, tmp_path / "beat-schedule")
    site.server.env["CASINO_SERVE_STATIC"] = "1"  # no nginx here: Daphne serves /static/
    yield site
    site.stop()
    for log in site.worker_logs:
        assert "Traceback" not in log, log[-3000:]
    assert "Traceback" not in site.server.output(), site.server.output()[-3000:]


class Bots(threading.Thread):
    """Every player but the browser's, acting whenever the turn is theirs. At the first table
    they move all in and call until somebody is out (RULES.md 9: then the last table breaks);
    everywhere else, and everywhere after that, they check or call, so that nobody else goes
    out and the browser's player gets their turns."""

    def __init__(self, tournament_id, first_table, human_id):
        super().__init__(daemon=True)
        self.tournament_id, self.first_table, self.human_id = tournament_id, first_table, human_id
        self.running = True
        self.steps = {}  # (table, hand) -> bot actions taken in it
        self.errors = []

    def run(self):
        try:
            while self.running:
                self.act_everywhere()
                time.sleep(0.25)
        except Exception as error:  # the test fails on it, with what it was
            self.errors.append(repr(error))
        finally:
            connection.close()

    def act_everywhere(self):
        close_old_connections()
        somebody_out = Seat.objects.filter(table__tournament_id=self.tournament_id).count() < 7
        tables = Table.objects.filter(tournament_id=self.tournament_id, status=TableStatus.OPEN)
        for table in tables.exclude(hand_state=""):
            state = engine.state_from_json(table.hand_state)
            if state.to_act is None:
                continue
            seat = Seat.objects.select_related("user").get(table=table, number=state.to_act)
            if seat.user_id == self.human_id:
                continue
            legal = engine.legal_actions(state)
            key = (table.pk, table.hand_id)
            step = self.steps.get(key, 0)
            if table.pk == self.first_table and not somebody_out:
                action = ("all_in", "call" if "call" in legal.actions else "all_in")[min(step, 1)]
                if step > 1:
                    action = "fold" if "fold" in legal.actions else "check"
            else:
                action = "check" if "check" in legal.actions else "call"
            try:
                table_act(
                    table_id=table.pk, user=seat.user, action=action, turn_token=table.turn_token
                )
                self.steps[key] = step + 1
            except DomainError:
                pass  # the turn moved on meanwhile (the clock, the browser): look again


def act_in_the_browser(page) -> bool:
    """Check when free, else call, through the console's buttons; True if it acted. The page
    may leave for the new table at any moment (what the test waits for): a console that went
    with it acted on nothing."""
    console = page.locator("#console")
    try:
        state = console.get_attribute("data-console-state", timeout=2_000)
        if state not in ACTING:
            return False
        check = console.get_by_role("button", name="Check", exact=True)
        call = console.get_by_role("button", name="Call", exact=True)
        if check.count():
            check.click(timeout=5_000)
        elif call.count():
            call.click(timeout=5_000)
        else:
            console.get_by_role("button", name="All in", exact=True).click(timeout=5_000)
            console.get_by_role("button", name="Confirm", exact=True).click(timeout=5_000)
    except PlaywrightError:
        return False
    return True


def test_a_player_whose_table_breaks_is_taken_to_their_new_table_and_plays_on(
    stack, make_player, chromium_ready, artifacts
):
    """RULES.md 9: seven entrants over three tables of three seats (3, 2, 2). A player out at the
    first table lets the last table's two players fit at the others: it breaks between hands,
    and the clock moves them. The browser's player sees the panel, is moved, lands on the new
    table without reloading, is told "You were moved to table N", and acts there."""
    players = [make_player(f"mtt{n}") for n in range(7)]
    tournament = tournament_schedule(
        name="E2E Break",
        starts_at=timezone.now(),
        buy_in=100,
        fee=10,
        seats=3,
        starting_stack=1_000,
        level_seconds=600,
        late_registration_levels=0,
        turn_seconds=60,
        time_bank_seconds=0,
    )
    for player in players:
        mtt_register(tournament_id=tournament.pk, user=player)
    tournaments_start_due(timezone.now())
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    tables = list(Table.objects.filter(tournament=tournament).order_by("pk"))
    assert [t.seat_set.count() for t in tables] == [3, 2, 2]
    first, breaking = tables[0].pk, tables[-1].pk
    human = Seat.objects.filter(table_id=breaking).select_related("user").first().user
    cookie = session_cookie(human)
    stack.start()
    base = f"http://127.0.0.1:{stack.server.port}"
    bots = Bots(tournament.pk, first, human.pk)

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium_ready, args=CHROMIUM_ARGS)
        expect.set_options(timeout=LOADED_MACHINE_WAIT_MS)
        context = browser.new_context(
            viewport={"width": 1280, "height": 800}, reduced_motion="reduce"
        )
        context.set_default_timeout(LOADED_MACHINE_WAIT_MS)
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": base}])
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        loads = []
        page.on("load", lambda loaded: loads.append(loaded.url))
        page.goto(f"{base}/tables/{breaking}/")

        panel = page.locator("#tournament-panel")
        expect(panel).to_be_visible()
        expect(panel).to_contain_text("E2E Break")
        expect(panel).to_contain_text("7 of 7 players left")
        expect(panel).to_contain_text("1,000")  # the average stack
        expect(panel.locator(".tournament-rank")).to_contain_text(re.compile(r"1st of 7"))
        expect(panel).to_contain_text("Nothing yet")  # 7 entrants: 2 paid
        expect(panel.locator(".tournament-paid")).to_have_text("2 paid")
        expect(panel.get_by_role("link", name="Tournament")).to_have_attribute(
            "href", f"/tournaments/{tournament.pk}/"
        )
        expect(page.locator("#table-meta")).to_contain_text("Tournament")
        page.screenshot(path=str(artifacts / "mtt-table-1280.png"))

        bots.start()
        moved_to = None
        acted_there = 0
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not acted_there:
            assert not bots.errors, bots.errors
            found = re.search(r"/tables/(\d+)/", page.url)
            here = int(found.group(1)) if found else None
            if here not in (None, breaking) and moved_to is None:
                moved_to = here
                # Told at once where they are, before anything else happens.
                expect(page.locator("#moved-notice")).to_contain_text(
                    re.compile(r"You were moved to table [12]")
                )
                expect(page.locator("#action-log")).to_contain_text("You were moved to table")
                expect(page.locator("#tournament-panel")).to_contain_text("6 of 7 players left")
            if act_in_the_browser(page) and moved_to is not None and here == moved_to:
                acted_there += 1
            time.sleep(0.3)
        assert moved_to in {t.pk for t in tables[:2]}, (moved_to, page.url)
        assert acted_there, "the player did not act at their new table"
        # The page followed by itself: one load of the old table, one of the new, nothing else.
        assert [re.sub(r"^.*(/tables/\d+/).*$", r"\1", url) for url in loads] == [
            f"/tables/{breaking}/",
            f"/tables/{moved_to}/",
        ], loads
        expect(panel.locator(".tournament-rank")).to_contain_text(re.compile(r"\d+\w\w of 6"))
        expect(panel).to_contain_text("1,166")  # 7,000 chips over 6 players
        page.screenshot(path=str(artifacts / "mtt-moved-1280.png"))
        page.set_viewport_size({"width": 360, "height": 780})
        page.screenshot(path=str(artifacts / "mtt-moved-360.png"), full_page=True)
        assert not errors, errors
        context.close()
        browser.close()

    bots.running = False
    bots.join(10)
    assert not bots.errors, bots.errors
    stack.stop()  # no hand moves on while the chips are counted
    assert Seat.objects.get(user=human).table_id == moved_to
    assert not Table.objects.get(pk=breaking).seat_set.exists()
    assert Table.objects.get(pk=breaking).status == TableStatus.CLOSED
    audit = audit_chips()
    assert audit.ok, audit.summary()
