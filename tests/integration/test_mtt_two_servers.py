"""A multi-table tournament served by two real Daphne servers, with the real clock (Celery beat
and a worker), and the lock order of its services under concurrent calls (RULES.md 9).

The first test plays a whole tournament: its players on both servers, late entrants registering
from two connections at once (as the two servers' registrations would) while hands end at
several tables and the clock moves players and breaks tables. Looked at in one snapshot of the
database at a time, nobody ever sits twice, no seat is given twice, the chips are all there; at
the end every player's hands follow on from each other across the moves (no chip changes tables
without its player), and the prizes are the payout table's.

The second calls the services that lock several rows of one tournament, from several threads at
once: the clock's sweeps (deals, levels, moves), tournament_rebalance, late registrations and
the players' actions. The lock order (holdem/services/multi_table.py: the tournament's tables in
increasing id, then the tournament, then wallets) means none of them waits for another forever
and PostgreSQL never finds a deadlock to break.
"""

import asyncio
import contextlib
import random
import threading
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.db import OperationalError, close_old_connections, connection
from django.utils import timezone

from casino.errors import DomainError
from holdem import engine
from holdem.engine.tournament_tables import default_payouts, prizes_of
from holdem.models import Seat, Table, TableStatus, Tournament, TournamentStatus
from holdem.services import deadlines_fire_due, table_act
from holdem.services.multi_table import (
    mtt_register,
    tournament_levels_fire_due,
    tournament_rebalance,
)
from tests.holdem.conftest import chips_everywhere
from tests.holdem.mtt_checks import (
    OWED_AT_MOST,
    Observer,
    check_invariants,
    check_places_and_prizes,
    check_stacks_follow_their_players,
    quick_tournament,
)
from tests.integration.live_site import session_cookie, tab_opener
from tests.mtt_bots import MttBot, choose_patiently

pytestmark = pytest.mark.django_db(transaction=True)

WALL_LIMIT = 300


def register_at_once(tournament_id, groups):
    """Each group of players registers, one after another, on a connection of its own; the groups
    start together. Returns the refusals' codes."""
    barrier = threading.Barrier(len(groups))
    refused = []

    def register(players):
        try:
            barrier.wait()
            for player in players:
                try:
                    mtt_register(tournament_id=tournament_id, user=player)
                except DomainError as error:
                    refused.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=register, args=(group,)) for group in groups]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(t.is_alive() for t in threads), "a registration never returned"
    return refused


@pytest.mark.timeout(WALL_LIMIT + 200)
def test_two_servers_late_entrants_from_both_and_moves_while_hands_end(stack_of, make_player):
    """RULES.md 9: twelve players on two servers start at two tables; ten more enter late from
    two connections at once while hands are played (a third and a fourth table open), the clock
    balances and breaks the tables down to one: nobody is seated twice, no seat given twice,
    the chips conserved at every snapshot and carried only by their players; the payout table's
    prizes through the ledger."""
    site = stack_of(servers=2)
    tournament = quick_tournament("Two servers MTT", late_registration_levels=2)
    early = [make_player(f"early{n}") for n in range(12)]
    late = [make_player(f"late{n}") for n in range(10)]
    for player in early:
        mtt_register(tournament_id=tournament.pk, user=player)
    cookies = {p.pk: session_cookie(p) for p in early + late}
    observer = Observer(tournament.pk)
    site.start()

    def look():
        try:
            return observer.look()
        finally:
            close_old_connections()

    async def scenario():
        rng = random.Random(11)
        bots = []
        for n, player in enumerate(early + late):
            port = site.ports[n % 2]  # every other player on the other server
            opener = tab_opener(port, cookies[player.pk], player.username)
            bot = MttBot(
                player.username, opener, random.Random(rng.random()), choose=choose_patiently
            )
            bots.append(await bot.open())
        await asyncio.to_thread(
            lambda: Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
        )
        done = asyncio.Event()
        tasks = [asyncio.create_task(bot.run(done)) for bot in bots]
        loop = asyncio.get_running_loop()
        give_up = loop.time() + WALL_LIMIT
        registering = None
        try:
            while True:
                for task in tasks:
                    if task.done():
                        task.result()
                view = await asyncio.to_thread(look)
                if view.status == TournamentStatus.FINISHED:
                    break
                assert loop.time() < give_up, f"not over after {WALL_LIMIT} s: {view}"
                if registering is None and view.hands_ended >= 2:
                    # Hands are played at both tables: the late entrants come, from both
                    # servers' connections at once, while the snapshots go on.
                    registering = asyncio.create_task(
                        asyncio.to_thread(register_at_once, tournament.pk, [late[:5], late[5:]])
                    )
                await asyncio.sleep(0.3)
        finally:
            done.set()
            results = await asyncio.gather(*tasks, return_exceptions=True)
            for bot in bots:
                await bot.close()
        failures = [r for r in results if isinstance(r, BaseException)]
        assert not failures, failures
        assert registering is not None and registering.done()
        refused = registering.result()
        return bots, refused

    bots, refused = async_to_sync(scenario)()
    site.stop()

    tournament.refresh_from_db()
    assert refused == [], refused  # every late entry was taken
    assert tournament.entrants == 22 and tournament.entries.count() == 22
    tables = list(Table.objects.filter(tournament=tournament))
    moves = sum(len(bot.moves) for bot in bots)
    print(
        f"22 players, {len(tables)} tables, {observer.hands_seen} hands, {moves} moves followed, "
        f"{observer.views} snapshots, a move owed at most {observer.longest_owed:.1f} s"
    )
    assert len(tables) >= 4  # the late entrants filled two tables and opened more
    assert all(t.status == TableStatus.CLOSED for t in tables)
    assert moves >= 1 and observer.longest_owed < OWED_AT_MOST
    # Every late entrant heard where to sit on ws/me/ and played there.
    assert all(bot.actions for bot in bots if bot.name.startswith("late"))
    assert check_stacks_follow_their_players(tournament) > observer.hands_seen
    check_places_and_prizes(tournament, prizes_of(22 * 100, default_payouts(22)))
    chips_everywhere()


