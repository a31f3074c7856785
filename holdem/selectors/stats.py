"""A player's numbers (hands, winnings, VPIP, PFR, showdowns, chips over time) and the leaderboard,
read from the finished hands' records and action logs in a fixed handful of queries, on the
replica when there is one (casino/db_routing.py): they show what it has, a few seconds behind.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from django.db import connections
from django.utils import timezone

from casino.accounts.models import SYSTEM_KINDS, LedgerEntry, User
from casino.db_routing import read_db
from holdem.engine.names import ALL_IN, BET, CALL, PREFLOP, RAISE
from holdem.models import HandAction, HandParticipant, HandRecord

# Putting chips in before the flop by choice; the blinds are posted, not logged as actions.
VOLUNTARY = (CALL, BET, RAISE, ALL_IN)


def percent(part: int, whole: int) -> float | None:
    """`part` of `whole` in percent; None when there is nothing to divide (shown as a dash)."""
    return 100 * part / whole if whole else None


@dataclass(frozen=True)
class ChipPoint:
    """The chips a player owned (wallet and table together) after one grant, refill or hand."""

    at: datetime
    chips: int


@dataclass(frozen=True)
class PlayerStats:
    hands: int = 0
    won: int = 0  # hands in which the player got chips from a pot
    net: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    biggest_pot: int = 0  # the most chips collected from the pots of one hand
    history: tuple[ChipPoint, ...] = ()

    @property
    def vpip(self) -> float | None:
        return percent(self.vpip_hands, self.hands)

    @property
    def pfr(self) -> float | None:
        return percent(self.pfr_hands, self.hands)

    @property
    def went_to_showdown(self) -> float | None:
        return percent(self.showdowns, self.hands)

    @property
    def won_at_showdown(self) -> float | None:
        return percent(self.showdowns_won, self.showdowns)


def player_stats(user: User) -> PlayerStats:
    """Everything over the player's finished hands, in three queries whatever their number: the
    hands with their results, the pre-flop actions of those hands, the chips granted."""
    # Cash hands only: a tournament's chips are not wallet chips (RULES.md 8); its figures are
    # the tournament ones (holdem/selectors/tournaments.py, tournament_stats).
    using = read_db()
    hands = (
        HandParticipant.objects.using(using)
        .filter(user=user, hand__ended_at__isnull=False, hand__tournament__isnull=True)
        .values_list(
            "hand_id", "seat", "hand__ended_at", "hand__result", "hand__options__big_blind"
        )
    )
    seats: dict[int, int] = {}
    big_blinds: dict[int, int] = {}
    nets: list[tuple[datetime, int]] = []
    won = net_total = showdowns = showdowns_won = biggest = 0
    for hand_id, seat, ended_at, result, big_blind in hands:
        seats[hand_id] = seat
        big_blinds[hand_id] = big_blind or 0
        net = result.get("net", {}).get(str(seat), 0)
        payout = result.get("payouts", {}).get(str(seat), 0)
        nets.append((cast(datetime, ended_at), net))  # finished hands only
        net_total += net
        if payout > 0:
            won += 1
            biggest = max(biggest, payout)
        if _went_to_showdown(result, seat):
            showdowns += 1
            if payout > 0:
                showdowns_won += 1
    voluntary, raised = _preflop_choices(user, seats, big_blinds, using)
    return PlayerStats(
        hands=len(seats),
        won=won,
        net=net_total,
        vpip_hands=len(voluntary),
        pfr_hands=len(raised),
        showdowns=showdowns,
        showdowns_won=showdowns_won,
        biggest_pot=biggest,
        history=_chip_history(user, nets, using),
    )


def _went_to_showdown(result: dict[str, Any], seat: int) -> bool:
    """RULES.md 4: a contested hand ends at a showdown, where every player not folded shows,
    mucks, or is still choosing (the record's `shown`, `mucked` and `undecided`). A player who
    won uncontested and chose to show had no showdown."""
    if result.get("uncontested", True):
        return False
    return (
        str(seat) in result.get("shown", {})
        or seat in result.get("mucked", [])
        or seat in result.get("undecided", [])
    )


def _preflop_choices(
    user: User, seats: dict[int, int], big_blinds: dict[int, int], using: str
) -> tuple[set[int], set[int]]:
    """(hands where the player put chips in before the flop by choice, hands where they raised).

    A pass over every voluntary pre-flop action of the player's hands, theirs and the others',
    in order: an all-in counts as a raise only when it goes above the bet so far (a short all-in
    is a call). The bet so far starts at the hand's big blind; bets, raises and all-ins raise it.
    """
    rows = (
        HandAction.objects.using(using)
        .filter(
            hand__participants__user=user,
            hand__ended_at__isnull=False,
            hand__tournament__isnull=True,
            street=PREFLOP,
            action__in=VOLUNTARY,
        )
        .order_by("hand_id", "index")
        .values_list("hand_id", "seat", "action", "amount")
    )
    voluntary: set[int] = set()
    raised: set[int] = set()
    bet_so_far: dict[int, int] = {}
    for hand_id, seat, action, amount in rows:
        level = bet_so_far.get(hand_id, big_blinds.get(hand_id, 0))
        raises = action in (BET, RAISE) or (action == ALL_IN and (amount or 0) > level)
        if seats.get(hand_id) == seat:
            voluntary.add(hand_id)
            if raises:
                raised.add(hand_id)
        if raises:
            bet_so_far[hand_id] = max(level, amount or 0)
    return voluntary, raised


def _chip_history(
    user: User, nets: list[tuple[datetime, int]], using: str
) -> tuple[ChipPoint, ...]:
    """The chips the player owned after each event that changed them: grants, refills and
    admin adjustments bring chips in (SYSTEM_KINDS), each hand adds its net. Buy-ins and
    cash-outs only move chips between the wallet and a seat, so they are left out: a buy-in is
    not a loss."""
    granted = (
        LedgerEntry.objects.using(using)
        .filter(user=user, kind__in=SYSTEM_KINDS)
        .values_list("created_at", "amount")
    )
    # On a tie the grant comes first: chips are granted before they can be played.
    events = sorted(
        [(at, 0, amount) for at, amount in granted] + [(at, 1, net) for at, net in nets],
        key=lambda event: (event[0], event[1]),
    )
    points = []
    chips = 0
    for at, _order, change in events:
        chips += change
        points.append(ChipPoint(at=at, chips=chips))
    return tuple(points)


# The chart's drawing box (the SVG viewBox); the page scales it to its width.
CHART_WIDTH = 600
CHART_HEIGHT = 160
CHART_PAD = 8  # keeps the line's top and bottom off the edges
CHART_MAX_POINTS = 300  # a polyline of a few hundred points draws as smoothly as thousands


@dataclass(frozen=True)
class ChipChart:
    """A chip history as an SVG polyline's `points`, with what the page writes around it."""

    points: str
    low: int
    high: int
    first: ChipPoint
    last: ChipPoint
    count: int
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT

    @property
    def area(self) -> str:
        """The polygon under the line, down to the bottom edge (the chart's shading)."""
        return f"0,{self.height} {self.points} {self.width},{self.height}"


def chip_chart(history: tuple[ChipPoint, ...]) -> ChipChart | None:
    """The history drawn in a CHART_WIDTH x CHART_HEIGHT box, one step along per event (a busy
    evening takes the room it deserves, a quiet month does not). None without a history."""
    if not history:
        return None
    count = len(history)
    if count > CHART_MAX_POINTS:
        picks = sorted(
            {round(i * (count - 1) / (CHART_MAX_POINTS - 1)) for i in range(CHART_MAX_POINTS)}
        )
        drawn = [history[i] for i in picks]
    else:
        drawn = list(history)
    if len(drawn) == 1:
        drawn = drawn * 2  # one event: a flat line across
    low = min(p.chips for p in history)
    high = max(p.chips for p in history)
    span = high - low
    inner = CHART_HEIGHT - 2 * CHART_PAD
    coordinates = []
    for i, point in enumerate(drawn):
        x = i * CHART_WIDTH / (len(drawn) - 1)
        y = CHART_PAD + (inner * (high - point.chips) / span if span else inner / 2)
        coordinates.append(f"{x:.1f},{y:.1f}")
    return ChipChart(
        points=" ".join(coordinates),
        low=low,
        high=high,
        first=history[0],
        last=history[-1],
        count=count,
    )


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    user_id: int
    username: str
    net: int
    hands: int


@dataclass(frozen=True)
class Leaderboard:
    key: str
    title: str
    rows: list[LeaderRow]


# (key, title, how far back): the leaderboard's three windows.
LEADERBOARD_WINDOWS = (
    ("week", "Last 7 days", timedelta(days=7)),
    ("month", "Last 30 days", timedelta(days=30)),
    ("all", "All time", None),
)

# One row per player of each finished hand, with the user id and net read from `players`. The
# JSON functions differ between the two databases the site runs on; the rest of the query not.
_PLAYER_ROWS = {
    "postgresql": (
        "CROSS JOIN LATERAL jsonb_array_elements(h.players) AS p(value)",
        "(p.value ->> 'user_id')::bigint",
        "(p.value ->> 'net')::bigint",
    ),
    "sqlite": (
        "CROSS JOIN json_each(h.players) AS p",
        "CAST(json_extract(p.value, '$.user_id') AS INTEGER)",
        "CAST(json_extract(p.value, '$.net') AS INTEGER)",
    ),
}


def leaderboard(*, since: datetime | None, limit: int = 10) -> list[LeaderRow]:
    """The biggest net winners over the hands that ended since `since` (None: all time), with
    how many hands each played there; staff may leave an account out (docs/integrity.md). One
    aggregate query: the nets live in each hand's `players` JSON, summed by the database rather
    than read hand by hand."""
    connection = connections[read_db()]
    join, user_id, net = _PLAYER_ROWS[connection.vendor]
    where = "h.ended_at IS NOT NULL AND h.tournament IS NULL"  # wallet chips: cash hands
    params: list[Any] = []
    if since is not None:
        where += " AND h.ended_at >= %s"
        params.append(connection.ops.adapt_datetimefield_value(since))
    sql = f"""
        SELECT u.id, u.username, t.net, t.hands FROM (
            SELECT {user_id} AS user_id, SUM({net}) AS net, COUNT(*) AS hands
            FROM {HandRecord._meta.db_table} h {join}
            WHERE {where}
            GROUP BY 1
        ) t JOIN {User._meta.db_table} u ON u.id = t.user_id
        WHERE NOT u.off_leaderboard
        ORDER BY t.net DESC, t.hands DESC, u.username
        LIMIT %s
    """  # the table names come from the models; every value is a parameter
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, limit])
        found = cursor.fetchall()
    return [
        LeaderRow(rank=rank, user_id=uid, username=name, net=int(total or 0), hands=hands)
        for rank, (uid, name, total, hands) in enumerate(found, start=1)
    ]


def leaderboards(now: datetime | None = None, limit: int = 10) -> list[Leaderboard]:
    now = now or timezone.now()
    return [
        Leaderboard(
            key=key,
            title=title,
            rows=leaderboard(since=now - back if back else None, limit=limit),
        )
        for key, title, back in LEADERBOARD_WINDOWS
    ]
