"""RULES.md 9, where the players of a multi-table tournament sit: the start over as few tables
as hold them, late entrants, balancing, breaking, places paid and hand for hand
(holdem/engine/tournament_tables.py)."""

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holdem.engine.tournament_tables import (
    Move,
    TableSeats,
    balance_moves,
    break_moves,
    default_payouts,
    hand_for_hand,
    late_entry_table,
    next_big_blind,
    paid_places,
    prizes_of,
    seat_nearest_big_blind,
    seating_at_start,
    table_to_break,
    tables_needed,
)


def test_rules_9_the_start_uses_as_few_tables_as_hold_the_entrants():
    assert tables_needed(2, 9) == 1
    assert tables_needed(9, 9) == 1
    assert tables_needed(10, 9) == 2
    assert tables_needed(200, 9) == 23
    assert tables_needed(40, 8) == 5


@pytest.mark.parametrize("entrants", [2, 9, 10, 17, 40, 200])
def test_rules_9_the_start_seats_everyone_once_at_random_and_evenly(entrants):
    names = [f"p{n}" for n in range(entrants)]
    tables = seating_at_start(names, 9, random.Random(entrants))
    assert len(tables) == tables_needed(entrants, 9)
    seated = [name for table in tables for _, name in table]
    assert sorted(seated) == sorted(names)  # everyone, once
    sizes = [len(table) for table in tables]
    assert max(sizes) - min(sizes) <= 1
    for table in tables:
        seats = [seat for seat, _ in table]
        assert len(set(seats)) == len(seats) and all(0 <= s < 9 for s in seats)


def test_rules_9_the_seating_is_drawn_from_the_random_source():
    names = list(range(30))
    first = seating_at_start(names, 9, random.Random(1))
    assert first == seating_at_start(names, 9, random.Random(1))
    assert first != seating_at_start(names, 9, random.Random(2))


def test_rules_9_a_late_entrant_sits_at_the_table_with_fewest_players():
    tables = [
        TableSeats(1, 9, (0, 1, 2, 3, 4)),
        TableSeats(2, 9, (0, 1, 2, 3)),
        TableSeats(3, 9, (0, 1, 2, 3)),
    ]
    assert late_entry_table(tables) == 2  # the lowest id among the emptiest
    full = [TableSeats(1, 2, (0, 1)), TableSeats(2, 2, (0,))]
    assert late_entry_table(full) == 2
    with pytest.raises(ValueError, match="no free seat"):
        late_entry_table([TableSeats(1, 2, (0, 1))])


def test_rules_9_the_player_due_big_blind_next_is_the_next_seat_after_the_last_big_blind():
    assert next_big_blind(TableSeats(1, 9, (0, 3, 5, 8), last_big=3)) == 5
    assert next_big_blind(TableSeats(1, 9, (0, 3, 5, 8), last_big=8)) == 0  # round the table
    assert next_big_blind(TableSeats(1, 9, (0, 3, 5, 8), last_big=4)) == 5  # that player is out
    assert next_big_blind(TableSeats(1, 9, (2, 6))) == 2  # before a first hand


def test_rules_9_a_moved_player_takes_the_free_seat_nearest_the_big_blind():
    # The next big blind at this table is seat 5: the first free seat after it is 7.
    table = TableSeats(2, 9, (0, 3, 5, 6, 8), last_big=3)
    assert seat_nearest_big_blind(table) == 7
    # Round the table: big blind next at 8, free 1, 2, 4, 7 -> 1.
    assert seat_nearest_big_blind(TableSeats(2, 9, (0, 3, 5, 6, 8), last_big=6)) == 1


def test_rules_9_balancing_moves_the_next_big_blind_of_the_fullest_table_to_the_emptiest():
    tables = [
        TableSeats(1, 9, (0, 1, 2, 3, 4, 5, 6, 7), last_big=2),  # 8 players, next big blind 3
        TableSeats(2, 9, (0, 2, 4, 6, 8), last_big=4),  # 6 after... 5 players, next big blind 6
        TableSeats(3, 9, (0, 1, 2, 3, 4, 5, 6), last_big=0),  # 7 players
    ]
    moves = balance_moves(tables)
    assert moves[0] == Move(from_table=1, from_seat=3, to_table=2, to_seat=7)
    assert len(moves) == 1  # 7, 6, 7: no table two more than another


