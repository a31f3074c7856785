"""Which database a read goes to: the replica for the pages that may be a few seconds behind,
the primary for everything else.

There is no database router: a router decides for every query, and one that sent a read made
under a table's lock, or a wallet about to be charged, to the replica would play on stale
rows. Here a selector names the replica itself (`.using(read_db())`), so a read goes there only
where its author chose it: the hand history, the statistics, the leaderboard, the lobby's
figures and the audits (docs/decisions.md, Database). Play never does.

A replica is a consistent image of the primary some moments ago. A page that must show a row
just written (the hand that has just ended) asks the replica first and the primary when the
replica does not have it yet (`replica_or_primary`). A replica that cannot be reached is left
alone for a while and its reads go to the primary meanwhile.
"""

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections, transaction

REPLICA = "replica"
# How long the reads stay on the primary after the replica could not be reached.
REPLICA_RETRY_SECONDS = 30.0

logger = logging.getLogger(__name__)
_replica_down_until = 0.0


def read_db() -> str:
    """The alias for reads that may lag: the replica when DATABASE_REPLICA_URL gave one and it
    answers, else the primary. The replica's connection is checked here, before the read, as
    Django would check it at the read itself (CONN_HEALTH_CHECKS: once per request); one that
    cannot be made sends this process's reads to the primary for REPLICA_RETRY_SECONDS."""
    global _replica_down_until
    if REPLICA not in settings.DATABASES or time.monotonic() < _replica_down_until:
        return DEFAULT_DB_ALIAS
    replica = connections[REPLICA]
    try:
        replica.close_if_health_check_failed()
        replica.ensure_connection()
    except OperationalError as error:
        _replica_down_until = time.monotonic() + REPLICA_RETRY_SECONDS
        logger.warning(
            "the read replica cannot be reached; reading the primary for %.0f s: %s",
            REPLICA_RETRY_SECONDS,
            error,
        )
        return DEFAULT_DB_ALIAS
    return REPLICA


def replica_or_primary[T](read: Callable[[str], T | None]) -> T | None:
    """`read(alias)` on the replica; when it finds nothing there (a row the replica has not
    received yet), on the primary. Without a replica, once on the primary."""
    alias = read_db()
    found = read(alias)
    if found is None and alias != DEFAULT_DB_ALIAS:
        found = read(DEFAULT_DB_ALIAS)
    return found


@contextmanager
def snapshot(using: str) -> Iterator[None]:
    """One transaction on `using` whose reads all see the same moment (REPEATABLE READ, READ ONLY
    on PostgreSQL; a hot standby allows both). Inside a transaction already (a test's), that one.
    A snapshot is a transaction, so it also holds through a transaction-mode pooler."""
    connection = connections[using]
    fresh = connection.vendor == "postgresql" and not connection.in_atomic_block
    with transaction.atomic(using=using):
        if fresh:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
