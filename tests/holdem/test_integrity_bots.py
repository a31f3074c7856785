"""A seeded pair of bots where one dumps chips to the other, among random bots at the same table:
after a few hundred hands played through the services, the pair tops the staff's queue and the
random pairs score low (docs/integrity.md)."""

import random
from datetime import timedelta

import pytest

from casino.accounts.models import LedgerKind
from casino.accounts.selectors import wallet_balance
from casino.accounts.services import wallet_adjust
from holdem import engine
from holdem.engine.cards import new_deck
from holdem.engine.evaluator import evaluate
from holdem.models import HandRecord, PairScore, Seat
from holdem.services import table_act, table_sit, wallet_refill
from holdem.services.integrity import integrity_pairs_score
from tests.holdem.conftest import chips_everywhere, current
from tests.realtime.test_sit_and_go_socket import seeded_draws

pytestmark = pytest.mark.django_db
HANDS = 200
DUMPER, PARTNER = 0, 1
RANDOM_SEATS = (2, 3, 4)


def facing_a_bet_of(state, legal, seat: int) -> bool:
    """The player to act answers a bet or raise of `seat` made in this round."""
    if legal.to_call <= 0 or state.aggressor != seat:
        return False
    bettor = next(p for p in state.players if p.seat == seat)
    return bettor.bet == state.current_bet


# The board's five cards in the engine's stub (burn, flop x3, burn, turn, burn, river).
BOARD_IN_STUB = (1, 2, 3, 5, 7)


def loses_to(state, seat: int, other: int) -> bool:
    """Whether `seat`'s hand loses to `other`'s on the whole board, dealt or to come (the farmer
    behind both accounts knows both hands; a dumping bot calls only when it will lose)."""
    board = [state.stub[i] for i in BOARD_IN_STUB]
    assert board[: len(state.board)] == list(state.board)
    hole = {p.seat: p.hole for p in state.players}
    return evaluate([*hole[seat], *board]) < evaluate([*hole[other], *board])


def dumper_move(state, legal, rng):
    """Folds to the partner's every bet, calls the partner's shoves with nothing (a hand that
    loses to the partner's); otherwise plays loosely."""
    partner = next((p for p in state.players if p.seat == PARTNER), None)
    if partner is not None and facing_a_bet_of(state, legal, PARTNER):
        if partner.stack == 0 and loses_to(state, DUMPER, PARTNER):
            return ("call" if "call" in legal.actions else "all_in"), None
        return "fold", None
    if "check" in legal.actions:
        return "check", None
    if rng.random() < 0.6 and "call" in legal.actions:
        return "call", None
    return "fold", None


def partner_move(state, legal, rng):
    """Bets whenever it may, shoves now and then, calls the others."""
    if "bet" in legal.actions or "raise" in legal.actions:
        if rng.random() < 0.15 and "all_in" in legal.actions:
            return "all_in", None
        verb = "bet" if "bet" in legal.actions else "raise"
        if verb == "bet" or rng.random() < 0.4:
            return verb, min(legal.max_to, legal.min_to * 2)
    if "check" in legal.actions:
        return "check", None
    return ("call" if "call" in legal.actions else "all_in"), None


def random_move(state, legal, rng):
    calm = [a for a in legal.actions if a != "all_in"] or list(legal.actions)
    action = rng.choice(legal.actions if rng.random() < 0.03 else calm)
    if action in ("bet", "raise"):
        return action, rng.randint(legal.min_to, min(legal.max_to, legal.min_to * 2))
    return action, None


def test_a_dumping_pair_tops_the_queue_and_random_pairs_score_low(
    room, make_player, clock, monkeypatch
):
    rng = random.Random(2029)
    # The decks and the first button are seeded too: with the system's generator the scores
    # moved between runs, and a random pair scored 18 (against a bound of 12) in one CI run.
    monkeypatch.setattr("holdem.services.hand_start.random_source", seeded_draws(2030))
    decks = random.Random(2031)
    monkeypatch.setattr(
        "holdem.services.hand_start.hand_deck", lambda: decks.sample(new_deck(), k=52)
    )
    table = room("nl50", name="integrity bots")
    users = {seat: make_player(f"bot{seat}") for seat in (DUMPER, PARTNER, *RANDOM_SEATS)}
    # The dumper keeps little in the wallet: when it busts it claims free chips and dumps them.
    drain = wallet_balance(user=users[DUMPER]) - 2_500
    wallet_adjust(
        user=users[DUMPER], amount=-drain, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="test setup"
    )
    policies = {DUMPER: dumper_move, PARTNER: partner_move}
    claims = 0
    for _ in range(HANDS):
        taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
        for seat, user in users.items():
            if seat in taken:
                continue
            if wallet_balance(user=user) < 2_000:
                if seat != DUMPER:
                    wallet_adjust(
                        user=user, amount=10_000, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="top"
                    )
                else:
                    clock.now += timedelta(hours=24, minutes=1)  # a claim a day
                    wallet_refill(user=user)
                    claims += 1
            table_sit(table_id=table.pk, user=user, seat=seat, buy_in=2_000)
        clock.advance(31)
        while (state := current(table)) is not None:
            legal = engine.legal_actions(state)
            policy = policies.get(legal.seat, random_move)
            action, amount = policy(state, legal, rng)
            # The dumper is a script that answers after exactly two seconds; the others think.
            think = 2.0 if legal.seat == DUMPER else rng.uniform(1.0, 12.0)
            clock.now += timedelta(seconds=think)
            table_act(table_id=table.pk, user=users[legal.seat], action=action, amount=amount)
    chips_everywhere()
    assert claims >= 2, "the dumper went broke and claimed free chips"

    kept = integrity_pairs_score(now=clock.now)
    assert kept > 0
    queue = list(PairScore.objects.select_related("source", "target"))
    top = queue[0]
    assert (top.source, top.target) == (users[DUMPER], users[PARTNER])
    # With the system's generator shuffling, the figures moved between runs (four runs: 38 to 43
    # points; folds 0.66 to 0.78, free chips 0.79 to 1, timing 1; folds 0.4 in one CI run). The
    # flow,
    # which sets the partner's take from the dumper against its take from the others, stays
    # near 0 here: this partner, always betting, also wins most of what the random bots lose.
    assert top.total >= 30, vars(top)
    assert top.folds > 0.3 and top.free_chips > 0.5 and top.timing > 0.9
    assert top.net_chips > 0 and top.hands_together > 100
    # The hands behind the score are hands the two played, newest first.
    played = set(
        HandRecord.objects.filter(participants__user=users[DUMPER])
        .filter(participants__user=users[PARTNER])
        .values_list("pk", flat=True)
    )
    assert top.hand_ids and set(top.hand_ids) <= played
    assert top.hand_ids == sorted(top.hand_ids, reverse=True)

    randoms = {users[s].pk for s in RANDOM_SEATS}
    for score in queue[1:]:
        # Pairs with the dumper get the points of its machine-like timing (10), and a random bot
        # losing to the always-betting partner some flow.
        assert score.total <= top.total - 10, (score.source.username, score.target.username)
        if {score.source_id, score.target_id} <= randoms:
            assert score.total < 12, (score.source.username, score.target.username, score.total)
