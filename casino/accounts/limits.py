"""Buy-in limits (docs/rules.md 11): a player's cap on the chips they put into play, net of what
came back, per calendar day, week and month; read, checked where chips leave the wallet, and set.

The check is asked under the player's wallet lock, which setting a limit takes too.
"""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from casino.accounts.formatting import chips
from casino.accounts.models import BuyInLimit, LedgerEntry, LedgerKind, LimitPeriod, User
from casino.accounts.services import wallet_lock
from casino.errors import DomainError

# docs/rules.md 11: what counts. Chips into play (negative lines) and back from it (positive).
INTO_PLAY = (LedgerKind.BUY_IN, LedgerKind.TOURNAMENT_BUY_IN, LedgerKind.TOURNAMENT_FEE)
BACK_FROM_PLAY = (LedgerKind.CASH_OUT, LedgerKind.TOURNAMENT_REFUND, LedgerKind.TOURNAMENT_PRIZE)
PLAY_KINDS = (*INTO_PLAY, *BACK_FROM_PLAY)

# docs/rules.md 11: a higher limit, or none, waits this long; a lower one applies at once.
RAISE_DELAY = timedelta(hours=24)
# More chips than the site has ever seen: a typing slip, refused with a clear message.
MAX_LIMIT = 10**12

PERIOD_WORDS = {LimitPeriod.DAY: "daily", LimitPeriod.WEEK: "weekly", LimitPeriod.MONTH: "monthly"}


def period_bounds(period: str, now: datetime) -> tuple[datetime, datetime]:
    """docs/rules.md 11: the calendar day, week (from Monday) or month holding `now`, in the
    site's time zone, as [start, end)."""
    today = timezone.localtime(now).date()
    if period == LimitPeriod.DAY:
        first, after = today, today + timedelta(days=1)
    elif period == LimitPeriod.WEEK:
        first = today - timedelta(days=today.weekday())
        after = first + timedelta(days=7)
    else:
        first = today.replace(day=1)
        after = (first + timedelta(days=32)).replace(day=1)
    return _midnight(first), _midnight(after)


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=timezone.get_current_timezone())


def when_words(moment: datetime, now: datetime) -> str:
    """ "00:00 UTC on 7 Dec" (with the year when it is not this one's)."""
    local, today = timezone.localtime(moment), timezone.localtime(now)
    year = f" {local.year}" if local.year != today.year else ""
    return f"{local:%H:%M} {local.tzname()} on {local.day} {local:%b}{year}"


def limit_in_force(row: BuyInLimit, now: datetime) -> int | None:
    """The limit that applies at `now`: the pending raise once its 24 hours have passed."""
    if row.pending_from is not None and row.pending_from <= now:
        return row.pending_amount
    return row.amount


def net_buy_ins(*, user_id: int, periods: list[str], now: datetime) -> dict[str, int]:
    """docs/rules.md 11: chips put into play minus chips back from it since the start of each
    period holding `now`, in one query."""
    starts = {period: period_bounds(period, now)[0] for period in periods}
    totals = LedgerEntry.objects.filter(
        user_id=user_id, kind__in=PLAY_KINDS, created_at__gte=min(starts.values())
    ).aggregate(
        **{
            period: Sum("amount", filter=Q(created_at__gte=start))
            for period, start in starts.items()
        }
    )
    return {period: -(totals[period] or 0) for period in periods}


@dataclass(frozen=True)
class LimitUse:
    """One period's limit as the responsible-play page shows it."""

    period: str
    words: str
    limit: int | None
    used: int
    left: int | None
    resets_at: datetime
    pending_amount: int | None
    pending_from: datetime | None  # None: no raise waiting


