"""The integrity scoring, signal by signal, on hands written as the hand services store them
(a record with each player's net, the action log with its times): docs/integrity.md."""

import asyncio
import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from casino.accounts.models import LedgerKind, TraceKind
from casino.accounts.services import account_trace_record, wallet_adjust
from holdem.models import HandAction, HandRecord, PairScore
from holdem.realtime.embedded_clock import EmbeddedClock
from holdem.services.integrity import (
    FLOW_SAMPLE,
    TIMING_SAMPLE,
    WEIGHTS,
    WINDOW,
    integrity_pairs_score,
    timing_regularity,
)
from holdem.tasks import score_pairs

pytestmark = pytest.mark.django_db


HUMAN_DELAYS = itertools.cycle([1.5, 9.0, 3.2, 22.0, 4.4, 2.1, 14.0, 6.5])


class Hands:
    """Finished cash hands at one room, written straight into the history."""

    def __init__(self, table, clock):
        self.table = table
        self.clock = clock
        self.count = 0

    def play(self, nets: dict, actions=(), *, tournament=None, think=None):
        """A hand whose players end with these nets ({user: chips}); `actions` are
        (user, action, street) in order, each `think` seconds after the one before (by
        default a human's spread of delays)."""
        think = think or (lambda: next(HUMAN_DELAYS))
        self.count += 1
        started = self.clock.now
        record = HandRecord.objects.create(
            table=self.table,
            number=self.count,
            started_at=started,
            button_seat=0,
            options={},
            players=[
                {"seat": n, "user_id": u.pk, "username": u.username, "net": net}
                for n, (u, net) in enumerate(nets.items())
            ],
            deck=[],
            tournament=tournament,
        )
        seats = {u: n for n, u in enumerate(nets)}
        for index, (user, action, street) in enumerate(actions):
            self.clock.now += timedelta(seconds=think())
            HandAction.objects.create(
                hand=record,
                index=index,
                seat=seats[user],
                user=user,
                action=action,
                street=street,
            )
        self.clock.now += timedelta(seconds=5)
        record.ended_at = self.clock.now
        record.save(update_fields=["ended_at"])
        return record


@pytest.fixture
def hands(room, clock):
    return Hands(room("nl50"), clock)


def score_of(source, target):
    return PairScore.objects.filter(source=source, target=target).first()


def test_chips_lost_to_one_player_beyond_his_usual_take_score_the_flow(hands, make_player):
    dumper, partner, other = make_player(), make_player(), make_player()
    played = []
    for n in range(30):
        played.append(hands.play({dumper: -300, partner: 300, other: 0}).pk)
        # The other player's losses go half to the partner, half to the dumper, and back.
        if n % 2:
            hands.play({dumper: 100, partner: 100, other: -200})
        else:
            hands.play({dumper: -100, partner: -100, other: 200})
    integrity_pairs_score()
    dumping = score_of(dumper, partner)
    # The partner won 9,000 of the dumper's 10,500 lost at its hands (6/7), and half of the
    # other player's losses: (6/7 - 1/2) / (1 - 1/2) = 5/7.
    assert dumping.flow == pytest.approx(5 / 7, abs=0.001)
    assert dumping.total == pytest.approx(WEIGHTS["flow"] * 5 / 7, abs=0.01)
    assert dumping.net_chips == 9_000
    assert dumping.hands_together == 60
    assert set(played) <= set(dumping.hand_ids)
    assert dumping.hand_ids == sorted(dumping.hand_ids, reverse=True)
    assert score_of(other, partner) is None  # what went one way came back
    assert score_of(partner, dumper) is None  # chips went the other way: nothing to see


def test_a_strong_winner_who_takes_from_everyone_alike_has_no_flow_signal(hands, make_player):
    shark, *fish = make_player(), make_player(), make_player(), make_player()
    for _ in range(FLOW_SAMPLE + 5):
        hands.play({shark: 300, fish[0]: -100, fish[1]: -100, fish[2]: -100})
    integrity_pairs_score()
    for each in fish:
        assert score_of(each, shark) is None


