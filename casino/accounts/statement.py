"""A player's monthly statement, its chip part (RULES.md 10): the month's ledger lines summed by
kind, the balance it opened and closed with, the sign-ins, and which months may be asked for.

Months are calendar months in the site's time zone (settings.TIME_ZONE).
"""

import re
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Sum
from django.utils import timezone

from casino.accounts.models import LedgerEntry, LedgerKind, SignIn, User
from casino.errors import DomainError

MONTH_FORMAT = re.compile(r"^(\d{4})-(\d{2})$")

# What each kind of line is called on the statement, in the order shown. A kind added later and
# not named here still shows (under its own label, after these): the totals must add up.
KIND_LABELS: dict[str, str] = {
    LedgerKind.GRANT: "Welcome grant",
    LedgerKind.REFILL: "Free chips",
    LedgerKind.BUY_IN: "Buy-ins",
    LedgerKind.CASH_OUT: "Cash-outs",
    LedgerKind.TOURNAMENT_BUY_IN: "Tournament buy-ins",
    LedgerKind.TOURNAMENT_FEE: "Tournament fees",
    LedgerKind.TOURNAMENT_REFUND: "Tournament refunds",
    LedgerKind.TOURNAMENT_PRIZE: "Tournament prizes",
    LedgerKind.ADMIN_ADJUSTMENT: "Adjustments by staff",
    LedgerKind.STAFF_MOVE: "Chips moved by staff",
}


@dataclass(frozen=True, order=True)
class Month:
    year: int
    month: int

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    @property
    def start(self) -> datetime:
        """Its first instant, in the site's time zone."""
        return datetime(self.year, self.month, 1, tzinfo=timezone.get_current_timezone())

    @property
    def end(self) -> datetime:
        """The first instant of the month after it."""
        return self.following.start

    @property
    def following(self) -> "Month":
        return Month(self.year + self.month // 12, self.month % 12 + 1)

    @property
    def preceding(self) -> "Month":
        return Month(self.year - (self.month == 1), (self.month - 2) % 12 + 1)

    @property
    def label(self) -> str:
        return self.start.strftime("%B %Y")


def month_of(moment: datetime) -> Month:
    """The month `moment` falls in, in the site's time zone."""
    local = timezone.localtime(moment)
    return Month(local.year, local.month)


def month_parse(text: str) -> Month:
    """ "2026-05" as a Month; anything else is refused with a clear message."""
    match = MONTH_FORMAT.match((text or "").strip())
    if match is None:
        raise DomainError("bad_month", f"{text[:20]!r} is not a month: write it as YYYY-MM")
    year, month = int(match.group(1)), int(match.group(2))
    if not 1 <= month <= 12 or year < 1970:
        raise DomainError("bad_month", f"{text} is not a month: months run from 01 to 12")
    return Month(year, month)


def statement_months(*, user: User, now: datetime | None = None) -> list[Month]:
    """The months the account existed, newest first: from its sign-up to this one."""
    first = month_of(user.date_joined)
    month = month_of(now or timezone.now())
    months = []
    while month >= first:
        months.append(month)
        month = month.preceding
    return months


def statement_month_check(*, user: User, month: Month, now: datetime | None = None) -> None:
    """Refuse a month the account did not live through: before its sign-up, or still to come."""
    if month > month_of(now or timezone.now()):
        raise DomainError("future_month", f"{month.label} has not come yet")
    if month < month_of(user.date_joined):
        raise DomainError("month_before_account", f"your account was opened after {month.label}")


@dataclass(frozen=True)
class KindTotal:
    kind: str
    label: str
    lines: int
    chips: int


@dataclass(frozen=True)
class LedgerMonth:
    """The ledger's month: opening + the sum of every line = closing."""

    opening: int
    closing: int
    kinds: list[KindTotal]
    sign_ins: int

    @property
    def lines(self) -> int:
        return sum(kind.lines for kind in self.kinds)

    @property
    def net(self) -> int:
        return sum(kind.chips for kind in self.kinds)


def ledger_month(*, user: User, month: Month) -> LedgerMonth:
    """The month's ledger lines summed by kind (every kind shown, none left out), with the
    balance after the last line before the month and after the month's own last line."""
    start, end = month.start, month.end
    lines = LedgerEntry.objects.filter(user=user)
    sums = {
        row["kind"]: (row["lines"], row["chips"])
        for row in lines.filter(created_at__gte=start, created_at__lt=end)
        .order_by()
        .values("kind")
        .annotate(lines=Count("id"), chips=Sum("amount"))
    }
    labels: dict[str, str] = {**dict(LedgerKind.choices), **KIND_LABELS}
    order = [*KIND_LABELS, *(k for k in LedgerKind.values if k not in KIND_LABELS)]
    order += sorted(k for k in sums if k not in order)  # a kind no longer in the code
    kinds = [
        KindTotal(
            kind=kind,
            label=labels.get(kind, kind),
            lines=sums.get(kind, (0, 0))[0],
            chips=int(sums.get(kind, (0, 0))[1] or 0),
        )
        for kind in order
    ]
    # A wallet's lines are written under its lock, so their ids and times rise together.
    before = lines.filter(created_at__lt=start).order_by("-id").values_list("balance_after")
    opening = before.first()
    through = lines.filter(created_at__lt=end).order_by("-id").values_list("balance_after")
    closing = through.first()
    sign_ins = SignIn.objects.filter(user=user, at__gte=start, at__lt=end).count()
    return LedgerMonth(
        opening=opening[0] if opening else 0,
        closing=closing[0] if closing else 0,
        kinds=kinds,
        sign_ins=sign_ins,
    )
