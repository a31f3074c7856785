"""The session reminder's period (docs/rules.md 11), kept in the player's preferences."""

from casino.accounts.models import Preferences, User
from casino.accounts.preferences import preferences_update
from casino.errors import DomainError

# docs/rules.md 11: every 15, 30 or 60 minutes of a play session, or never (the default).
REMINDER_MINUTES = (15, 30, 60)


def session_reminder_set(*, user: User, minutes: int | None) -> Preferences:
    """Remind the player every `minutes` of play (None: no reminders)."""
    if minutes is not None and (isinstance(minutes, bool) or minutes not in REMINDER_MINUTES):
        raise DomainError(
            "bad_reminder", "a reminder comes every 15, 30 or 60 minutes, or not at all"
        )
    return preferences_update(user=user, session_reminder_minutes=minutes)
