"""The history audit: every wallet's ledger chain and every table's chain of hands walked, and the
first row altered, inserted or removed in each broken one (`manage.py verify_chain`)."""

from dataclasses import dataclass, field

from django.db import connection, transaction

from casino.accounts.ledger_chain import ledger_chains
from casino.chain import ChainResult
from holdem.selectors.hand_chain import hand_chains


@dataclass
class ChainAudit:
    ledger_chains: int = 0
    ledger_lines: int = 0
    hand_chains: int = 0
    hands: int = 0
    breaks: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.breaks

    def summary(self) -> str:
        counts = (
            f"{self.ledger_chains + self.hand_chains:,} chains, "
            f"{self.ledger_lines + self.hands:,} records checked "
            f"({self.ledger_lines:,} ledger lines in {self.ledger_chains:,} wallets, "
            f"{self.hands:,} hands at {self.hand_chains:,} tables)"
        )
        if self.ok:
            return f"history OK: {counts}"
        lines = [f"BROKEN {line}" for line in self.breaks]
        lines.append(f"history NOT OK: {len(self.breaks):,} broken chain(s); {counts}")
        return "\n".join(lines)


def chains_audit(*, chunk_size: int = 1000) -> ChainAudit:
    """Walk every chain in one snapshot of the database (REPEATABLE READ on PostgreSQL, read
    only), so that lines and hands written meanwhile neither break nor hide anything. Called
    inside a transaction already (a test's), it reads in that one."""
    audit = ChainAudit()
    snapshot = connection.vendor == "postgresql" and not connection.in_atomic_block
    with transaction.atomic():
        if snapshot:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        for result in ledger_chains(chunk_size=chunk_size):
            audit.ledger_chains += 1
            audit.ledger_lines += result.checked
            _note(audit, result, row="accounts.LedgerEntry", head="accounts.Wallet of user")
        for result in hand_chains(chunk_size=chunk_size):
            audit.hand_chains += 1
            audit.hands += result.checked
            _note(audit, result, row="holdem.HandRecord", head="holdem.Table")
    return audit


def _note(audit: ChainAudit, result: ChainResult, *, row: str, head: str) -> None:
    broken = result.broken
    if broken is None:
        return
    if broken.record_id is None:
        audit.breaks.append(f"{head} #{result.owner} (the chain's head): {broken.found}")
    else:
        owner = "wallet of user" if row == "accounts.LedgerEntry" else "table"
        audit.breaks.append(
            f"{row} #{broken.record_id} in the chain of {owner} #{result.owner}: {broken.found}"
        )