def buy_in_limits_for(*, user: User, now: datetime | None = None) -> list[LimitUse]:
    """Every period, its limit in force (None: none), what is used and left, and a raise waiting."""
    now = now or timezone.now()
    rows = {row.period: row for row in BuyInLimit.objects.filter(user_id=user.pk)}
    used = net_buy_ins(user_id=user.pk, periods=list(LimitPeriod.values), now=now)
    uses = []
    for period in LimitPeriod.values:
        row = rows.get(period)
        limit = limit_in_force(row, now) if row else None
        waiting = row is not None and row.pending_from is not None and row.pending_from > now
        uses.append(
            LimitUse(
                period=period,
                words=PERIOD_WORDS[LimitPeriod(period)],
                limit=limit,
                used=used[period],
                left=None if limit is None else max(0, limit - used[period]),
                resets_at=period_bounds(period, now)[1],
                pending_amount=row.pending_amount if waiting and row else None,
                pending_from=row.pending_from if waiting and row else None,
            )
        )
    return uses


def buy_in_limit_refusal(
    *, user: User, amount: int, now: datetime | None = None
) -> DomainError | None:
    """Why `amount` more chips may not go into play now (None: they may). Asked under the
    player's wallet lock, before any chip moves. Where more than one limit refuses, the one
    that leaves least is named (the later reset among equals: that is when play can resume)."""
    now = now or timezone.now()
    limits = {
        row.period: limit
        for row in BuyInLimit.objects.filter(user_id=user.pk)
        if (limit := limit_in_force(row, now)) is not None
    }
    if not limits:
        return None
    used = net_buy_ins(user_id=user.pk, periods=list(limits), now=now)
    refusals = []
    for period, limit in limits.items():
        left = max(0, limit - used[period])
        if amount > left:
            refusals.append((left, -period_bounds(period, now)[1].timestamp(), period, limit))
    if not refusals:
        return None
    left, _, period, limit = min(refusals)
    reset = when_words(period_bounds(period, now)[1], now)
    words = PERIOD_WORDS[LimitPeriod(period)]
    room = f"leaves {chips(left)} chips" if left else "is used up"
    return DomainError(
        "buy_in_limit",
        f"your {words} buy-in limit of {chips(limit)} chips {room} until {reset}",
    )


def buy_in_limit_set(
    *, user: User, period: str, amount: int | None, now: datetime | None = None
) -> BuyInLimit:
    """docs/rules.md 11: set a period's limit (`amount` None: no limit). Lower than the one in
    force: at once, and a raise waiting is dropped. Higher, or none: it waits 24 hours as the
    pending raise, the limit in force staying meanwhile; asking again does not restart it."""
    if period not in LimitPeriod.values:
        raise DomainError("bad_period", "a buy-in limit is daily, weekly or monthly")
    if amount is not None:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise DomainError("bad_amount", "a limit is a whole number of chips")
        if amount < 0:
            raise DomainError("bad_amount", "a limit cannot be negative")
        if amount > MAX_LIMIT:
            raise DomainError("bad_amount", f"a limit is at most {chips(MAX_LIMIT)} chips")
    now = now or timezone.now()
    words = PERIOD_WORDS[LimitPeriod(period)]
    with transaction.atomic():
        wallet_lock(user_ids=[user.pk])  # ordered with the buy-ins that ask the limit
        row = BuyInLimit.objects.select_for_update().filter(user_id=user.pk, period=period).first()
        if row is None:
            row = BuyInLimit(user_id=user.pk, period=period, amount=None)
        current = limit_in_force(row, now)
        row.amount = current  # a raise whose 24 hours have passed is the limit now
        waiting = row.pending_from is not None and row.pending_from > now
        if not waiting:
            row.pending_amount = row.pending_from = None
        if amount == current:
            if not waiting:
                raise DomainError("unchanged", _unchanged_words(words, amount))
            row.pending_amount = row.pending_from = None  # the raise waiting is withdrawn
        elif current is None or (amount is not None and amount < current):
            row.amount = amount  # lower: at once
            row.pending_amount = row.pending_from = None
        elif waiting and row.pending_amount == amount:
            assert row.pending_from is not None  # `waiting`
            raise DomainError(
                "unchanged",
                f"this raise is already waiting: it applies at {when_words(row.pending_from, now)}",
            )
        else:
            row.pending_amount = amount
            row.pending_from = now + RAISE_DELAY
        row.changed_at = now
        row.save()
    return row


def _unchanged_words(words: str, amount: int | None) -> str:
    if amount is None:
        return f"you have no {words} limit"
    return f"your {words} limit is already {chips(amount)} chips"
