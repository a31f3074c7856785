"""Multi-table tournaments through the services (RULES.md 9): the start, late registration,
re-entry, refunds, balancing and breaking between hands, hand for hand, the places across tables
and the prizes, with the chips of every table counted after every step."""

import random
from datetime import timedelta

import pytest

from casino.accounts.models import LedgerEntry, LedgerKind
from casino.accounts.selectors import wallet_balance
from casino.accounts.services import wallet_adjust
from casino.errors import DomainError
from holdem import engine
from holdem.engine.tournament_tables import default_payouts, paid_places, prizes_of
from holdem.history.pokerstars import pokerstars_text
from holdem.models import (
    HandRecord,
    Seat,
    Table,
    TableStatus,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from holdem.services import multi_table, table_act
from holdem.services.multi_table import mtt_register, tournament_demo_seed, tournament_schedule
from holdem.services.tournaments import tournament_cancel, tournament_unregister
from tests.holdem.conftest import chips_everywhere
from tests.holdem.mtt_checks import (
    assert_balanced,
    check_invariants,
    check_stacks_follow_their_players,
    open_tables,
)
from tests.holdem.test_fixed_decks import fixed_deck, rigged  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


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
    clock.advance(10)
    # The hand histories name each table by its number in the tournament.
    for number, table in enumerate(open_tables(tournament), start=1):
        record = HandRecord.objects.get(pk=Table.objects.get(pk=table.pk).hand_id)
        play_table(table, fold_to_the_blind)
        record.refresh_from_db()
        assert record.tournament["table"] == number
        assert f"Table '{tournament.pk} {number}' 6-max" in pokerstars_text(record)
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


def seats_at(table):
    return {s.number: s for s in Seat.objects.filter(table=table).select_related("user")}


def test_balancing_moves_the_next_big_blind_of_the_fullest_table_to_the_seat_after_the_big_blind(
    scheduled, make_player, clock
):
    """RULES.md 9: between hands, the player due to be big blind next at the fullest table (the
    lowest seat before a first hand) moves to the free seat nearest the big blind at the
    emptiest, with their chips, dealt in at once; until no table has two players more than
    another."""
    tournament = register(
        scheduled(seats=6, late_registration_levels=2), [make_player() for _ in range(12)]
    )
    clock.advance(61)  # two full tables of six; their first hands 10 s away
    first, second = open_tables(tournament)
    before = {1: seats_at(first), 2: seats_at(second)}
    late = make_player()
    mtt_register(tournament_id=tournament.pk, user=late)  # no free seat: a third table opens
    third = open_tables(tournament)[2]
    assert {n: s.user for n, s in seats_at(third).items()} == {0: late}
    clock.advance(1)  # the clock's sweep balances before any table deals
    assert seated_counts(tournament) == {first.pk: 4, second.pk: 5, third.pk: 4}
    at_third = seats_at(third)
    # Seat 0 (the lowest, due to be big blind first) of the first table, then of the second,
    # then seat 1 of the first: each to the first free seat after the third table's big blind.
    assert at_third[1].user == before[1][0].user
    assert at_third[2].user == before[2][0].user
    assert at_third[3].user == before[1][1].user
    assert all(
        at_third[n].stack == 1_000 and not at_third[n].waiting_for_big_blind for n in (1, 2, 3)
    )
    assert at_third[0].waiting_for_big_blind  # the late entrant still waits for the big blind
    check_invariants(tournament)


def play_table(table, pattern):
    """Play the hand in progress at `table` to its end: `pattern(step, legal)` chooses."""
    steps = 0
    while table.refresh_from_db() or table.in_hand:
        legal = engine.legal_actions(engine.state_from_json(table.hand_state))
        user = Seat.objects.get(table=table, number=legal.seat).user
        table_act(table_id=table.pk, user=user, action=pattern(steps, legal))
        steps += 1
    return steps


def all_in_and_call(step, legal):
    if step == 0:
        return "all_in"
    if step == 1:
        return "call" if "call" in legal.actions else "all_in"
    return "fold" if "fold" in legal.actions else "check"


def fold_to_the_blind(step, legal):
    return "fold" if "fold" in legal.actions else "check"


def test_a_table_breaks_as_soon_as_its_players_fit_elsewhere(scheduled, make_player, clock):
    """RULES.md 9: once the players of one table fit into the free seats of the others, it
    breaks: its players go one by one, from the one due to be big blind next, each to the free
    seat nearest the big blind, with their chips; the table closes. A late entrant who then
    finds every seat taken opens a new table."""
    tournament = register(
        scheduled(seats=6, late_registration_levels=3), [make_player() for _ in range(7)]
    )
    clock.advance(61)
    bigger, smaller = sorted(open_tables(tournament), key=lambda t: -t.seat_set.count())
    assert (bigger.seat_set.count(), smaller.seat_set.count()) == (4, 3)
    clock.advance(10)  # both deal
    play_table(bigger, fold_to_the_blind)  # nobody out there
    while smaller.seat_set.count() == 3:
        play_table(smaller, all_in_and_call)
        if smaller.seat_set.count() == 3:
            clock.advance(5)
            play_table(bigger, fold_to_the_blind)
    stacks = {s.user_id: s.stack for s in Seat.objects.filter(table=smaller)}
    assert len(stacks) == 2
    clock.advance(1)  # the sweep breaks it between hands
    smaller.refresh_from_db()
    assert smaller.status == TableStatus.CLOSED and not smaller.seat_set.exists()
    moved = {s.user_id: s.stack for s in Seat.objects.filter(table=bigger, user_id__in=stacks)}
    assert moved == stacks  # every chip went with its player
    assert seated_counts(tournament) == {bigger.pk: 6}
    check_invariants(tournament)
    late = make_player()
    mtt_register(tournament_id=tournament.pk, user=late)
    newest = Seat.objects.get(user=late).table
    assert newest.pk not in (bigger.pk, smaller.pk)
    assert newest.name == f"{tournament.name} #{tournament.pk} · table 3"
    check_invariants(tournament)


def test_hand_for_hand_waits_for_every_table_and_places_a_round_s_busts_together(
    scheduled,
    make_player,
    clock,
    fixed_deck,  # noqa: F811
):
    """RULES.md 9: when one more bust would leave everyone in the money, no table deals its next
    hand until every table has finished the one it plays; players out in the same round of
    hands, at different tables, are placed together by the chips they began the hand with
    (here equal: they share the prizes of the places they take, RULES.md 8)."""
    # Every hand: the first dealt (the small blind) holds aces, the next kings, the button 7-2;
    # the button moves all in, the small blind calls, the big blind folds: the button is out.
    fixed_deck(rigged([["Ah", "Ad"], ["Kh", "Kd"], ["7c", "2d"]], ["Qs", "9h", "4c", "3s", "Jd"]))
    # Five places paid of six entrants: on the bubble from the first hand, two tables of three.
    tournament = register(
        scheduled(seats=3, late_registration_levels=0, payouts=[[6, [30, 25, 20, 15, 10]]]),
        [make_player() for _ in range(6)],
    )
    clock.advance(61)
    tournament.refresh_from_db()
    assert tournament.hand_for_hand
    clock.advance(10)
    first, second = open_tables(tournament)
    assert first.in_hand and second.in_hand  # the round's hand at both
    play_table(first, all_in_and_call)
    clock.advance(10)  # the first table's countdown has passed: it waits for the second
    first.refresh_from_db()
    assert not first.in_hand and first.held_for == "hand_for_hand"
    told = first.seq
    for _ in range(3):  # still waiting: its players were told once
        clock.advance(1)
    first.refresh_from_db()
    assert not first.in_hand and first.seq == told
    out = tournament.entries.filter(finished_at__isnull=False)
    assert out.count() == 1 and out.get().place is None  # not placed: the round is not over
    play_table(second, all_in_and_call)
    round_out = list(tournament.entries.filter(finished_at__isnull=False).order_by("id"))
    assert len(round_out) == 2 and round_out[0].out_round == round_out[1].out_round
    assert {e.out_in_hand.table_id for e in round_out} == {first.pk, second.pk}
    assert [e.out_chips for e in round_out] == [1_000, 1_000]
    assert [e.place for e in round_out] == [5, 5]
    fifth_and_sixth = 6_000 * 10 // 100 + 0
    assert sorted(e.prize for e in round_out) == [fifth_and_sixth // 2] * 2
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand  # four left, five paid: the bubble has burst
    clock.advance(5)
    first.refresh_from_db()
    assert first.in_hand and first.held_for == ""  # dealing again
    check_invariants(tournament)


def test_a_late_entrant_is_dealt_in_when_the_big_blind_reaches_them(scheduled, make_player, clock):
    """RULES.md 9 and 2: a late entrant sits at the table with the fewest players and is dealt
    in at the hand where they are the big blind, not before."""
    tournament = register(
        scheduled(seats=9, late_registration_levels=3), [make_player() for _ in range(5)]
    )
    clock.advance(61)
    clock.advance(10)
    (table,) = open_tables(tournament)
    play_table(table, fold_to_the_blind)
    late = make_player()
    mtt_register(tournament_id=tournament.pk, user=late)
    seat = Seat.objects.get(user=late)
    assert seat.table_id == table.pk and seat.waiting_for_big_blind
    for _ in range(8):
        clock.advance(5)
        record = HandRecord.objects.get(pk=Table.objects.get(pk=table.pk).hand_id)
        dealt = {p["user_id"] for p in record.players}
        if late.pk in dealt:
            assert record.blinds[1] == seat.number  # their first hand: as the big blind
            break
        play_table(table, fold_to_the_blind)
    else:
        raise AssertionError("the late entrant was never dealt in")
    check_invariants(tournament)


def test_refused_entries_change_nothing(scheduled, make_player, seated, clock):
    """RULES.md 9: no entry after registration closes, over max_entrants, while seated in a
    room, while in another tournament, or without the chips: a clear error, nothing changed."""
    full = register(scheduled(max_entrants=2), [make_player() for _ in range(2)])
    broke = make_player()
    wallet_adjust(
        user=broke,
        amount=-wallet_balance(user=broke),
        kind=LedgerKind.ADMIN_ADJUSTMENT,
        reason="Emptied for the test",
    )
    _table, at_table = seated("nl50", seats=(0, 1))
    closed = register(scheduled(late_registration_levels=0), [make_player() for _ in range(2)])
    clock.advance(61)
    busy = register(scheduled(), [make_player()])
    in_other = busy.entries.get().user
    cases = [
        (full, make_player(), "tournament_full"),
        (closed, make_player(), "registration_closed"),
        (full, at_table[0], "seated_elsewhere"),
    ]
    cases.append((scheduled(), in_other, "registered_elsewhere"))
    cases.append((scheduled(), broke, "insufficient_chips"))
    for tournament, player, code in cases:
        balance = wallet_balance(user=player)
        entries = TournamentEntry.objects.count()
        with pytest.raises(DomainError) as refused:
            mtt_register(tournament_id=tournament.pk, user=player)
        assert refused.value.code == code
        assert wallet_balance(user=player) == balance
        assert TournamentEntry.objects.count() == entries
    chips_everywhere()


def test_a_daily_tournament_schedules_the_next_day_when_it_starts(scheduled, make_player, clock):
    """Staff may repeat a tournament daily: when it starts (or is cancelled for want of
    entrants), the same tournament is scheduled a day later, once."""
    tournament = register(scheduled(repeat_daily=True), [make_player() for _ in range(2)])
    clock.advance(61)
    clock.advance(1)
    copies = Tournament.objects.filter(name=tournament.name, status=TournamentStatus.REGISTERING)
    assert copies.count() == 1
    copy = copies.get()
    assert copy.starts_at == tournament.starts_at + timedelta(days=1)
    assert (copy.buy_in, copy.fee, copy.seats, copy.repeat_daily) == (1_000, 100, 9, True)
    assert copy.entrants == 0 and not copy.entries.exists() and not tables_of(copy)


def test_the_demo_seeds_one_daily_tournament_at_the_next_hour(clock):
    """manage.py seed_demo (make run): one daily tournament taking entries, at the next whole
    hour; seeding again makes no second one."""
    first = tournament_demo_seed(clock.now)
    assert tournament_demo_seed(clock.now).pk == first.pk
    assert first.starts_at.minute == 0 and clock.now < first.starts_at
    assert first.starts_at - clock.now <= timedelta(hours=1)
    assert first.repeat_daily and first.kind == "scheduled"


def test_bad_schedules_are_refused(clock):
    """A schedule that cannot be played is refused with a clear error and nothing saved."""
    bad = [
        {"seats": 11},
        {"buy_in": 0},
        {"blind_schedule": [[20, 10, 0]]},
        {"payouts": [[10, [60, 30]]]},
        {"max_entrants": 1},
    ]
    for options in bad:
        with pytest.raises(DomainError) as refused:
            tournament_schedule(
                name="Bad", starts_at=clock.now + timedelta(hours=1), **{"buy_in": 100, **options}
            )
        assert refused.value.code == "bad_tournament"
    assert not Tournament.objects.filter(name="Bad").exists()


def test_one_level_clock_moves_every_table_at_once(scheduled, make_player, clock):
    """RULES.md 9: every table of the tournament is on the same level at the same time; the
    next hand dealt at each plays the new blinds."""
    tournament = register(
        scheduled(seats=6, level_seconds=30, late_registration_levels=0),
        [make_player() for _ in range(10)],
    )
    clock.advance(61)
    clock.advance(10)  # the first hands; the first level ends 30 s later
    for table in open_tables(tournament):
        play_table(table, fold_to_the_blind)
    clock.advance(31)
    tournament.refresh_from_db()
    assert tournament.level == 1
    tables = open_tables(tournament)
    assert [(t.small_blind, t.big_blind) for t in tables] == [(15, 30)] * 2
    for table in tables:
        play_table(table, fold_to_the_blind)  # a hand dealt before the level moved keeps its blinds
    clock.advance(5)
    for table in tables:
        record = HandRecord.objects.get(pk=Table.objects.get(pk=table.pk).hand_id)
        assert (record.options["small_blind"], record.options["big_blind"]) == (15, 30)
        assert record.tournament["level"] == 2
    check_invariants(tournament)


def test_a_staff_cancel_of_a_daily_tournament_keeps_the_series(scheduled, make_player):
    """Cancelling one day's tournament refunds its players and leaves the next day's scheduled."""
    player = make_player()
    before = wallet_balance(user=player)
    tournament = register(scheduled(repeat_daily=True), [player])
    staff = make_player()
    tournament_cancel(tournament_id=tournament.pk, actor=staff)
    assert wallet_balance(user=player) == before
    nxt = Tournament.objects.get(name=tournament.name, status=TournamentStatus.REGISTERING)
    assert nxt.starts_at == tournament.starts_at + timedelta(days=1)


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


def test_a_late_entrant_never_sits_at_a_table_that_broke_while_they_registered(
    scheduled, make_player, clock, monkeypatch
):
    """RULES.md 9: a table that breaks between a late registration's reading of the tables and
    its lock of them is closed by then: the entrant sits at a table still playing. (Two servers
    once seated one at the broken table: empty, it was the emptiest.)"""
    tournament = register(
        scheduled(seats=6, late_registration_levels=3), [make_player() for _ in range(7)]
    )
    clock.advance(61)
    bigger, smaller = sorted(open_tables(tournament), key=lambda t: -t.seat_set.count())
    clock.advance(10)
    play_table(bigger, fold_to_the_blind)
    while smaller.seat_set.count() == 3:
        play_table(smaller, all_in_and_call)
        if smaller.seat_set.count() == 3:
            clock.advance(5)
            play_table(bigger, fold_to_the_blind)
    # One all-in hand may bust one player or two: whoever is left moves when the table breaks.
    left = smaller.seat_set.count()
    locking = multi_table.table_lock
    broke = []

    def another_server_breaks_it_first(table_id):
        if not broke:
            broke.append(None)  # once: the break below locks the tables too
            broke[0] = multi_table.tournament_rebalance(tournament.pk)
        return locking(table_id)

    monkeypatch.setattr(multi_table, "table_lock", another_server_breaks_it_first)
    late = make_player()
    mtt_register(tournament_id=tournament.pk, user=late)
    assert broke == [left]  # the smaller table's players moved: it closed
    smaller.refresh_from_db()
    assert smaller.status == TableStatus.CLOSED and not smaller.seat_set.exists()
    assert Seat.objects.get(user=late).table.status == TableStatus.OPEN
    check_invariants(tournament)
