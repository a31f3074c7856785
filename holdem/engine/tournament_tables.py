"""Where the players of a multi-table tournament sit (RULES.md 9): the seating at the start, the
table of a late entrant, the moves that balance the tables, the table that breaks, how many are
paid and when the tables play hand for hand. Pure functions on plain values: the services lock
the tables and carry the moves out.

A table is described by a `TableSeats`: its id, its number of seats (numbered 0 to seats - 1,
clockwise), the seats taken, and the seat that was big blind in its last hand (None before its
first). The player due to be big blind next is the next seat taken clockwise after that one, as
the dead button of RULES.md 8 moves it (positions.tournament_blinds).
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from holdem.engine.cards import Rng
from holdem.engine.positions import first_after

# RULES.md 9: 15% of the entrants are paid, rounded up, and never fewer than 2.
PAID_PERCENT = 15
MIN_PAID = 2


@dataclass(frozen=True)
class TableSeats:
    table: int
    seats: int
    taken: tuple[int, ...]
    last_big: int | None = None

    def __post_init__(self) -> None:
        if type(self.seats) is not int or not 2 <= self.seats <= 10:
            raise ValueError("table_seats: a table has 2 to 10 seats")
        if len(set(self.taken)) != len(self.taken) or not all(
            type(seat) is int and 0 <= seat < self.seats for seat in self.taken
        ):
            raise ValueError(f"table {self.table}: each seat taken is a seat of the table, once")

    @property
    def players(self) -> int:
        return len(self.taken)

    @property
    def free(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(self.seats) if seat not in self.taken)


@dataclass(frozen=True)
class Move:
    """A player moved between hands: from a seat of one table to a seat of another."""

    from_table: int
    from_seat: int
    to_table: int
    to_seat: int


def tables_needed(entrants: int, table_seats: int) -> int:
    """RULES.md 9: as few tables as can hold `entrants`."""
    if type(entrants) is not int or entrants < 2:
        raise ValueError("entrants: a tournament starts with two or more")
    if type(table_seats) is not int or not 2 <= table_seats <= 10:
        raise ValueError("table_seats: a table has 2 to 10 seats")
    return -(-entrants // table_seats)


def seating_at_start[Entrant](
    entrants: Sequence[Entrant], table_seats: int, rng: Rng
) -> list[list[tuple[int, Entrant]]]:
    """RULES.md 9: the entrants at random over as few tables as can hold them, as even as can
    be (no table has two more than another): for each table, its (seat, entrant) pairs. The
    order is drawn with `rng.randrange` (the site's one random source)."""
    count = tables_needed(len(entrants), table_seats)
    order = list(entrants)
    for last in range(len(order) - 1, 0, -1):  # Fisher-Yates, one draw per position
        pick = rng.randrange(last + 1)
        order[last], order[pick] = order[pick], order[last]
    tables: list[list[tuple[int, Entrant]]] = [[] for _ in range(count)]
    for index, entrant in enumerate(order):
        table = tables[index % count]
        table.append((_spread_seat(len(table), table_seats), entrant))
    return tables


def _spread_seat(index: int, table_seats: int) -> int:
    """The seat of the index-th player at a table: seats 0, 2, 4, ... first, then 1, 3, ...,
    so a short table is not bunched at one end."""
    evens = (table_seats + 1) // 2
    return 2 * index if index < evens else 2 * (index - evens) + 1


def late_entry_table(tables: Sequence[TableSeats]) -> int:
    """RULES.md 9: the table a late entrant sits at: the one with the fewest players (of those
    with a free seat; the lowest id among equals)."""
    open_tables = [t for t in tables if t.free]
    if not open_tables:
        raise ValueError("no free seat at any table of the tournament")
    return min(open_tables, key=lambda t: (t.players, t.table)).table


def next_big_blind(table: TableSeats) -> int:
    """The seat taken that is due to be big blind next hand: the next one clockwise after the
    last big blind (before a first hand: the lowest seat taken)."""
    if not table.taken:
        raise ValueError(f"table {table.table} has no players")
    seats = sorted(table.taken)
    if table.last_big is None:
        return seats[0]
    return seats[first_after(seats, table.last_big)]


def seat_nearest_big_blind(table: TableSeats) -> int:
    """RULES.md 9: the free seat a moved player takes: the first free one clockwise after the
    seat due to be big blind next, so the newcomer is the next to pay the big blind after it
    and neither misses a blind nor pays one twice (docs/decisions.md, Tournaments)."""
    if not table.free:
        raise ValueError(f"table {table.table} has no free seat")
    if not table.taken:
        return table.free[0]
    big = next_big_blind(table)
    return min(table.free, key=lambda seat: (seat - big) % table.seats)


def _moved(tables: dict[int, TableSeats], move: Move) -> None:
    source, target = tables[move.from_table], tables[move.to_table]
    tables[move.from_table] = replace(
        source, taken=tuple(s for s in source.taken if s != move.from_seat)
    )
    tables[move.to_table] = replace(target, taken=(*target.taken, move.to_seat))


def balance_moves(tables: Sequence[TableSeats]) -> list[Move]:
    """RULES.md 9: the moves, in order, after which no table has two players more than any
    other. Each takes the player due to be big blind next at the fullest table (the lowest id
    among equals) to the free seat nearest the big blind at the emptiest (likewise)."""
    state = {t.table: t for t in tables}
    moves: list[Move] = []
    while len(state) > 1:
        fullest = min(state.values(), key=lambda t: (-t.players, t.table))
        emptiest = min(state.values(), key=lambda t: (t.players, t.table))
        if fullest.players - emptiest.players < 2:
            return moves
        move = Move(
            fullest.table, next_big_blind(fullest), emptiest.table, seat_nearest_big_blind(emptiest)
        )
        moves.append(move)
        _moved(state, move)
    return moves


def table_to_break(tables: Sequence[TableSeats]) -> int | None:
    """RULES.md 9: the table that breaks now, if the players of one fit into the free seats of
    the others: the one with the fewest players (the highest id among equals, the newest).
    None with one table left (the final table) or when no table's players fit elsewhere."""
    if len(tables) < 2:
        return None
    smallest = min(tables, key=lambda t: (t.players, -t.table))
    room = sum(len(t.free) for t in tables if t.table != smallest.table)
    return smallest.table if smallest.players <= room else None


def break_moves(tables: Sequence[TableSeats], breaking: int) -> list[Move]:
    """RULES.md 9: the moves that empty table `breaking`, one player at a time, starting with
    the one due to be big blind there next and going clockwise, each to the emptiest other
    table (the lowest id among equals), to its free seat nearest the big blind."""
    state = {t.table: t for t in tables}
    if breaking not in state:
        raise ValueError(f"table {breaking} is not a table of the tournament")
    closing = state.pop(breaking)
    if not closing.taken:
        return []
    if closing.players > sum(len(t.free) for t in state.values()):
        raise ValueError(f"the players of table {breaking} do not fit at the other tables")
    seats = sorted(closing.taken)
    start = seats.index(next_big_blind(closing))
    moves = []
    for seat in seats[start:] + seats[:start]:
        target = min((t for t in state.values() if t.free), key=lambda t: (t.players, t.table))
        move = Move(breaking, seat, target.table, seat_nearest_big_blind(target))
        moves.append(move)
        state[move.to_table] = replace(target, taken=(*target.taken, move.to_seat))
    return moves


def paid_places(entrants: int) -> int:
    """RULES.md 9: how many places are paid: 15% of the entrants, rounded up, never fewer than
    2 (nor more than the entrants)."""
    if type(entrants) is not int or entrants < 2:
        raise ValueError("entrants: a tournament has two or more")
    return min(entrants, max(MIN_PAID, -(-entrants * PAID_PERCENT // 100)))


def hand_for_hand(players_left: int, paid: int) -> bool:
    """RULES.md 9: whether the tables play hand for hand: a single further bust would leave
    every remaining player in the money (one more player left than places paid)."""
    if type(players_left) is not int or players_left < 0 or type(paid) is not int or paid < 1:
        raise ValueError("hand_for_hand: players left and places paid are whole numbers")
    return players_left == paid + 1


# RULES.md 9: the site's default payouts, in basis points (hundredths of a percent) of the pool.
BASIS_POINTS = 10_000


def default_payouts(entrants: int) -> tuple[int, ...]:
    """RULES.md 9, the site's default table: place i of the P places paid gets a share of the
    pool in proportion to 1 / (i + 1), in whole basis points rounded down, what is left over to
    first place; they add up to 10,000 (100%). At 100 entrants (15 paid) first place gets 21.03%."""
    paid = paid_places(entrants)
    weights = [Fraction(1, place + 1) for place in range(1, paid + 1)]
    total = sum(weights, Fraction(0))
    shares = [int(weight / total * BASIS_POINTS) for weight in weights]
    shares[0] += BASIS_POINTS - sum(shares)
    return tuple(shares)


def prizes_of(pool: int, basis_points: Sequence[int]) -> list[int]:
    """RULES.md 9: each place's prize in whole chips, rounded down, what is left over to first
    place: the prizes always add up to `pool`."""
    if type(pool) is not int or pool < 0:
        raise ValueError("pool: must be whole chips, 0 or more")
    if not basis_points or sum(basis_points) != BASIS_POINTS or min(basis_points) < 0:
        raise ValueError("payouts: the places' shares must add up to 100%")
    amounts = [pool * share // BASIS_POINTS for share in basis_points]
    amounts[0] += pool - sum(amounts)
    return amounts
