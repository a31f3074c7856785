"""Run by tests/casino/test_pool_mode.py in a process of its own, whose DATABASE_URL is a
PgBouncer in transaction mode: sit two players, play hands through the services, audit the chips
and walk the chains, and print what the settings and the audits said (one JSON line).

    python tests/casino/pooled_play.py TAG HANDS
"""

import json
import os
import random
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2])]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from casino.accounts.services import account_create  # noqa: E402
from holdem import engine  # noqa: E402
from holdem.db.locks import table_lock  # noqa: E402
from holdem.models import Table  # noqa: E402
from holdem.selectors.audit import audit_chips  # noqa: E402
from holdem.selectors.chains import chains_audit  # noqa: E402
from holdem.services import room_create, table_act, table_sit  # noqa: E402
from holdem.services.hand_start import hand_start  # noqa: E402


def main() -> None:
    tag, hands = sys.argv[1], int(sys.argv[2])
    rng = random.Random(tag)
    table = room_create(name=f"pooled {tag}", preset="nl50", time_bank_seconds=0)
    users = {}
    for seat in (0, 1):
        users[seat] = account_create(username=f"pooled{tag}x{seat}", password="pw-for-tests-123")
        table_sit(table_id=table.pk, user=users[seat], seat=seat, buy_in=2_000)
    played = 0
    while played < hands:
        with transaction.atomic():
            if not hand_start(table_lock(table.pk), timezone.now()):
                break
        while True:
            row = Table.objects.get(pk=table.pk)
            legal = (
                engine.legal_actions(engine.state_from_json(row.hand_state))
                if row.in_hand
                else None
            )
            if legal is None:
                break
            # Small pots only, so that nobody busts: check, call or fold.
            action = rng.choice([a for a in legal.actions if a in ("check", "call", "fold")])
            table_act(table_id=table.pk, user=users[legal.seat], action=action)
        played += 1
    chips = audit_chips()
    chains = chains_audit(chunk_size=7)  # several chunks: the rows come through many fetches
    print(
        json.dumps(
            {
                "server_side_cursors_disabled": connection.settings_dict[
                    "DISABLE_SERVER_SIDE_CURSORS"
                ],
                "prepared_statements": settings.CASINO_PREPARED_STATEMENTS,
                "hands": played,
                "chips_ok": chips.ok,
                "chips": chips.summary(),
                "chains_ok": chains.ok,
                "chains": chains.summary(),
            }
        )
    )


if __name__ == "__main__":
    main()