def test_rules_9_balancing_keeps_moving_until_no_table_has_two_more_than_another():
    tables = [
        TableSeats(1, 9, tuple(range(9)), last_big=8),
        TableSeats(2, 9, (0, 1), last_big=1),
        TableSeats(3, 9, (0, 1, 2, 3), last_big=3),
    ]
    moves = balance_moves(tables)
    sizes = Counter({1: 9, 2: 2, 3: 4})
    for move in moves:
        sizes[move.from_table] -= 1
        sizes[move.to_table] += 1
    assert max(sizes.values()) - min(sizes.values()) <= 1
    assert sum(sizes.values()) == 15  # nobody lost or added
    # Table 1's big blind was 8: seat 0 is next there. Table 2's was 1: seat 0 is next there
    # too, and the first free seat after it is 2.
    assert moves[0] == Move(1, 0, 2, 2)


def test_rules_9_balanced_tables_move_nobody():
    assert balance_moves([TableSeats(1, 9, (0, 1, 2)), TableSeats(2, 9, (0, 1))]) == []
    assert balance_moves([TableSeats(1, 9, (0, 1, 2))]) == []


def test_rules_9_a_table_breaks_as_soon_as_its_players_fit_elsewhere():
    fits = [
        TableSeats(1, 9, (0, 1, 2, 3, 4, 5, 6)),  # 2 free
        TableSeats(2, 9, (0, 1, 2, 3, 4, 5, 6)),  # 2 free
        TableSeats(3, 9, (0, 4, 5), last_big=4),  # 3 players: they fit in the 4 free seats
    ]
    assert table_to_break(fits) == 3
    no_room = [TableSeats(1, 9, tuple(range(8))), TableSeats(2, 9, (0, 1, 2))]
    assert table_to_break(no_room) is None  # 1 free seat for 3 players
    assert table_to_break([TableSeats(1, 9, (0, 1))]) is None  # the final table


def test_rules_9_a_breaking_table_is_emptied_one_player_at_a_time_from_its_next_big_blind():
    tables = [
        TableSeats(1, 9, (0, 1, 2, 3, 4, 5, 6), last_big=1),
        TableSeats(2, 9, (0, 1, 2, 3, 4, 5), last_big=4),
        TableSeats(3, 9, (0, 4, 5), last_big=4),
    ]
    moves = break_moves(tables, 3)
    assert [m.from_seat for m in moves] == [5, 0, 4]  # next big blind 5, then clockwise
    # Each goes to the emptiest table at that moment: 2 (6), then 1 and 2 (7 each) -> 1, then 2.
    assert [m.to_table for m in moves] == [2, 1, 2]
    taken = {(m.to_table, m.to_seat) for m in moves}
    assert len(taken) == 3  # no seat given twice
    assert all(seat not in tables[m.to_table - 1].taken for m in moves for seat in [m.to_seat])


def test_rules_9_a_break_that_does_not_fit_is_refused():
    with pytest.raises(ValueError, match="do not fit"):
        break_moves([TableSeats(1, 9, tuple(range(8))), TableSeats(2, 9, (0, 1, 2))], 2)
    with pytest.raises(ValueError, match="not a table"):
        break_moves([TableSeats(1, 9, (0, 1))], 7)


@pytest.mark.parametrize(
    ("entrants", "paid"),
    [(2, 2), (3, 2), (13, 2), (14, 3), (20, 3), (100, 15), (101, 16), (200, 30)],
)
def test_rules_9_fifteen_percent_are_paid_rounded_up_never_fewer_than_two(entrants, paid):
    assert paid_places(entrants) == paid


def test_rules_9_hand_for_hand_when_one_more_bust_puts_everyone_left_in_the_money():
    assert not hand_for_hand(17, 15)
    assert hand_for_hand(16, 15)
    assert not hand_for_hand(15, 15)  # everyone left is paid
    assert hand_for_hand(3, 2)


