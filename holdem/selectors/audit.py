"""The chip audit: every balance equals its ledger, and all chips add up to what was granted
(`manage.py audit_chips`; the tests run it after play).
"""

from dataclasses import dataclass, field

from django.db import DEFAULT_DB_ALIAS
from django.db.models import Sum

from casino.accounts.models import SYSTEM_KINDS, LedgerEntry, Wallet
from casino.db_routing import snapshot
from holdem import engine
from holdem.models import Seat, Table, TableKind, Tournament, TournamentStatus


@dataclass
class ChipAudit:
    granted: int = 0
    in_wallets: int = 0
    at_tables: int = 0
    rake: int = 0
    in_tournaments: int = 0  # registrations, prize pools not yet paid, and fees (RULES.md 8)
    problems: list[str] = field(default_factory=list)

    @property
    def accounted(self) -> int:
        return self.in_wallets + self.at_tables + self.rake + self.in_tournaments

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        lines = [
            f"chips granted minus removed: {self.granted:,}",
            f"in wallets:                  {self.in_wallets:,}",
            f"at tables (seats and pots):  {self.at_tables:,}",
            f"rake collected:              {self.rake:,}",
            f"in tournaments and fees:     {self.in_tournaments:,}",
            f"accounted for:               {self.accounted:,}",
        ]
        lines += [f"PROBLEM: {p}" for p in self.problems]
        lines.append("chips OK" if self.ok else f"chips NOT OK: {len(self.problems)} problem(s)")
        return "\n".join(lines)


def table_chip_totals(using: str = DEFAULT_DB_ALIAS) -> tuple[int, int]:
    """(chips at cash tables: seat stacks plus everything in hands in progress, rake collected).
    Tournament chips are not wallet chips (RULES.md 8): the tournament's money is counted by
    `tournament_totals`."""
    cash = Table.objects.using(using).filter(kind=TableKind.CASH)
    in_seats = Seat.objects.using(using).filter(table__in=cash).aggregate(s=Sum("stack"))["s"] or 0
    in_hands = 0
    for text in cash.exclude(hand_state="").values_list("hand_state", flat=True):
        in_hands += engine.state_from_json(text).total_chips
    rake = cash.aggregate(s=Sum("rake_collected"))["s"] or 0
    return in_seats + in_hands, rake


def tournament_totals(audit: ChipAudit, using: str = DEFAULT_DB_ALIAS) -> int:
    """RULES.md 8: the wallet chips the tournaments hold: the buy-ins and fees of registrations
    not yet started, the prize pools of running ones less what they paid, and the fees of every
    one that started. Each running tournament must also still hold all its tournament chips
    (the starting stacks of its entrants); a problem is noted in `audit` when not."""
    held = 0
    for tournament in Tournament.objects.using(using).exclude(status=TournamentStatus.CANCELLED):
        if tournament.status == TournamentStatus.REGISTERING:
            held += tournament.entries.count() * (tournament.buy_in + tournament.fee)
            continue
        held += (
            tournament.entrants * tournament.fee + tournament.prize_pool - tournament.prizes_paid
        )
        if tournament.status == TournamentStatus.RUNNING:
            chips = (
                Seat.objects.using(using)
                .filter(table__tournament=tournament)
                .aggregate(s=Sum("stack"))
            )
            in_play = chips["s"] or 0
            state = (
                Table.objects.using(using)
                .filter(tournament=tournament)
                .values_list("hand_state", flat=True)
            )
            for text in state:
                in_play += engine.state_from_json(text).total_chips if text else 0
            expected = tournament.entrants * tournament.starting_stack
            if in_play != expected:
                audit.problems.append(
                    f"tournament {tournament.pk}: {in_play:,} tournament chips in play, "
                    f"{expected:,} were dealt"
                )
    return held


def audit_chips(using: str = DEFAULT_DB_ALIAS) -> ChipAudit:
    """The books of database `using` (the command reads the replica when there is one), in one
    snapshot: read statement by statement while play goes on, chips moving from a wallet to a
    seat between two reads were counted twice or not at all."""
    with snapshot(using):
        return _audit(using)


def _audit(using: str) -> ChipAudit:
    audit = ChipAudit()
    ledger = LedgerEntry.objects.using(using)
    wallets = Wallet.objects.using(using)
    audit.granted = ledger.filter(kind__in=SYSTEM_KINDS).aggregate(s=Sum("amount"))["s"] or 0
    audit.in_wallets = wallets.aggregate(s=Sum("balance"))["s"] or 0
    # the tables hold the rest of the chips
    audit.at_tables, audit.rake = table_chip_totals(using)
    audit.in_tournaments = tournament_totals(audit, using)

    ledger_totals = dict(ledger.values_list("user_id").annotate(s=Sum("amount")))
    balances = dict(wallets.values_list("user_id", "balance"))
    for user_id in sorted(set(ledger_totals) | set(balances)):
        balance, total = balances.get(user_id, 0), ledger_totals.get(user_id, 0)
        if balance != total:
            audit.problems.append(
                f"user {user_id}: wallet shows {balance:,} but the ledger adds up to {total:,}"
            )
    _check_running_balances(audit, using)

    accounted = audit.accounted
    if accounted != audit.granted:
        audit.problems.append(
            f"{accounted:,} chips are accounted for but {audit.granted:,} were granted ({accounted - audit.granted:+,})"
        )
    return audit


def _check_running_balances(audit: ChipAudit, using: str) -> None:
    """Each entry's balance_after must be the running sum of that user's entries."""
    running: dict[int, int] = {}
    rows = (
        LedgerEntry.objects.using(using)
        .order_by("user_id", "id")
        .values_list("id", "user_id", "amount", "balance_after")
    )
    for entry_id, user_id, amount, balance_after in rows.iterator(chunk_size=2000):
        running[user_id] = running.get(user_id, 0) + amount
        if running[user_id] != balance_after:
            audit.problems.append(
                f"ledger entry {entry_id} (user {user_id}) says balance {balance_after:,}, "
                f"running sum is {running[user_id]:,}"
            )
            running[user_id] = balance_after  # report each break once
