"""Breaks and self-exclusions (docs/rules.md 11): taking one, and the refusal an account on one
meets when it signs in, sits, registers or claims free chips.

Taking one takes the wallet lock, the lock those refusals are asked under (as a freeze does).
What it does to the player's seats and registrations is the tables' (holdem/services/breaks.py).
"""

import calendar
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from casino.accounts.models import Exclusion, ExclusionKind, User
from casino.accounts.services import wallet_lock
from casino.accounts.sessions import sessions_changed
from casino.errors import DomainError

# docs/rules.md 11: the lengths offered, by the key a form posts: a break of days, a
# self-exclusion of months.
BREAK_LENGTHS = {"24h": ("24 hours", 1), "7d": ("7 days", 7), "30d": ("30 days", 30)}
EXCLUSION_LENGTHS = {
    "6m": ("6 months", 6),
    "1y": ("1 year", 12),
    "2y": ("2 years", 24),
    "5y": ("5 years", 60),
}
LENGTHS = {ExclusionKind.BREAK: BREAK_LENGTHS, ExclusionKind.SELF_EXCLUSION: EXCLUSION_LENGTHS}


def exclusion_until(*, kind: str, length: str, now: datetime) -> datetime:
    """When a break or a self-exclusion of `length` taken at `now` ends. Refuses what is not
    offered."""
    if kind not in LENGTHS:
        raise DomainError("bad_kind", "choose a break or a self-exclusion")
    lengths = LENGTHS[ExclusionKind(kind)]
    if length not in lengths:
        raise DomainError(
            "bad_length", f"choose one of: {', '.join(w for w, _ in lengths.values())}"
        )
    count = lengths[length][1]
    if kind == ExclusionKind.BREAK:
        return now + timedelta(days=count)
    return _months_later(now, count)


def _months_later(moment: datetime, months: int) -> datetime:
    """The same day and time `months` later (the month's last day when it is shorter)."""
    local = timezone.localtime(moment)
    index = local.month - 1 + months
    year, month = local.year + index // 12, index % 12 + 1
    day = min(local.day, calendar.monthrange(year, month)[1])
    return local.replace(year=year, month=month, day=day)


def exclusion_active(*, user_id: int, now: datetime | None = None) -> Exclusion | None:
    """The break or self-exclusion in force at `now` (the one ending last), if any."""
    now = now or timezone.now()
    return Exclusion.objects.filter(user_id=user_id, until__gt=now).order_by("-until").first()


def until_words(moment: datetime) -> str:
    """ "7 Dec 2026, 14:00 UTC", in the site's time zone."""
    local = timezone.localtime(moment)
    return f"{local.day} {local:%b %Y, %H:%M} {local.tzname()}"


def exclusion_message(exclusion: Exclusion) -> str:
    """What the player reads wherever the exclusion refuses them."""
    if exclusion.kind == ExclusionKind.SELF_EXCLUSION:
        return f"You excluded yourself from play until {until_words(exclusion.until)}"
    return f"You took a break until {until_words(exclusion.until)}"


def exclusion_refusal(*, user_id: int, now: datetime | None = None) -> DomainError | None:
    """The refusal an account on a break or self-excluded meets when it tries to sit, register or
    claim free chips. Asked under the wallet lock, which taking one takes too."""
    exclusion = exclusion_active(user_id=user_id, now=now)
    if exclusion is None:
        return None
    return DomainError("excluded", exclusion_message(exclusion))


def exclusion_take(*, user: User, kind: str, length: str, now: datetime | None = None) -> Exclusion:
    """docs/rules.md 11: the player takes a break or excludes themselves. Every session of the
    account is signed out (its sockets close once this commits) and nothing can shorten it:
    one already in force refuses another."""
    now = now or timezone.now()
    until = exclusion_until(kind=kind, length=length, now=now)
    with transaction.atomic():
        wallet_lock(user_ids=[user.pk])
        row = User.objects.select_for_update().get(pk=user.pk)
        current = exclusion_active(user_id=row.pk, now=now)
        if current is not None:
            raise DomainError(
                "already_excluded", f"{exclusion_message(current)}; it cannot be changed"
            )
        exclusion = Exclusion.objects.create(user=row, kind=kind, created_at=now, until=until)
        row.session_epoch += 1  # every session's stored hash stops matching (models.User)
        row.save(update_fields=["session_epoch"])
        sessions_changed.send(sender=None, user_id=row.pk, ended_session=None)
    return exclusion
