"""Multi-table tournaments through the services (RULES.md 9): the start, late registration,
re-entry, refunds, balancing and breaking between hands, hand for hand, the places across tables
and the prizes, with the chips of every table counted after every step."""

import random
from datetime import timedelta

import pytest

from casino.accounts.models import LedgerEntry, LedgerKind
from casino.accounts.selectors import wallet_balance
from casino.errors import DomainError
from holdem import engine
from holdem.engine.tournament_tables import default_payouts, paid_places, prizes_of
from holdem.models import (
    HandRecord,
    Seat,
    Table,
    TableStatus,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from holdem.services import table_act
from holdem.services.multi_table import mtt_register, tournament_schedule
from holdem.services.tournaments import tournament_unregister
from tests.holdem.conftest import chips_everywhere
from tests.holdem.mtt_checks import (
    assert_balanced,
    check_invariants,
    check_stacks_follow_their_players,
    open_tables,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def scheduled(clock):
    """A scheduled tournament starting a minute from the test clock's now."""

    def make(**options):
        options.setdefault("name", f"Daily {Tournament.objects.count() + 1}")
        options.setdefault("starts_at", clock.now + timedelta(seconds=60))
        options.setdefault("buy_in", 1_000)
        options.setdefault("fee", 100)
        options.setdefault("starting_stack", 1_000)
        options.setdefault("level_seconds", 120)
        options.setdefault("time_bank_seconds", 0)
        return tournament_schedule(**options)

    return make


def register(tournament, players):
    for player in players:
        mtt_register(tournament_id=tournament.pk, user=player)
    tournament.refresh_from_db()
    return tournament


def tables_of(tournament):
    return list(Table.objects.filter(tournament=tournament).order_by("id"))


def seated_counts(tournament):
    return {t.pk: t.seat_set.count() for t in open_tables(tournament)}


def play_round(tournament, clock, rng, seconds=5, dealt=None):
    """Move the clock (deadlines fire: deals, holds, moves; then `dealt(tournament)` looks),
    then play every hand in progress to its end with random legal actions. Returns the hands
    played."""
    clock.advance(seconds)
    if dealt:
        dealt(tournament)
    played = 0
    for table in open_tables(tournament):
        steps = 0
        while True:
            table.refresh_from_db()
            if not table.in_hand:
                break
            state = engine.state_from_json(table.hand_state)
            legal = engine.legal_actions(state)
            user = Seat.objects.get(table=table, number=legal.seat).user
            action = rng.choice(legal.actions)
            amount = None
            if action in ("bet", "raise"):
                amount = rng.randint(legal.min_to, legal.max_to)
            table_act(table_id=table.pk, user=user, action=action, amount=amount)
            steps += 1
            assert steps < 500
        played += steps > 0
    return played


def play_to_the_end(tournament, clock, seed=5, rounds=2_000, dealt=None):
    rng = random.Random(seed)
    hands = 0
    for _ in range(rounds):
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            return hands
        hands += play_round(tournament, clock, rng, dealt=dealt)
        check_invariants(tournament)
    raise AssertionError("the tournament should have ended")


def test_at_the_start_the_entrants_are_seated_at_random_over_the_fewest_tables(
    scheduled, make_player, clock
):
    """RULES.md 9: at starts_at, two entrants or more: seated at random over as few tables as
    hold them, as even as can be; the first hands are 10 s away."""
    tournament = register(scheduled(seats=6), [make_player() for _ in range(14)])
    clock.advance(61)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    assert tournament.entrants == 14 and tournament.prize_pool == 14_000
    counts = sorted(seated_counts(tournament).values())
    assert counts == [4, 5, 5]
    check_invariants(tournament)


def test_fewer_than_two_entrants_at_the_start_get_their_money_back(scheduled, make_player, clock):
    """RULES.md 9: at starts_at with one entrant, the buy-in and fee come back."""
    player = make_player()
    before = wallet_balance(user=player)
    tournament = register(scheduled(), [player])
    assert wallet_balance(user=player) == before - 1_100
    clock.advance(61)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    assert wallet_balance(user=player) == before
    assert not tables_of(tournament)
    chips_everywhere()


def test_a_tournament_is_played_to_its_end_balanced_after_every_hand(scheduled, make_player, clock):
    """RULES.md 9: no table has two players more than another after the moves between hands,
    tables break as soon as their players fit elsewhere, every player sits once, the chips are
    all there after every hand, and the prizes are the payout table's."""
    players = [make_player() for _ in range(20)]
    before = {p.pk: wallet_balance(user=p) for p in players}
    tournament = register(
        scheduled(seats=6, starting_stack=600, level_seconds=60, late_registration_levels=0),
        players,
    )
    clock.advance(61)
    play_to_the_end(tournament, clock, dealt=assert_balanced)
    tournament.refresh_from_db()
    entries = list(tournament.entries.order_by("place"))
    assert [e.place for e in entries if e.place == 1] == [1]
    assert all(e.place is not None for e in entries)
    prizes = prizes_of(20_000, default_payouts(20))
    assert len(prizes) == paid_places(20) == 3
    assert sum(e.prize for e in entries) == tournament.prizes_paid == tournament.prize_pool
    paid = sorted((e.place, e.prize) for e in entries if e.prize)
    assert paid[0] == (1, max(e.prize for e in entries))
    for entry in entries:
        assert wallet_balance(user=entry.user) == before[entry.user_id] - 1_100 + entry.prize
    ledger = LedgerEntry.objects.filter(kind=LedgerKind.TOURNAMENT_PRIZE)
    assert sum(ledger.values_list("amount", flat=True)) == 20_000
    assert all(
        t.status == TableStatus.CLOSED or not t.seat_set.exists() for t in tables_of(tournament)
    )
    assert HandRecord.objects.filter(table__tournament=tournament).exists()
    # The chips changed tables only with their players: each hand began with the stack the
    # player's last one ended with, at whichever table.
    assert check_stacks_follow_their_players(tournament)


def test_late_registration_seats_at_the_table_with_fewest_players_waiting_for_the_big_blind(
    scheduled, make_player, clock
):
    """RULES.md 9: a late entrant gets the starting stack and a seat at the table with the
    fewest players, dealt in when the big blind reaches them (RULES.md 2)."""
    tournament = register(
        scheduled(seats=6, late_registration_levels=2), [make_player() for _ in range(7)]
    )
    clock.advance(61)
    counts = seated_counts(tournament)
    smallest = min(counts, key=lambda pk: (counts[pk], pk))
    late = make_player()
    mtt_register(tournament_id=tournament.pk, user=late)
    seat = Seat.objects.get(user=late)
    assert seat.table_id == smallest and seat.stack == 1_000 and seat.waiting_for_big_blind
    tournament.refresh_from_db()
    assert tournament.entrants == 8 and tournament.prize_pool == 8_000
    check_invariants(tournament)


def one_player_out(tournament, clock):
    """Play hands at the tournament's tables where the first to act moves all in, the next
    calls and everyone else folds, until a player is out; returns that entry."""
    for _ in range(50):
        clock.advance(5)
        for table in open_tables(tournament):
            steps = 0
            while table.refresh_from_db() or table.in_hand:
                legal = engine.legal_actions(engine.state_from_json(table.hand_state))
                user = Seat.objects.get(table=table, number=legal.seat).user
                if steps == 0:
                    action = "all_in"
                elif steps == 1:
                    action = "call" if "call" in legal.actions else "all_in"
                else:
                    action = "fold" if "fold" in legal.actions else "check"
                table_act(table_id=table.pk, user=user, action=action)
                steps += 1
        out = tournament.entries.filter(finished_at__isnull=False).first()
        if out is not None:
            return out
    raise AssertionError("somebody should have gone out")


def test_re_entry_while_registration_is_open(scheduled, make_player, clock):
    """RULES.md 9: a player knocked out may enter again as a new entry while registration is
    open, as many times as the tournament allows; never while still in, never past the limit.
    Their first entry's place waits for registration to close (more may still enter)."""
    players = [make_player() for _ in range(3)]
    tournament = register(scheduled(seats=3, re_entries=1, late_registration_levels=3), players)
    with pytest.raises(DomainError) as refused:
        mtt_register(tournament_id=tournament.pk, user=players[0])
    assert refused.value.code == "already_registered"
    clock.advance(61)
    out = one_player_out(tournament, clock)
    assert out.place is None and out.out_chips is not None
    balance = wallet_balance(user=out.user)
    mtt_register(tournament_id=tournament.pk, user=out.user)
    assert wallet_balance(user=out.user) == balance - 1_100
    again = TournamentEntry.objects.get(
        tournament=tournament, user=out.user, finished_at__isnull=True
    )
    assert again.number == 2 and Seat.objects.get(user=out.user).stack == 1_000
    tournament.refresh_from_db()
    assert tournament.entrants == 4 and tournament.prize_pool == 4_000
    check_invariants(tournament)
    # Out again: the one re-entry allowed is used.
    while not TournamentEntry.objects.filter(pk=again.pk, finished_at__isnull=False).exists():
        one_player_out(tournament, clock)
        if tournament.entries.filter(finished_at__isnull=True).count() < 2:
            return  # the tournament ended first
        if Seat.objects.filter(user=out.user).exists():
            continue
    balance = wallet_balance(user=out.user)
    with pytest.raises(DomainError) as refused:
        mtt_register(tournament_id=tournament.pk, user=out.user)
    assert refused.value.code == "no_re_entry"
    assert wallet_balance(user=out.user) == balance
    check_invariants(tournament)


def test_unregistering_before_the_start_refunds(scheduled, make_player):
    """RULES.md 9 (as 8): before the start, the buy-in and the fee come back."""
    player = make_player()
    before = wallet_balance(user=player)
    tournament = register(scheduled(), [player])
    tournament_unregister(tournament_id=tournament.pk, user=player)
    assert wallet_balance(user=player) == before
    assert not tournament.entries.exists()


def test_a_late_entrant_after_a_break_opens_a_table_of_a_new_number(scheduled, make_player, clock):
    """RULES.md 9: with every table still playing full after one broke, a late entrant opens a
    new table, numbered after every table the tournament had (the broken one keeps its name)."""
    tournament = register(
        scheduled(seats=3, late_registration_levels=20, level_seconds=3_600),
        [make_player() for _ in range(9)],
    )
    clock.advance(61)
    assert len(open_tables(tournament)) == 3
    while len(open_tables(tournament)) == 3:
        one_player_out(tournament, clock)
        clock.advance(5)  # the sweep breaks a table whose players fit elsewhere
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.RUNNING
    # Late entrants fill the free seats, then one more finds every table full.
    while any(t.seat_set.count() < 3 for t in open_tables(tournament)):
        mtt_register(tournament_id=tournament.pk, user=make_player())
    names = set(Table.objects.filter(tournament=tournament).values_list("name", flat=True))
    newcomer = make_player()
    mtt_register(tournament_id=tournament.pk, user=newcomer)
    table = Seat.objects.get(user=newcomer).table
    assert table.name not in names
    assert table.name.endswith(f"table {len(names) + 1}")
    check_invariants(tournament)
