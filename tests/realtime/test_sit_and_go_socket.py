"""A whole Sit & Go played by six bots over the table websocket, on the site's ASGI app.

RULES.md 8: six players register from the lobby (its HTTP endpoint, with the CSRF token), the
tournament starts, the levels move on the server's clock, every hand is played over the sockets
with legal actions from each player's private part, and the tournament runs to one winner. The
tournament chips stay constant between hands, the audit holds at the end, the places and prizes
the table's panel shows at the end are the entries' and the ledger's (65/35 of the pool for six
entrants, shared prizes for players out together with equal chips), and every hand's record and
PokerStars text carry the tournament header.

Reproducible: time is the test's (it moves only between hands, so no turn runs out), the seats,
the buttons and the decks are drawn from seeded generators, and each bot has its own seeded
generator, so the same hands are played every run.
"""

import asyncio
import random
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db.models import Sum
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from casino.accounts.models import LedgerEntry, LedgerKind
from holdem.engine.cards import new_deck
from holdem.history.pokerstars import pokerstars_text
from holdem.models import HandRecord, Seat, SitGoTemplate, Table, Tournament, TournamentStatus
from holdem.realtime.consumers import MAX_FRAMES_PER_SECOND
from holdem.realtime.heartbeat import PROCESS_KEY
from holdem.selectors.audit import audit_chips
from holdem.services import deadlines_fire_due
from holdem.services.presence import process_beat
from holdem.services.tournaments import sit_and_go_open
from tests.holdem.conftest import clock_ran_until
from tests.mtt_bots import choose_patiently as choose
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 8
PLAYERS = 6
STACK = 300
BUY_IN, FEE = 100, 10
LEVEL_SECONDS = 20  # five hands or so a level: the blinds climb fast
WALL_LIMIT = 45  # seconds of real time the whole tournament may take


class SteppedClock:
    """The time every service and consumer in this process reads (django.utils.timezone.now).
    It stands still while a hand is played and moves only when the test moves it."""

    def __init__(self):
        self.now = timezone.now()

    def beat_and_fire(self, to):

        self.now = max(self.now, to)
        clock_ran_until(self.now)
        # This process serves the sockets: it is alive at the moved time too.
        process_beat(process_key=PROCESS_KEY, now=self.now)
        return deadlines_fire_due(self.now)


def seeded_draws(seed):
    """A stand-in for the random source of the services that draw seats and buttons."""
    draws = random.Random(seed)
    return lambda: random.Random(draws.random())


def register_over_http(tournament, players):
    """Each player registers from the lobby: the page's CSRF token, then the POST."""
    for player in players:
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(player)
        token = browser.get(reverse("lobby")).cookies["csrftoken"].value
        answer = browser.post(
            reverse("sit_and_go_register", args=[tournament.pk]), HTTP_X_CSRFTOKEN=token
        )
        assert answer.status_code == 200, answer.content
        assert player.username in answer.json()["sit_and_go"]["players"]


async def next_frame(sock, wait=0.02):
    """The next frame if one comes within `wait`, else None. (A timed-out receive would stop
    the consumer: receive_nothing does not.)"""
    if await sock.communicator.receive_nothing(timeout=wait):
        return None
    return await sock.receive()


class Bot:
    """A player's tab: acts whenever the table's turn is theirs, from their private part."""

    def __init__(self, sock, seat, rng):
        self.sock, self.seat, self.rng = sock, seat, rng
        self.acted_on = set()
        self.actions = 0

    def my_turn(self):
        table, you = self.sock.table, self.sock.you
        turn = (table or {}).get("turn")
        return (
            turn is not None
            and turn["seat"] == self.seat
            and turn["token"] not in self.acted_on
            and you is not None
            and you.get("legal") is not None
        )

    async def play(self, done):
        while not done.is_set():
            if not self.my_turn():
                await next_frame(self.sock)
                continue
            token = self.sock.table["turn"]["token"]
            self.acted_on.add(token)
            action, amount = choose(self.sock.you["legal"], self.rng)
            frame = {"type": "act", "action": action, "action_id": f"s{self.seat}-{token}"}
            if amount is not None:
                frame["amount"] = amount
            answer = await self.sock.request(frame)
            assert answer["type"] == "ok", answer
            self.actions += 1
            # A player's tab sends at most MAX_FRAMES_PER_SECOND (20) frames a second; with no
            # think time, the quick hands of a short-stacked table let a bot go over it once
            # the actions got cheaper.
            await asyncio.sleep(1 / MAX_FRAMES_PER_SECOND)


@pytest.fixture
def test_clock(monkeypatch):
    clock = SteppedClock()
    monkeypatch.setattr(timezone, "now", lambda: clock.now)
    return clock


