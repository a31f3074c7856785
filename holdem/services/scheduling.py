"""Staff's changes to a scheduled multi-table tournament (RULES.md 9) after scheduling it: every
figure before the start, and only those that nothing in play depends on once it runs.
Scheduling itself is tournament_schedule (holdem/services/multi_table.py).
"""

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction

from casino.errors import DomainError
from holdem.models import Tournament, TournamentKind, TournamentStatus
from holdem.services.multi_table import tournament_check
from holdem.services.tournaments import lobby_announce, tournament_locked

# What staff set when they schedule one: tournament_schedule's keywords, the model's columns.
SCHEDULE_FIELDS = (
    "name",
    "starts_at",
    "buy_in",
    "fee",
    "seats",
    "starting_stack",
    "level_seconds",
    "structure",
    "blind_schedule",
    "late_registration_levels",
    "re_entries",
    "max_entrants",
    "repeat_daily",
    "turn_seconds",
    "time_bank_seconds",
    "auto_muck",
)
# Once it runs, its tables were made with the stakes, seats and clocks, the pool holds the
# buy-ins, the level clock runs and the places wait for late registration to close: only these
# may still change. More entries or re-entries let in (or fewer: registration just closes
# sooner), and the name the lobby shows.
CHANGEABLE_RUNNING = ("name", "max_entrants", "re_entries")


def changeable_fields(status: str) -> tuple[str, ...]:
    """The schedule's fields staff may still change in a tournament of this status."""
    if status == TournamentStatus.REGISTERING:
        return SCHEDULE_FIELDS
    if status == TournamentStatus.RUNNING:
        return CHANGEABLE_RUNNING
    return ()


def frozen_changes(status: str, names: Iterable[str]) -> list[str]:
    """Which of the fields `names` a tournament of this status no longer lets change."""
    allowed = changeable_fields(status)
    return [name for name in names if name not in allowed]


def schedule_refusal(tournament: Tournament) -> DomainError | None:
    """Why these figures cannot be played (tournament_check's refusal), or None. A malformed
    blind schedule, which the level arithmetic refuses with a ValueError, is refused the same
    way, naming the field."""
    schedule = tournament.blind_schedule
    if not isinstance(schedule, list) or not all(isinstance(level, list) for level in schedule):
        return DomainError(
            "bad_tournament",
            "the blind schedule is a list of levels, each [small blind, big blind, ante]",
            fields={"blind_schedule": "a list of [small blind, big blind, ante]"},
        )
    try:
        tournament_check(tournament)
    except DomainError as refusal:
        return refusal
    except ValueError as error:
        return DomainError("bad_tournament", str(error), fields={"blind_schedule": str(error)})
    return None


def scheduled_tournament_update(*, tournament_id: int, changes: Mapping[str, Any]) -> Tournament:
    """Staff change a scheduled tournament's figures (`changes`: field -> new value): all of them
    before the start, CHANGEABLE_RUNNING while it runs, none once it is over. The figures are
    checked as at scheduling; the lobby hears of the change."""
    unknown = sorted(set(changes) - set(SCHEDULE_FIELDS))
    if unknown:
        raise DomainError("bad_tournament", f"not a figure of a schedule: {', '.join(unknown)}")
    with transaction.atomic():
        # The tournament row alone: no table is taken, so the lock order holds.
        tournament = tournament_locked(tournament_id)
        if tournament.kind != TournamentKind.SCHEDULED:
            raise DomainError("not_scheduled", "this is a Sit & Go: change its template instead")
        changed = {
            name: value for name, value in changes.items() if getattr(tournament, name) != value
        }
        frozen = frozen_changes(tournament.status, changed)
        if frozen:
            raise DomainError(
                "tournament_started",
                "this tournament has started: "
                f"{', '.join(name.replace('_', ' ') for name in frozen)} can no longer change",
                fields=dict.fromkeys(frozen, "can no longer change"),
            )
        for name, value in changed.items():
            setattr(tournament, name, value)
        refusal = schedule_refusal(tournament)
        if refusal is not None:
            raise refusal
        if changed:
            tournament.save(update_fields=list(changed))
            lobby_announce(tournament)
    return tournament
