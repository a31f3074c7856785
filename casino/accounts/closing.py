"""Closing an account (RULES.md 10), the account's own part: the row that can no longer sign in,
its name freed and its e-mail gone. Its wallet and ledger are not touched. What must be true of
the player's tables and tournaments first is checked by holdem/services/account_close.py."""

from django.db import transaction
from django.utils import timezone

from casino.accounts.models import User
from casino.errors import DomainError

CLOSED_PREFIX = "closed-"


def closed_username(user_id: int) -> str:
    """The name a closed account goes by from then on, everywhere its history is shown."""
    return f"{CLOSED_PREFIX}{user_id}"


def account_close_row(*, user: User) -> User:
    """Mark the account closed: renamed, e-mail and names cleared, password unusable, inactive.
    The caller holds the account's wallet lock (style.md 8) and has checked that it may close.
    Saving the new password and is_active ends every session and closes the open sockets once
    this commits (casino/accounts/sessions.py)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("account_close_row runs inside the caller's transaction")
    row = User.objects.select_for_update().get(pk=user.pk)
    if row.closed_at is not None:
        raise DomainError("already_closed", "this account is already closed")
    row.username = closed_username(row.pk)
    row.email = ""
    row.first_name = ""
    row.last_name = ""
    row.set_unusable_password()
    row.is_active = False
    row.closed_at = timezone.now()
    row.save(
        update_fields=[
            "username",
            "email",
            "first_name",
            "last_name",
            "password",
            "is_active",
            "closed_at",
        ]
    )
    return row
