"""Where the button and the blinds fall among the seats dealt in (RULES.md 3), and which posts
may join them (RULES.md 2).

`start_hand` places a hand's blinds with `blind_indexes`; the tables call `blind_seats` and
`next_button` before a hand, to decide who waits for the big blind and who misses a blind, and
`posts_allowed` to decide whose post is taken.
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
