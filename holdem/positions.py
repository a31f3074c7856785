"""Where the button and blinds fall for a set of dealt-in seats (RULES.md 3), for the seating rules.

The engine places the blinds of a hand itself; this mirrors it so the tables can decide, before a
hand, who waits for the big blind and who misses a blind (a test keeps the two in step).
"""


def clockwise_after(seat: int, seats: list[int]) -> int:
    """The first of `seats` strictly clockwise after `seat` (seat numbers increase clockwise)."""
    ordered = sorted(seats)
    for candidate in ordered:
        if candidate > seat:
            return candidate
    return ordered[0]


def blind_seats(dealt: list[int], button: int) -> tuple[int, int]:
    """(small blind seat, big blind seat) for the dealt-in seats and a button seat."""
    if len(dealt) < 2:
        raise ValueError("blinds need at least two players")
    if len(dealt) == 2:
        # RULES.md 3: heads-up the button posts the small blind.
        small = button if button in dealt else clockwise_after(button, dealt)
        return small, clockwise_after(small, dealt)
    small = clockwise_after(button, dealt)
    return small, clockwise_after(small, dealt)


def next_button(previous: int | None, dealt: list[int], rng) -> int:
    """RULES.md 3: the first button is drawn at random; then it moves to the next player dealt in."""
    if previous is None:
        return sorted(dealt)[rng.randrange(len(dealt))]
    return clockwise_after(previous, dealt)
