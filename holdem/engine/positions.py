"""Where the button and the blinds fall among the seats dealt in (RULES.md 3), and which posts
may join them (RULES.md 2).

`start_hand` places a hand's blinds with `blind_indexes`; the tables call `blind_seats` and
`next_button` before a hand, to decide who waits for the big blind and who misses a blind, and
`posts_allowed` to decide whose post is taken. A tournament's blinds follow the dead button of
RULES.md 8 instead: `tournament_blinds` places them and `start_hand(..., blinds=...)` takes them.
"""

from collections.abc import Iterable, Sequence

from holdem.engine.cards import Rng


def first_after(seats: Sequence[int], seat: int) -> int:
    """Index of the first of `seats` (in increasing order) strictly clockwise after `seat`:
    seat numbers increase clockwise and wrap around."""
    for index, candidate in enumerate(seats):
        if candidate > seat:
            return index
    return 0


def blind_indexes(seats: Sequence[int], button: int) -> tuple[int, int, int]:
    """For `seats` in increasing order (at least two) and a button seat, dealt in or not: the
    indexes of the first seat left of the button (dealt first), the small blind, the big blind."""
    after_button = first_after(seats, button)
    if len(seats) == 2 and button in seats:
        # RULES.md 3 heads-up: the button posts the small blind (a dead button: the first
        # dealt seat after it plays the button).
        small = seats.index(button)
    else:
        small = after_button
    return after_button, small, (small + 1) % len(seats)


def given_blind_indexes(
    seats: Sequence[int], button: int, blinds: object
) -> tuple[int, int | None, int]:
    """RULES.md 8, the dead button: like `blind_indexes`, for blinds placed by the caller as
    (small blind seat or None for a dead small blind, big blind seat). Dealing starts left of
    the button, which may be a seat not dealt in. ValueError for blinds that cannot be."""
    if not isinstance(blinds, (tuple, list)) or len(blinds) != 2:
        raise ValueError("blinds: need (small blind seat or None, big blind seat)")
    small_seat, big_seat = blinds
    if type(big_seat) is not int or big_seat not in seats:
        raise ValueError(f"blinds: the big blind seat {big_seat!r} is not dealt in")
    if small_seat is not None and (type(small_seat) is not int or small_seat not in seats):
        raise ValueError(f"blinds: the small blind seat {small_seat!r} is not dealt in")
    if small_seat == big_seat:
        raise ValueError("blinds: the small and the big blind cannot be the same seat")
    small = None if small_seat is None else seats.index(small_seat)
    return first_after(seats, button), small, seats.index(big_seat)


def tournament_blinds(
    previous: tuple[int, int | None, int] | None, alive: Iterable[int], rng: Rng
) -> tuple[int, int | None, int]:
    """RULES.md 8, the dead button: (button, small blind seat or None, big blind seat) of the
    next hand at a tournament table, after `previous` (the last hand's button, small and big
    blind seats; None before the first hand). `alive`: the seats still in, all dealt in.

    The big blind moves to the next alive seat clockwise after the last big blind; the small
    blind is the last big blind's seat if that player is still in, else it is dead (None); the
    button is the last small blind's seat, alive or not. When the last small blind was dead
    itself, the button goes onto the seat just before the last big blind (the seat of that dead
    small blind, whose player is out), or stays where it was when no such seat lies between
    them (so nobody has the button twice running while a seat that could take it exists).
    With two players left the button posts the small blind and the other is the big blind.
    The first hand: a button drawn with one rng.randrange among the alive seats, then the
    blinds of RULES.md 3 (`blind_seats`).
    """
    seats = sorted(alive)
    if len(seats) < 2:
        raise ValueError("a tournament hand needs at least two players")
    if previous is None:
        button = seats[rng.randrange(len(seats))]
        first_small, first_big = blind_seats(seats, button)
        return button, first_small, first_big
    last_button, last_small, last_big = previous
    big = seats[first_after(seats, last_big)]
    if len(seats) == 2:
        # RULES.md 8: heads-up the button posts the small blind, acts first before the flop.
        other = seats[0] if seats[1] == big else seats[1]
        return other, other, big
    small: int | None = last_big if last_big in seats else None
    if last_small is not None:
        return last_small, small, big
    return _seat_before(last_big, last_button, seats), small, big


def _seat_before(big: int, button: int, seats: Sequence[int]) -> int:
    """The seat just before `big` if it lies strictly after `button` going clockwise, else
    `button`. Seat numbers below a seat that exists exist too; before seat 0 the highest
    number known at the table stands for the table's last seat."""
    candidate = big - 1 if big > 0 else max(button, *seats)
    ring = 1 + max(button, big, *seats)

    def clockwise_from_button(seat: int) -> int:
        return (seat - button) % ring

    if 0 < clockwise_from_button(candidate) < clockwise_from_button(big):
        return candidate
    return button


def blind_seats(dealt: Iterable[int], button: int) -> tuple[int, int]:
    """(small blind seat, big blind seat) for the seats dealt in and a button seat."""
    seats = sorted(dealt)
    if len(seats) < 2:
        raise ValueError("blinds need at least two players")
    _, small, big = blind_indexes(seats, button)
    return seats[small], seats[big]


def next_button(previous: int | None, dealt: Iterable[int], rng: Rng) -> int:
    """RULES.md 3: the first button is drawn at random; then it moves to the next player dealt
    in (the first one clockwise after the old button's seat, occupied or not)."""
    seats = sorted(dealt)
    if previous is None:
        return seats[rng.randrange(len(seats))]
    return seats[first_after(seats, previous)]


def posts_allowed(players: Iterable[int], posting: Iterable[int], button: int) -> list[int]:
    """RULES.md 2 [002]: of the `posting` seats (asking to post their way into the hand), those
    whose post is taken, for the `players` dealt in anyway and the button placed among them.
    A post is taken only where it would not seat the player on the button or in the small
    blind, that is anywhere but between the button and the first player after it; the others
    wait for the button to pass them (it does at the next hand)."""
    seats = sorted(players)
    if len(seats) < 2:
        raise ValueError("posting needs at least two players dealt in")
    posts = sorted(posting)
    if set(posts) & set(seats):
        raise ValueError("a seat cannot be both dealt in and posting")
    small = seats[first_after(seats, button)]  # the small blind without the posters
    ring = 1 + max(button, *seats, *posts)

    def clockwise_from_button(seat: int) -> int:
        return (seat - button) % ring

    return [seat for seat in posts if clockwise_from_button(seat) > clockwise_from_button(small)]