def test_six_bots_play_a_sit_and_go_to_the_end_over_the_sockets(
    make_player, test_clock, monkeypatch
):
    """RULES.md 8: six bots play a seeded Sit & Go to one winner over the table sockets; chips
    stay constant, places and prizes are the panel's, the entries' and the ledger's (65/35)."""
    monkeypatch.setattr("holdem.services.tournaments.random_source", seeded_draws(SEED))
    monkeypatch.setattr("holdem.services.hand_start.random_source", seeded_draws(SEED + 1))
    decks = random.Random(SEED + 2)
    monkeypatch.setattr(
        "holdem.services.hand_start.hand_deck", lambda: decks.sample(new_deck(), k=52)
    )
    template = SitGoTemplate.objects.create(
        name="Socket Sit & Go",
        seats=PLAYERS,
        buy_in=BUY_IN,
        fee=FEE,
        starting_stack=STACK,
        level_seconds=LEVEL_SECONDS,
        turn_seconds=10,
        time_bank_seconds=0,
    )
    tournament = sit_and_go_open(template)
    players = [make_player(f"bot{n}") for n in range(PLAYERS)]
    watcher = make_player("rail")
    register_over_http(tournament, players)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    table_id = tournament.table_id
    seat_of = dict(tournament.entries.values_list("user__username", "seat"))
    pool = PLAYERS * BUY_IN

    @database_sync_to_async
    def between_hands():
        """The next hand's start if the table waits for one (and its chips then), else None."""
        table = Table.objects.get(pk=table_id)
        if table.in_hand or table.next_hand_at is None:
            return None
        in_seats = Seat.objects.filter(table_id=table_id).aggregate(s=Sum("stack"))["s"]
        return table.next_hand_at, in_seats

    @database_sync_to_async
    def finished():
        return Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.FINISHED

    async def scenario():
        path = f"/ws/table/{table_id}/"
        socks = [await open_socket(path, user=p, name=p.username) for p in players]
        rail = await open_socket(path, user=watcher, name="rail")
        for sock in [*socks, rail]:
            assert (await sock.receive())["type"] == "snapshot"
        assert rail.table["tournament"]["entrants"] == PLAYERS
        bots = [
            Bot(sock, seat_of[p.username], random.Random(SEED * 100 + n))
            for n, (sock, p) in enumerate(zip(socks, players))
        ]
        done = asyncio.Event()
        tasks = [asyncio.create_task(bot.play(done)) for bot in bots]
        loop = asyncio.get_running_loop()
        give_up = loop.time() + WALL_LIMIT
        hands = 0
        try:
            while not await finished():
                assert loop.time() < give_up, "the Sit & Go should have ended by now"
                for task in tasks:
                    if task.done():
                        task.result()  # a bot's failure is the test's
                waiting = await between_hands()
                if waiting is None:
                    await next_frame(rail)
                    continue
                starts_at, in_seats = waiting
                # RULES.md 8: the tournament chips are all in the seats between hands.
                assert in_seats == PLAYERS * STACK
                await database_sync_to_async(test_clock.beat_and_fire)(
                    starts_at + timedelta(milliseconds=10)
                )
                hands += 1
        finally:
            done.set()
            await asyncio.gather(*tasks, return_exceptions=True)
        # The end as every socket's table shows it.
        for sock in [*socks, rail]:
            while await next_frame(sock, wait=0.1) is not None:
                pass
        views = [sock.table for sock in [*socks, rail]]
        # RULES.md 8: as the rail saw it too, every chip of the tournament is in a seat whenever
        # no hand is in play (until the end stands the winner up).
        between = [
            f["table"]
            for f in rail.frames
            if f.get("table")
            and f["table"]["hand"] is None
            and f["table"]["tournament"]["status"] == TournamentStatus.RUNNING
        ]
        assert len(between) >= hands
        for seen in between:
            assert sum(s.get("stack", 0) for s in seen["seats"]) == PLAYERS * STACK, seen
        for sock in [*socks, rail]:
            await sock.close()
        return views, hands, sum(bot.actions for bot in bots)

    views, fired, actions = async_to_sync(scenario)()

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert actions > 0 and fired >= 1
    audit = audit_chips()
    assert audit.ok, audit.summary()
    assert tournament.prizes_paid == tournament.prize_pool == pool

    entries = list(tournament.entries.select_related("user").order_by("place", "id"))
    rows = [{"username": e.user.username, "place": e.place, "prize": e.prize} for e in entries]
    for view in views:
        panel = view["tournament"]
        assert panel["status"] == TournamentStatus.FINISHED and panel["players_left"] == 0
        assert sorted(panel["finished"], key=lambda r: (r["place"], r["username"])) == sorted(
            rows, key=lambda r: (r["place"], r["username"])
        )
    # The ledger paid exactly the prizes the entries show, one line per prize.
    paid = LedgerEntry.objects.filter(kind=LedgerKind.TOURNAMENT_PRIZE)
    ledger = {}
    for username, amount in paid.values_list("user__username", "amount"):
        ledger[username] = ledger.get(username, 0) + amount
    assert ledger == {r["username"]: r["prize"] for r in rows if r["prize"]}

    # RULES.md 8: 65/35 of the pool for six entrants; players out in the same hand with the same
    # chips share the prizes of the places they take, a chip apart at most.
    prizes = [pool * 65 // 100, pool * 35 // 100] + [0] * (PLAYERS - 2)
    prizes[0] += pool - sum(prizes)
    assert sum(e.place == 1 for e in entries) == 1
    by_place = {}
    for entry in entries:
        by_place.setdefault(entry.place, []).append(entry.prize)
    for place, shared in by_place.items():
        assert sum(shared) == sum(prizes[place - 1 : place - 1 + len(shared)])
        assert max(shared) - min(shared) <= 1
    # Each group is given the best place of those it takes: the places walk down to the last.
    expected = 1
    for place in sorted(by_place):
        assert place == expected
        expected += len(by_place[place])
    assert expected == PLAYERS + 1

    # Every hand's record opens with the tournament header (RULES.md 8 records).
    records = list(HandRecord.objects.filter(table_id=tournament.table_id).order_by("number"))
    assert len(records) == fired
    levels = set()
    for record in records:
        assert record.tournament["id"] == tournament.pk
        levels.add(record.tournament["level"])
        first_line = pokerstars_text(record).splitlines()[0]
        assert f": Tournament #{tournament.pk}, {BUY_IN}+{FEE} Hold'em No Limit - Level " in (
            first_line
        )
    assert len(levels) >= 2, (
        f"{fired} hands, {levels}: the levels should have moved on during the tournament"
    )
