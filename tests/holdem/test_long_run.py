"""500 hands of random legal play through the services: the books balance, every stored hand
replays through the engine to the result that was paid, and the history's hash chains hold.

The 500 hands are played as four runs of 125 with their own seeds (and stacks), so pytest-xdist
can play them side by side; LONG_RUN_HANDS sets the total (make test-fast plays 100)."""

import random

import pytest

from holdem import engine
from holdem.history.stored_hand import replay_record
from holdem.models import HandRecord, Seat
from holdem.selectors.chains import chains_audit
from holdem.services import table_act, table_sit
from tests.holdem.conftest import chips_everywhere, current

pytestmark = pytest.mark.django_db
RUNS = 4
HANDS = int(__import__("os").environ.get("LONG_RUN_HANDS", "500")) // RUNS


@pytest.mark.parametrize("run", range(RUNS))
def test_500_random_hands_keep_every_chip_and_replay_exactly(run, seated, clock, make_player):
    rng = random.Random(500 + run)
    stacks = [
        [2_000, 4_000, 9_000],
        [3_000, 3_000, 3_000],
        [2_000, 10_000, 5_000],
        [9_000, 2_500, 4_000],
    ]
    table, users = seated("nl50", seats=(0, 3, 8), stacks=stacks[run])
    spares = [make_player() for _ in range(40)]
    played = 0
    while played < HANDS:
        # Busted players leave (the service stands them up); new ones take their seats.
        taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
        for number in set(users) - taken:
            newcomer = spares.pop() if spares else make_player()
            table_sit(
                table_id=table.pk, user=newcomer, seat=number, buy_in=rng.randint(2_000, 10_000)
            )
            users[number] = newcomer
        clock.advance(31)
        while (state := current(table)) is not None:
            legal = engine.legal_actions(state)
            calm = [a for a in legal.actions if a != "all_in"] or list(legal.actions)
            action = rng.choice(legal.actions if rng.random() < 0.03 else calm)
            amount = None
            if action in ("bet", "raise"):
                amount = rng.randint(legal.min_to, min(legal.max_to, legal.min_to * 2))
            table_act(table_id=table.pk, user=users[legal.seat], action=action, amount=amount)
        played += 1
    chips_everywhere()
    history = chains_audit()
    assert history.ok and history.hands == HANDS, history.summary()
    records = HandRecord.objects.filter(table=table).prefetch_related("actions")
    assert records.count() == HANDS
    for record in records:
        final, _ = replay_record(record)
        assert dict(final.result.final_stacks) == {
            p["seat"]: p["stack_after"] for p in record.players
        }, record.pk
        assert final.result.rake == record.rake
