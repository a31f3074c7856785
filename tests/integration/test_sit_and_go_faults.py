"""A Sit & Go under a crash, with real processes: the web server and the Celery worker with its
beat (the level clock) are SIGKILLed mid-hand, left down for longer than the level had to run,
and restarted. The hand goes on from its stored deck, the level is not eaten by the downtime, the
hand is played out through the sockets, and no chip is lost."""

import asyncio
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db.models import Sum
from django.utils import timezone

from holdem import engine
from holdem.models import (
    HandRecord,
    Seat,
    SitGoTemplate,
    Table,
    Tournament,
    TournamentStatus,
)
from holdem.selectors.audit import audit_chips
from holdem.services.tournaments import sit_and_go_open, tournament_register
from tests.integration.live_site import Player, last_beat, session_cookie, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

LEVEL_SECONDS = 20


@pytest.fixture
def stack(stack_of):
    return stack_of(1)


def hand_now(table_id: int):
    """(the table's hand state, its turn token, the HandRecord in play) as stored."""
    table = Table.objects.get(pk=table_id)
    state = engine.state_from_json(table.hand_state) if table.hand_state else None
    return state, table.turn_token, table.hand_id


def tournament_chips(tournament: Tournament) -> int:
    """Tournament chips on the table: the stacks plus everything in the hand in play."""
    stacks = Seat.objects.filter(table_id=tournament.table_id).aggregate(s=Sum("stack"))["s"]
    state, _, _ = hand_now(tournament.table_id)
    return (stacks or 0) + (state.total_chips if state else 0)


async def act(players: dict, table_id: int, action: str) -> None:
    """The player to act sends `action` on their socket, with the turn token the table shows."""
    state, token, _ = await database_sync_to_async(hand_now)(table_id)
    assert state is not None and state.to_act is not None, "nobody is to act"
    answer = await players[state.to_act].request({"type": "act", "action": action, "turn": token})
    assert answer["type"] == "ok", answer


