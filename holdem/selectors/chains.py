"""The history audit: every wallet's ledger chain and every table's chain of hands walked, the
first row altered, inserted or removed in each broken one, and the heads kept from an earlier
audit found again unchanged (`manage.py verify_chain`)."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import batched

from django.db import DEFAULT_DB_ALIAS

from casino.accounts.ledger_chain import ledger_chains
from casino.accounts.models import LedgerEntry
from casino.chain import ChainResult
from casino.db_routing import snapshot
from holdem.models import HandRecord
from holdem.selectors.hand_chain import hand_chains

# Each kind of chain as the report names it: (its rows, its owner's row, the chain).
NAMES = {
    "wallet": ("accounts.LedgerEntry", "accounts.Wallet of user", "the ledger chain of user"),
    "table": ("holdem.HandRecord", "holdem.Table", "the hand chain of table"),
}


@dataclass(frozen=True)
class KeptHead:
    """A chain's last row and its hash, kept outside the database (a line of a heads file):
    `wallet 12 5071 <hash>` (user, ledger line) or `table 3 90211 <hash>` (table, hand)."""

    kind: str
    owner: int
    last_id: int
    hash: str

    def line(self) -> str:
        return f"{self.kind} {self.owner} {self.last_id} {self.hash}"


def kept_heads_read(lines: Iterable[str]) -> list[KeptHead]:
    """The heads of a heads file (KeptHead.line per line; `#` starts a comment); a line of
    another shape is refused with its number."""
    heads = []
    for number, text in enumerate(lines, start=1):
        text = text.split("#", 1)[0].strip()
        if not text:
            continue
        parts = text.split()
        if (
            len(parts) != 4
            or parts[0] not in NAMES
            or not (parts[1].isdigit() and parts[2].isdigit())
            or len(parts[3]) != 64
            or parts[3].strip("0123456789abcdef")
        ):
            raise ValueError(f"line {number} is not 'wallet|table <id> <row id> <sha-256 hex>'")
        heads.append(KeptHead(parts[0], int(parts[1]), int(parts[2]), parts[3]))
    return heads


@dataclass
class ChainAudit:
    ledger_chains: int = 0
    ledger_lines: int = 0
    hand_chains: int = 0
    hands: int = 0
    kept_checked: int = 0
    breaks: list[str] = field(default_factory=list)
    heads: list[KeptHead] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.breaks

    def summary(self) -> str:
        counts = (
            f"{_many(self.ledger_chains + self.hand_chains, 'chain')}, "
            f"{_many(self.ledger_lines + self.hands, 'record')} checked "
            f"({_many(self.ledger_lines, 'ledger line')} in {_many(self.ledger_chains, 'wallet')}, "
            f"{_many(self.hands, 'hand')} at {_many(self.hand_chains, 'table')})"
        )
        if self.kept_checked:
            counts += f"; {_many(self.kept_checked, 'kept head')} found again"
        if self.ok:
            return f"history OK: {counts}"
        lines = [f"BROKEN {line}" for line in self.breaks]
        lines.append(f"history NOT OK: {len(self.breaks):,} broken; {counts}")
        return "\n".join(lines)


def _many(count: int, thing: str) -> str:
    return f"{count:,} {thing}" + ("" if count == 1 else "s")


def chains_audit(
    *,
    chunk_size: int = 1000,
    keep_heads: bool = False,
    kept: Iterable[KeptHead] = (),
    using: str = DEFAULT_DB_ALIAS,
) -> ChainAudit:
    """Walk every chain in one snapshot of database `using` (REPEATABLE READ on PostgreSQL, read
    only), so that lines and hands written meanwhile neither break nor hide anything. Called
    inside a transaction already (a test's), it reads in that one.

    `keep_heads`: list each chain's head in `heads`, to be kept outside the database. `kept`:
    heads kept earlier; each must still be its chain's row with the same hash."""
    audit = ChainAudit()
    with snapshot(using):
        for result in ledger_chains(chunk_size=chunk_size, using=using):
            audit.ledger_chains += 1
            audit.ledger_lines += result.checked
            _note(audit, result, "wallet", keep_heads)
        for result in hand_chains(chunk_size=chunk_size, using=using):
            audit.hand_chains += 1
            audit.hands += result.checked
            _note(audit, result, "table", keep_heads)
        _check_kept(audit, kept, chunk_size, using)
    return audit


def _note(audit: ChainAudit, result: ChainResult, kind: str, keep_heads: bool) -> None:
    broken = result.broken
    row, head, chain = NAMES[kind]
    if broken is None:
        # A table's last hand may still change (RULES.md 4: a show after the hand, until the
        # next hand ends): the hand before it is the one kept.
        kept = result.head if kind == "wallet" else result.before_last
        if keep_heads and kept is not None and kept.last_id is not None:
            audit.heads.append(KeptHead(kind, result.owner, kept.last_id, kept.hash))
    elif broken.record_id is None:
        audit.breaks.append(f"{head} #{result.owner} (the chain's head): {broken.found}")
    else:
        audit.breaks.append(f"{row} #{broken.record_id} in {chain} #{result.owner}: {broken.found}")


def _check_kept(audit: ChainAudit, kept: Iterable[KeptHead], chunk_size: int, using: str) -> None:
    """A kept head's row must be there, in the same chain, with the same hash. The walk checked
    every row against the one before it, so the same hash there means nothing up to that row has
    changed since the head was kept; rewriting it all, hashes and head included, shows here."""
    models = {"wallet": (LedgerEntry, "user_id"), "table": (HandRecord, "table_id")}
    for chunk in batched(kept, chunk_size, strict=False):
        for kind, (model, owner_field) in models.items():
            mine = {head.last_id: head for head in chunk if head.kind == kind}
            if not mine:
                continue
            found = {
                row_id: (owner, row_hash)
                for row_id, owner, row_hash in model._default_manager.using(using)
                .filter(pk__in=list(mine))
                .values_list("id", owner_field, "chain_hash")
                .iterator(chunk_size=chunk_size)
            }
            for row_id, head in mine.items():
                audit.kept_checked += 1
                there = found.get(row_id)
                if there == (head.owner, head.hash):
                    continue
                now = "it is gone" if there is None else f"it has {there[1][:16]}... now"
                row, _, chain = NAMES[kind]
                audit.breaks.append(
                    f"{row} #{row_id} in {chain} #{head.owner}: rewritten: "
                    f"the heads kept name it with hash {head.hash[:16]}..., {now}"
                )
