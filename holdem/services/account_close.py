"""A player closes their own account (RULES.md 10): refused while they sit at a table or are in a
tournament that has not finished; otherwise they leave the waiting lists, and the account is
closed (casino/accounts/closing.py). Chips stay in the wallet and the ledger."""

from django.db import transaction

from casino.accounts.closing import account_close_row
from casino.accounts.models import User
from casino.accounts.services import wallet_lock
from casino.errors import DomainError
from holdem.models import Seat, WaitingEntry
from holdem.selectors.tournaments import entry_open_of
from holdem.services.waiting import waiting_leave


def account_close(*, user: User, password: str, confirmed: bool) -> User:
    """Close `user`'s account once they gave their password and confirmed. Every refusal leaves
    the account, its waiting lists and its chips as they were."""
    if not confirmed:
        raise DomainError(
            "confirmation_required", "tick the box to confirm that you want to close your account"
        )
    if not password or not user.check_password(password):
        raise DomainError("wrong_password", "that is not your password")
    with transaction.atomic():
        # The tables of the waiting lists first, then the wallet (style.md 8: one lock order);
        # a refusal below undoes the leaving.
        for table_id in sorted(
            WaitingEntry.objects.filter(user=user).values_list("table_id", flat=True)
        ):
            waiting_leave(table_id=table_id, user=user)
        # Sitting down and registering ask under this lock too, so neither slips in meanwhile.
        wallet_lock(user_ids=[user.pk])
        refusal = _still_playing(user)
        if refusal is not None:
            raise refusal
        return account_close_row(user=user)


def _still_playing(user: User) -> DomainError | None:
    seat = Seat.objects.filter(user=user).select_related("table").first()
    if seat is not None:
        return DomainError(
            "seated",
            f"you sit at {seat.table.name}; leave the table before you close your account",
        )
    entry = entry_open_of(user)
    if entry is not None:
        return DomainError(
            "in_tournament",
            f"you are in {entry.tournament.name} (#{entry.tournament_id}), which has not "
            "finished; unregister, or close your account once your part in it is over",
        )
    return None