def test_a_crash_of_every_process_mid_hand_resumes_the_tournament(stack, make_player):
    """RULES.md 8: a Sit & Go survives `kill -9` of every process mid-hand and a restart: the
    same hand goes on with its stored deck (the turn and river come from it), the level clock is
    extended by the downtime instead of losing the level, and no chip, tournament or wallet,
    appears or vanishes."""
    template = SitGoTemplate.objects.create(
        name="Crash Sit & Go",
        seats=2,
        buy_in=500,
        fee=50,
        starting_stack=1_500,
        level_seconds=LEVEL_SECONDS,
        turn_seconds=30,
        time_bank_seconds=0,
        active=False,  # no fresh one opens behind it: the audit sees this one alone
    )
    tournament = sit_and_go_open(template)
    users = [make_player("ann"), make_player("ben")]
    for user in users:
        tournament_register(tournament_id=tournament.pk, user=user)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    table_id = tournament.table_id
    # The 10 s countdown to the first hand is skipped: the hand is due now and the first
    # level runs its whole length from it, as it would have from the end of the countdown.
    now = timezone.now()
    Table.objects.filter(pk=table_id).update(next_hand_at=now)
    Tournament.objects.filter(pk=tournament.pk).update(
        level_ends_at=now + timedelta(seconds=LEVEL_SECONDS)
    )
    seat_of = dict(Seat.objects.filter(table_id=table_id).values_list("user_id", "number"))
    cookies = {seat_of[u.pk]: session_cookie(u) for u in users}
    path = f"/ws/table/{table_id}/"
    stack.start()

    async def connect() -> dict:
        return {
            seat: await Player(f"seat {seat}").connect(stack.server.port, path, cookie)
            for seat, cookie in cookies.items()
        }

    async def scenario():
        dealt = await asyncio.to_thread(
            wait_until, lambda: Table.objects.get(pk=table_id).in_hand, 30
        )
        assert dealt, "beat did not deal the first hand"
        players = await connect()
        await act(players, table_id, "call")  # the button (small blind) completes
        await act(players, table_id, "check")  # the big blind checks: the flop
        await act(players, table_id, "check")  # the big blind checks the flop; the button is next
        for player in players.values():
            await player.close()
        return players

    async_to_sync(scenario)()

    stack.kill()
    killed_at = time.monotonic()
    before_beat = last_beat()
    state, _, hand_id = hand_now(table_id)
    record = HandRecord.objects.get(pk=hand_id)
    deck = list(record.deck)
    hand_state_text = Table.objects.get(pk=table_id).hand_state
    tournament.refresh_from_db()
    level, ends = tournament.level, tournament.level_ends_at
    assert state is not None and len(state.board) == 3 and state.to_act is not None
    assert level == 0 and ends > before_beat
    # The board still to come is the stored deck's, right after the hole cards.
    dealt_in = len(state.players)
    assert list(state.stub) == deck[2 * dealt_in : 2 * dealt_in + 8]
    assert list(state.board) == deck[2 * dealt_in + 1 : 2 * dealt_in + 4]
    holes = {p.seat: p.hole for p in state.players}
    assert sorted(c for hole in holes.values() for c in hole) == sorted(deck[: 2 * dealt_in])
    assert tournament_chips(tournament) == 2 * 1_500

    # Down until well after the level would have ended, and longer than the clock's threshold
    # for downtime (holdem/services/clock.py, DOWNTIME_SECONDS).
    down = max(7.0, (ends - timezone.now()).total_seconds() + 2)
    time.sleep(down)
    assert Table.objects.get(pk=table_id).hand_state == hand_state_text  # nothing ran meanwhile
    restarted_at = time.monotonic()
    stack.start()
    assert wait_until(lambda: last_beat() > before_beat, 30, step=0.05), "beat did not resume"
    first_beat = last_beat()

    # The level was not eaten: still the first, its end pushed back by the silence.
    tournament.refresh_from_db()
    assert tournament.level == level
    extended = (tournament.level_ends_at - ends).total_seconds()
    assert extended >= restarted_at - killed_at, (extended, restarted_at - killed_at)
    assert abs(extended - (first_beat - before_beat).total_seconds()) < 1.5, extended
    assert tournament.level_ends_at > timezone.now()
    print(
        f"down {restarted_at - killed_at:.1f} s, the clock silent {extended:.1f} s, the level extended by it"
    )

    async def finish():
        players = await connect()
        snapshot = players[state.to_act].frames[0]["table"]["hand"]
        assert snapshot is not None  # the same hand, shown to the players coming back
        assert await database_sync_to_async(lambda: hand_now(table_id)[2])() == hand_id
        while True:
            now_state, _, now_hand = await database_sync_to_async(hand_now)(table_id)
            if now_hand != hand_id or now_state is None or now_state.to_act is None:
                break
            await act(players, table_id, "check")
        for player in players.values():
            await player.close()

    async_to_sync(finish)()
    assert wait_until(lambda: HandRecord.objects.get(pk=hand_id).ended_at is not None, 10), (
        "the hand did not end"
    )
    stack.stop()  # no next hand starts while the chips are counted

    record.refresh_from_db()
    assert list(record.deck) == deck  # the stored deck, untouched
    # The turn and the river came from it: burn, flop, burn, turn, burn, river.
    stub = deck[2 * dealt_in : 2 * dealt_in + 8]
    assert list(record.board) == [stub[1], stub[2], stub[3], stub[5], stub[7]]
    final = engine.state_from_json(record.final_state)
    assert {p.seat: p.hole for p in final.players} == holes  # nobody was dealt again
    assert HandRecord.objects.filter(table_id=table_id).count() <= 2
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    assert tournament_chips(tournament) == tournament.entrants * tournament.starting_stack
    audit = audit_chips()
    assert audit.ok, audit.summary()