def play_some(table_id, rng):
    """The player to act at the table acts (a random legal action), if anyone is; a refusal
    because the hand moved on meanwhile (another thread acted, the clock ended it) is fine."""
    table = Table.objects.get(pk=table_id)
    if not table.in_hand:
        return
    state = engine.state_from_json(table.hand_state)
    if state.to_act is None:
        return
    legal = engine.legal_actions(state)
    seat = Seat.objects.filter(table_id=table_id, number=legal.seat).select_related("user").first()
    if seat is None:
        return
    action = rng.choice(legal.actions)
    amount = rng.randint(legal.min_to, legal.max_to) if action in ("bet", "raise") else None
    with contextlib.suppress(DomainError):
        table_act(table_id=table_id, user=seat.user, action=action, amount=amount)


@pytest.mark.timeout(240)
def test_the_services_that_lock_a_tournament_never_deadlock(postgres, make_player):
    """RULES.md 9, the lock order: threads calling the clock (deals, holds, levels, moves and
    breaks), tournament_rebalance, late registration, the level clock and the players' actions
    on one tournament at once all return, PostgreSQL reports no deadlock, and afterwards nobody
    sits twice and every chip is there."""
    tournament = quick_tournament(
        "Lock order", late_registration_levels=50, starts_at=timezone.now()
    )
    for n in range(20):
        mtt_register(tournament_id=tournament.pk, user=make_player(f"in{n}"))
    late = [make_player(f"racer{n}") for n in range(12)]
    deadlines_fire_due()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    Table.objects.filter(tournament=tournament).update(next_hand_at=timezone.now())
    stop_at = time.monotonic() + 25
    failures, calls = [], {}

    def loop(name, step):
        rng = random.Random(name)
        try:
            while time.monotonic() < stop_at:
                try:
                    step(rng)
                    calls[name] = calls.get(name, 0) + 1
                except DomainError:
                    calls[name] = calls.get(name, 0) + 1
                except OperationalError as error:  # a deadlock PostgreSQL broke, or a lock timeout
                    failures.append((name, error))
                    return
        except Exception as error:
            failures.append((name, error))
        finally:
            connection.close()

    def table_ids():
        return list(
            Table.objects.filter(tournament=tournament, status=TableStatus.OPEN).values_list(
                "pk", flat=True
            )
        )

    def act(rng):
        for table_id in table_ids():
            play_some(table_id, rng)

    def register(rng):
        if late:
            mtt_register(tournament_id=tournament.pk, user=late.pop())
        time.sleep(rng.uniform(0.2, 1.0))

    def levels(rng):
        # A level ends now and then: it locks every table of the tournament, then the row.
        ends = timezone.now() + timedelta(seconds=rng.uniform(0, 2))
        tournament_levels_fire_due(ends)
        time.sleep(rng.uniform(2, 5))

    moved = []

    def rebalance(rng):
        moved.append(tournament_rebalance(tournament.pk))

    def clock(rng):
        moved.append(
            deadlines_fire_due(timezone.now() + timedelta(seconds=5)).get("players_moved", 0)
        )

    steps = {
        "clock": clock,
        "rebalance": rebalance,
        "act-1": act,
        "act-2": act,
        "register-1": register,
        "register-2": register,
        "levels": levels,
    }
    threads = [threading.Thread(target=loop, args=item) for item in steps.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    stuck = [t for t in threads if t.is_alive()]
    assert not stuck, "a thread never returned: the services wait for each other"
    assert not failures, failures
    print(f"calls made: {calls}; players moved: {sum(moved)}")
    assert all(calls.get(name) for name in steps), calls
    assert sum(moved) >= 1  # moves (and breaks) were made among the other calls
    tournament.refresh_from_db()
    assert tournament.entrants == 32 - len(late)
    check_invariants(tournament)
