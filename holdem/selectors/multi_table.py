"""The multi-table tournament reads (RULES.md 9): whether it takes entries, its prize table, and
the tournament as the lobby lists it (docs/protocol.md, `tournament`).
"""

from typing import Any

from django.db.models import Count

from holdem.engine.tournament import payout_percents
from holdem.engine.tournament_tables import BASIS_POINTS, default_payouts, prizes_of
from holdem.models import Seat, Tournament, TournamentStatus
from holdem.selectors.game_state import epoch_ms
from holdem.selectors.tournaments import level_of, results_url


def registration_open(tournament: Tournament) -> bool:
    """RULES.md 9: entries are taken before the start, then until the end of level
    `late_registration_levels`, while there is room (`max_entrants`)."""
    if tournament.status == TournamentStatus.REGISTERING:
        is_open = True
    elif tournament.status == TournamentStatus.RUNNING:
        is_open = tournament.level < tournament.late_registration_levels
    else:
        return False
    if is_open and tournament.max_entrants is not None:
        return tournament.entries.count() < tournament.max_entrants
    return is_open


def payout_shares(tournament: Tournament, entrants: int) -> tuple[int, ...]:
    """Each paid place's share of the pool in basis points: the tournament's own table
    (`payouts`, percents by entrants, as a Sit & Go's) or the site's default (RULES.md 9)."""
    if tournament.payouts:
        return tuple(
            p * (BASIS_POINTS // 100) for p in payout_percents(entrants, tournament.payouts)
        )
    return default_payouts(entrants)


def places_paid(tournament: Tournament) -> int:
    """RULES.md 9: how many places the payout table in use pays for the entrants so far."""
    return len(payout_shares(tournament, max(2, tournament.entrants)))


def mtt_prize_table(tournament: Tournament) -> list[int]:
    """RULES.md 9: the prize of each place paid, best first, for the entrants and pool as they
    stand (they grow with late entries until registration closes)."""
    entrants = max(2, tournament.entrants or tournament.entries.count())
    pool = tournament.prize_pool or tournament.buy_in * entrants
    return prizes_of(pool, payout_shares(tournament, entrants))


def mtt_summary(tournament: Tournament) -> dict[str, Any]:
    """The tournament as the lobby lists it (docs/protocol.md, `tournament`)."""
    registered = tournament.entries.count()
    alive = tournament.entries.filter(finished_at__isnull=True).count()
    entrants = tournament.entrants or registered
    prize_pool = tournament.prize_pool or tournament.buy_in * registered
    tables = (
        Seat.objects.filter(table__tournament=tournament)
        .values("table_id")
        .annotate(n=Count("id"))
        .count()
    )
    running = tournament.status == TournamentStatus.RUNNING
    return {
        "id": tournament.pk,
        "kind": "scheduled",
        "name": tournament.name,
        "status": tournament.status,
        "starts_at": epoch_ms(tournament.starts_at) if tournament.starts_at else None,
        "entrants": entrants,
        "registered": registered,
        "players_left": alive if running else None,
        "max_entrants": tournament.max_entrants,
        "structure": tournament.structure,
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "starting_stack": tournament.starting_stack,
        "table_seats": tournament.seats,
        "tables": tables,
        "prize_pool": prize_pool,
        "places_paid": len(mtt_prize_table(tournament)) if entrants >= 2 else 0,
        "registration_open": registration_open(tournament),
        "late_registration_levels": tournament.late_registration_levels,
        "re_entries": tournament.re_entries,
        "level": level_of(tournament, tournament.level) if running else None,
        "level_ends_at": epoch_ms(tournament.level_ends_at)
        if running and tournament.level_ends_at
        else None,
        "hand_for_hand": tournament.hand_for_hand,
        "url": results_url(tournament.pk),
    }