def test_heads_up_the_flow_is_how_one_sided_the_chips_went(hands, make_player):
    a, b = make_player(), make_player()
    for n in range(40):
        hands.play({a: -100, b: 100} if n % 4 else {a: 100, b: -100})
    integrity_pairs_score()
    # 30 hands lost, 10 won back: (3,000 - 1,000) / (3,000 + 1,000).
    assert score_of(a, b).flow == 0.5


def test_few_hands_count_for_little(hands, make_player):
    a, b, c = make_player(), make_player(), make_player()
    for _ in range(FLOW_SAMPLE // 4):
        hands.play({a: -300, b: 300, c: 0})
    integrity_pairs_score()
    assert score_of(a, b).flow == pytest.approx(0.25)


def test_folding_to_one_players_bets_and_not_to_others_scores_the_folds(hands, make_player):
    a, b, c = make_player(), make_player(), make_player()
    for _ in range(12):
        # b bets, a folds; c bets, a calls. Nobody's chips move (the signal is the folds alone).
        hands.play(
            {a: 0, b: 0, c: 0},
            [(b, "bet", "flop"), (a, "fold", "flop"), (c, "call", "flop")],
        )
        hands.play(
            {a: 0, b: 0, c: 0},
            [(c, "bet", "flop"), (a, "call", "flop"), (b, "fold", "flop")],
        )
    integrity_pairs_score()
    soft = score_of(a, b)
    assert soft.folds == 1.0 and soft.flow == 0
    assert soft.total == WEIGHTS["folds"]
    assert len(soft.hand_ids) == 12
    assert score_of(a, c) is None
    # b faces c's bets only: its folds are set against everyone's (half the bets faced), and
    # folding to all of them takes all the room that leaves.
    assert score_of(b, c).folds == 1.0


def test_a_bet_of_an_earlier_round_is_not_faced_on_the_next(hands, make_player):
    a, b = make_player(), make_player()
    for _ in range(12):
        hands.play(
            {a: 0, b: 0},
            [(b, "bet", "flop"), (a, "call", "flop"), (b, "check", "turn"), (a, "check", "turn")],
        )
    integrity_pairs_score()
    assert score_of(a, b) is None


def test_free_chips_claimed_then_lost_to_one_player_score_until_a_day_later(
    hands, make_player, clock
):
    farmer, receiver, other = make_player(), make_player(), make_player()
    wallet_adjust(user=farmer, amount=2_000, kind=LedgerKind.REFILL, reason="Free chips")
    lost = hands.play({farmer: -1_000, receiver: 1_000, other: 0})
    clock.now += timedelta(hours=25)
    hands.play({farmer: -500, receiver: 500, other: 0})  # too late to be the claim's chips
    hands.play({farmer: -500, other: 500, receiver: 0})
    integrity_pairs_score()
    farming = score_of(farmer, receiver)
    assert farming.free_chips == 0.5  # 1,000 of the 2,000 claimed
    assert lost.pk in farming.hand_ids
    assert score_of(farmer, other).free_chips == 0


def test_accounts_sharing_a_device_or_sign_up_address_are_linked_both_ways(hands, make_player):
    a, b, c = make_player(), make_player(), make_player()
    account_trace_record(user=a, kind=TraceKind.DEVICE, value="browser-one")
    account_trace_record(user=b, kind=TraceKind.DEVICE, value="browser-one")
    account_trace_record(user=c, kind=TraceKind.DEVICE, value="browser-two")
    account_trace_record(user=c, kind=TraceKind.SIGNUP_ADDRESS, value="203.0.113.9")
    hands.play({a: 0, b: 0, c: 0})
    integrity_pairs_score()
    assert score_of(a, b).linked == 1.0 and score_of(b, a).linked == 1.0
    assert score_of(a, b).total == WEIGHTS["linked"]
    assert score_of(a, c) is None and score_of(c, b) is None


def test_a_device_seen_for_one_kind_does_not_match_an_address_of_the_same_text(hands, make_player):
    a, b = make_player(), make_player()
    account_trace_record(user=a, kind=TraceKind.DEVICE, value="203.0.113.9")
    account_trace_record(user=b, kind=TraceKind.SIGNUP_ADDRESS, value="203.0.113.9")
    hands.play({a: 0, b: 0})
    integrity_pairs_score()
    assert not PairScore.objects.exists()


def test_answers_timed_like_a_machine_score_the_timing_of_every_pair_with_the_bot(
    hands, make_player
):
    bot, human, other = make_player(), make_player(), make_player()
    for _ in range(TIMING_SAMPLE):
        hands.play({bot: 0, human: 0}, [(bot, "check", "flop")], think=lambda: 2.0)
        hands.play({human: 0, other: 0}, [(human, "check", "flop")])
    integrity_pairs_score()
    assert score_of(human, bot).timing == 1.0 and score_of(bot, human).timing == 1.0
    assert score_of(human, other) is None


def test_timing_regularity_is_one_for_a_fixed_delay_and_zero_for_a_human_spread():
    assert timing_regularity([2.0] * TIMING_SAMPLE) == 1.0
    assert timing_regularity([1.0, 9.0, 3.0, 20.0, 5.0] * 10) == 0.0
    assert timing_regularity([2.0] * (TIMING_SAMPLE - 1)) == 0.0  # too few to tell
    assert timing_regularity([0.0] * TIMING_SAMPLE) == 0.0  # nothing measured
    assert 0 < timing_regularity([1.8, 2.2] * TIMING_SAMPLE) < 1


def test_only_cash_hands_of_the_window_count_and_each_run_replaces_the_queue(
    hands, make_player, clock
):
    a, b = make_player(), make_player()
    for _ in range(30):
        hands.play({a: -100, b: 100})
    integrity_pairs_score()
    assert score_of(a, b).flow == 1.0
    for _ in range(30):
        hands.play({b: -100, a: 100}, tournament={"id": 1, "buy_in": 0, "fee": 0, "level": 1})
    clock.now += WINDOW + timedelta(minutes=1)
    hands.play({a: 0, b: 0})
    assert integrity_pairs_score() == 0
    assert (
        not PairScore.objects.exists()
    )  # the old hands left the window, the rest are a Sit & Go's


def test_beat_scores_the_pairs_every_ten_minutes_and_a_missed_run_is_dropped(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["score-pairs"]
    assert entry["task"] == score_pairs.name == "holdem.tasks.score_pairs"
    assert entry["schedule"] == settings.CASINO_INTEGRITY_SECONDS == 600
    assert 0 < entry["options"]["expires"] < entry["schedule"]


def test_the_task_runs_the_scoring(hands, make_player):
    a, b = make_player(), make_player()
    for _ in range(30):
        hands.play({a: -100, b: 100})
    assert score_pairs() == 1
    assert score_of(a, b).flow == 1.0


@pytest.mark.django_db(transaction=True)
def test_the_embedded_clock_scores_the_pairs_once_a_period(settings, make_player, room):
    settings.CASINO_INTEGRITY_SECONDS = 0.5
    a, b = make_player(), make_player()
    account_trace_record(user=a, kind=TraceKind.DEVICE, value="one-browser")
    account_trace_record(user=b, kind=TraceKind.DEVICE, value="one-browser")
    table = room("nl50")
    now = timezone.now()
    HandRecord.objects.create(
        table=table,
        number=1,
        started_at=now,
        ended_at=now,
        button_seat=0,
        options={},
        players=[{"seat": 0, "user_id": a.pk, "net": 0}, {"seat": 1, "user_id": b.pk, "net": 0}],
        deck=[],
    )

    async def run_clock_for(seconds):
        ticking = asyncio.get_running_loop().create_task(EmbeddedClock(app=None).tick_forever())
        await asyncio.sleep(seconds)
        ticking.cancel()

    asyncio.run(run_clock_for(0.2))
    assert not PairScore.objects.exists()  # the first run waits a period, as beat's does
    asyncio.run(run_clock_for(2.5))
    assert PairScore.objects.filter(source=a, target=b, linked=1.0).exists()