@pytest.mark.parametrize(
    "bad",
    [
        lambda: tables_needed(1, 9),
        lambda: tables_needed(10, 11),
        lambda: TableSeats(1, 9, (0, 0)),
        lambda: TableSeats(1, 9, (9,)),
        lambda: TableSeats(1, 1, ()),
        lambda: paid_places(1),
        lambda: hand_for_hand(-1, 2),
        lambda: next_big_blind(TableSeats(1, 9, ())),
        lambda: seat_nearest_big_blind(TableSeats(1, 2, (0, 1))),
    ],
)
def test_rules_9_impossible_inputs_are_refused(bad):
    with pytest.raises(ValueError):
        bad()


@given(
    sizes=st.lists(st.integers(min_value=1, max_value=9), min_size=2, max_size=8),
    bigs=st.lists(st.integers(min_value=0, max_value=8), min_size=8, max_size=8),
)
def test_rules_9_balancing_and_breaking_never_seat_a_player_twice_nor_lose_one(sizes, bigs):
    tables = [
        TableSeats(n + 1, 9, tuple(range(size)), last_big=bigs[n] % size)
        for n, size in enumerate(sizes)
    ]
    seats = {(t.table, s) for t in tables for s in t.taken}
    breaking = table_to_break(tables)
    moves = break_moves(tables, breaking) if breaking is not None else balance_moves(tables)
    for move in moves:
        assert (move.from_table, move.from_seat) in seats  # a player who is there
        assert (move.to_table, move.to_seat) not in seats  # to a seat nobody has
        seats.remove((move.from_table, move.from_seat))
        seats.add((move.to_table, move.to_seat))
    assert len(seats) == sum(sizes)
    counts = Counter(table for table, _ in seats)
    if breaking is not None:
        assert breaking not in counts
    else:
        assert max(counts.values()) - min(counts.values()) <= 1


RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def documented_payouts() -> list[tuple[int, int, int, list[int]]]:
    """The rows of the default payout table in docs/rules.md 9: (fewest entrants, most, places,
    shares in hundredths of a percent)."""
    section = RULES_DOC.read_text().split("## 9.")[1].split("\n## ")[0]
    rows = re.findall(r"^\s*\| (\d+)-(\d+) \| (\d+) \| ([\d., ]+) \|$", section, re.MULTILINE)
    return [
        (int(low), int(high), int(paid), [round(float(s) * 100) for s in shares.split(",")])
        for low, high, paid, shares in rows
    ]


def test_rules_9_the_default_payout_table_is_the_one_in_the_rules():
    rows = documented_payouts()
    assert len(rows) == 5
    for low, high, paid, shares in rows:
        for entrants in (low, high):
            assert paid_places(entrants) == paid
            assert list(default_payouts(entrants)) == shares


@pytest.mark.parametrize("entrants", [2, 14, 50, 100, 137, 1000])
def test_rules_9_the_default_shares_add_up_to_the_pool_and_fall_with_each_place(entrants):
    shares = default_payouts(entrants)
    assert len(shares) == paid_places(entrants) and sum(shares) == 10_000
    assert list(shares) == sorted(shares, reverse=True)


def test_rules_9_at_100_entrants_the_winner_gets_about_a_fifth():
    assert 1_900 <= default_payouts(100)[0] <= 2_200


def test_rules_9_prizes_are_whole_chips_that_add_up_to_the_pool():
    shares = default_payouts(100)
    prizes = prizes_of(100 * 1_000 + 7, shares)
    assert sum(prizes) == 100_007  # no chip made or lost
    rounded_down = [100_007 * share // 10_000 for share in shares]
    assert prizes[1:] == rounded_down[1:]  # what is left over goes to first place
    assert prizes[0] == rounded_down[0] + 100_007 - sum(rounded_down)
    assert prizes == sorted(prizes, reverse=True)
    with pytest.raises(ValueError, match="add up to 100%"):
        prizes_of(1_000, (6_000, 3_000))
    with pytest.raises(ValueError, match="whole chips"):
        prizes_of(-1, shares)
