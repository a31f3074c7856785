"""A whole multi-table tournament played by forty bots over the site's sockets (RULES.md 9).

Forty real players register in a scheduled tournament of 8-seat tables; each opens ws/me/ as a
page's header does, hears there at which table the start put them (`tournament_started`), opens
that table's socket and answers each of their turns with a random legal action. The clock is the
real one, run here every half second as beat runs it (deadlines_fire_due: deals, turn clocks,
levels, the start, the moves and breaks). When the clock moves a player, their socket at the old
table says so (`moved_out`) and ws/me/ names the new table (`tournament_moved`): the bot opens it
and plays on. The tournament starts over five tables and breaks them down to one.

Meanwhile the tournament is looked at in one snapshot of the database at a time, several times a
second (tests/holdem/mtt_checks.py): every live entrant sits once, the tournament chips are all
in the seats and the hands in play, the site's chip audit holds, and no table is two players
fuller than another between hands but while it waits for the fullest table's hand to end, or
for the clock's next sweep. At the end: every player's hands follow on from each other across
the moves (no chip changes tables without its player), the places and prizes are the default
payout table's, paid through the ledger, and no turn ran out (every player to act had their
table's socket).
"""

import asyncio
import random
import time
from collections import Counter
from itertools import pairwise

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db.models import Max
from django.utils import timezone

from holdem.engine.tournament_tables import default_payouts, prizes_of
from holdem.models import HandRecord, Table, TableStatus, Tournament, TournamentStatus
from holdem.selectors.multi_table import mtt_prize_table
from holdem.services import deadlines_fire_due
from holdem.services.multi_table import mtt_register
from holdem.services.tournaments import BETWEEN_HANDS_SECONDS
from tests.holdem.conftest import chips_everywhere
from tests.holdem.mtt_checks import (
    OWED_AT_MOST,
    Observer,
    check_places_and_prizes,
    check_stacks_follow_their_players,
    quick_tournament,
)
from tests.mtt_bots import MttBot, choose_patiently, first_frames
from tests.realtime.conftest import open_tab

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

SEED = 9
PLAYERS, SEATS = 40, 8
BUY_IN, FEE = 100, 10
WALL_LIMIT = 240  # seconds of real time the whole tournament may take
CLOCK_EVERY = 0.5  # seconds between two runs of the clock (beat runs it every second)
LOOK_EVERY = 0.25  # seconds between two snapshots


@pytest.mark.timeout(WALL_LIMIT + 120)
def test_forty_bots_play_a_multi_table_tournament_to_the_end_over_the_sockets(make_player):
    """RULES.md 9: forty bots over five tables, moved and broken down to one by the real clock,
    play to one winner over their sockets: seated once, chips conserved and balanced at every
    snapshot, chips that change tables only with their player, the payout table's prizes."""
    tournament = quick_tournament(
        "Socket MTT", seats=SEATS, late_registration_levels=0, buy_in=BUY_IN, fee=FEE
    )
    players = [make_player(f"mtt{n}") for n in range(PLAYERS)]
    for player in players:
        mtt_register(tournament_id=tournament.pk, user=player)
    observer = Observer(tournament.pk)
    clock_counts: dict[str, int] = {}

    def clock_tick():
        for name, count in deadlines_fire_due().items():
            clock_counts[name] = clock_counts.get(name, 0) + count

    # The clock and the snapshots run in threads of their own (their own connections), beside
    # the one thread the consumers' database work runs in.
    tick = database_sync_to_async(clock_tick, thread_sensitive=False)
    look = database_sync_to_async(observer.look, thread_sensitive=False)

    async def every(seconds, step, done):
        while not done.is_set():
            await step()
            await asyncio.sleep(seconds)

    async def scenario():
        rng = random.Random(SEED)
        bots = []
        for player in players:

            async def opener(path, player=player):
                return await open_tab(path, player, f"{player.username} {path}", first_frames(path))

            bot = MttBot(
                player.username, opener, random.Random(rng.random()), choose=choose_patiently
            )
            bots.append(await bot.open())
        # Everyone is listening: the tournament's time comes.
        await database_sync_to_async(
            Tournament.objects.filter(pk=tournament.pk).update, thread_sensitive=False
        )(starts_at=timezone.now())
        done = asyncio.Event()
        loop = asyncio.get_running_loop()
        tasks = [asyncio.create_task(bot.run(done)) for bot in bots]
        tasks.append(asyncio.create_task(every(CLOCK_EVERY, tick, done)))
        give_up = loop.time() + WALL_LIMIT
        looks = []
        try:
            while True:
                for task in tasks:
                    if task.done():
                        task.result()  # a bot's or the clock's failure is the test's
                view = await look()
                looks.append(time.monotonic())
                if view.status == TournamentStatus.FINISHED:
                    break
                assert loop.time() < give_up, f"not over after {WALL_LIMIT} s: {view}"
                await asyncio.sleep(LOOK_EVERY)
        finally:
            done.set()
            results = await asyncio.gather(*tasks, return_exceptions=True)
            for bot in bots:
                await bot.close()
        failures = [r for r in results if isinstance(r, BaseException)]
        assert not failures, failures
        return bots, looks

    started = time.monotonic()
    bots, looks = async_to_sync(scenario)()
    took = time.monotonic() - started

    tournament.refresh_from_db()
    hands = HandRecord.objects.filter(table__tournament=tournament).count()
    tables = list(Table.objects.filter(tournament=tournament).order_by("id"))
    moves = [move for bot in bots for move in bot.moves]
    print(
        f"{PLAYERS} bots, {len(tables)} tables: {took:.0f} s, {hands} hands, {len(moves)} moves "
        f"followed ({sum(b.played_after_move for b in bots)} played on at the new table), level "
        f"{tournament.level + 1}, {observer.views} snapshots, a move owed at most "
        f"{observer.longest_owed:.1f} s, clock {clock_counts}"
    )
    # Five tables at the start, broken down to the final one, which played on alone and closed
    # with the end.
    assert len(tables) == PLAYERS // SEATS
    assert all(t.status == TableStatus.CLOSED for t in tables)
    last = HandRecord.objects.filter(table__tournament=tournament).latest("id")
    others = HandRecord.objects.filter(table__tournament=tournament).exclude(table=last.table_id)
    assert others.aggregate(end=Max("ended_at"))["end"] < last.started_at
    # Snapshots every fraction of a second: each hand's end was looked at before its table
    # dealt again (four seconds between two hands: BETWEEN_HANDS_SECONDS).
    assert max(b - a for a, b in pairwise(looks)) < BETWEEN_HANDS_SECONDS
    assert observer.hands_seen == hands
    assert observer.longest_owed < OWED_AT_MOST
    # The players the clock moved followed: their old table said so, ws/me/ named the new
    # one, and they played on there (a player moved onto a table may go out before acting).
    assert moves and observer.moves_seen <= len(moves)
    assert sum(bot.played_after_move for bot in bots) >= len(moves) * 3 // 4
    assert clock_counts.get("timeouts", 0) == 0, "a turn ran out: a player lost their socket"
    assert sum(bot.actions for bot in bots) > hands
    refused = sum((bot.refused for bot in bots), start=Counter())
    assert not refused, refused
    assert tournament.level >= 2, "the levels should have moved on during the tournament"

    assert check_stacks_follow_their_players(tournament) >= hands * 2
    pool = PLAYERS * BUY_IN
    table = prizes_of(pool, default_payouts(PLAYERS))
    assert mtt_prize_table(tournament) == table and len(table) == 6  # 15% of 40, rounded up
    check_places_and_prizes(tournament, table)
    chips_everywhere()
