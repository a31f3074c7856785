"""Each wallet's ledger lines as a hash chain (casino/chain.py): what a line's hash covers, the
link a new line gets from its wallet (under the wallet lock), and the walk of every wallet's chain.
"""

from collections.abc import Iterator
from typing import Any

from django.db import DEFAULT_DB_ALIAS

from casino.accounts.models import LedgerEntry, Wallet
from casino.chain import ChainResult, Head, Link, chain_hash, chain_time, chains_walk

# The fields of a ledger line its hash covers (docs/fairness.md). Its id is not among them: it is
# not known before the INSERT; its place is held by the link to the line before it.
LEDGER_FIELDS = (
    "user_id",
    "amount",
    "balance_after",
    "kind",
    "reason",
    "actor_id",
    "table_id",
    "idempotency_key",
    "created_at",
)


def ledger_content(line: dict[str, Any]) -> dict[str, Any]:
    """The hashed content of a ledger line given as {field: value} (LEDGER_FIELDS)."""
    content = {name: line[name] for name in LEDGER_FIELDS}
    content["created_at"] = chain_time(line["created_at"])
    return content


def ledger_link(wallet: Wallet, entry: LedgerEntry) -> None:
    """Chain `entry` (not saved yet, every hashed field set) to its wallet's last line and make it
    the wallet's head (its `ledger_chain_last_id` once the INSERT gave the entry its id). The caller
    holds the wallet's lock and saves both (LEDGER_HEAD_FIELDS)."""
    entry.chain_prev_id = wallet.ledger_chain_last_id
    entry.chain_hash = chain_hash(
        ledger_content({name: getattr(entry, name) for name in LEDGER_FIELDS}),
        prev_id=wallet.ledger_chain_last_id,
        prev_hash=wallet.ledger_chain_hash,
    )
    wallet.ledger_chain_hash = entry.chain_hash
    wallet.ledger_chain_length += 1


LEDGER_HEAD_FIELDS = ("ledger_chain_length", "ledger_chain_last_id", "ledger_chain_hash")


def ledger_chains(
    *, chunk_size: int = 2000, using: str = DEFAULT_DB_ALIAS
) -> Iterator[ChainResult]:
    """Walk every wallet's chain, in one pass over the wallets and one over the ledger (server
    side cursors, `chunk_size` rows at a time). Run it in one snapshot (REPEATABLE READ) so the
    heads and the lines are of the same moment."""
    heads = (
        (user_id, Head(length, last_id, head_hash))
        for user_id, length, last_id, head_hash in Wallet.objects.using(using)
        .order_by("user_id")
        .values_list("user_id", *LEDGER_HEAD_FIELDS)
        .iterator(chunk_size=chunk_size)
    )
    columns = ("id", "chain_prev_id", "chain_hash", *LEDGER_FIELDS)
    lines = (
        (
            line["user_id"],
            Link(line["id"], line["chain_prev_id"], line["chain_hash"], ledger_content(line)),
        )
        for line in LedgerEntry.objects.using(using)
        .order_by("user_id", "id")
        .values(*columns)
        .iterator(chunk_size=chunk_size)
    )
    return chains_walk(heads, lines)
