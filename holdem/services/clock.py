"""The one function that fires every due deadline: countdown ends and turn timeouts.

Idempotent: each table is re-checked under its lock, so a late, repeated or racing call is a
no-op. Celery beat calls it every second; the embedded clock calls it in-process (STYLE.md 7).
"""
import logging

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from holdem.locks import table_lock
from holdem.models import Table
from holdem.services.hands import hand_start, hand_timeout

log = logging.getLogger(__name__)


def deadlines_fire_due(now=None) -> dict[str, int]:
    """Start the hands whose countdown ended and time out the turns that ran out."""
    now = now or timezone.now()
    fired = {"hands_started": 0, "timeouts": 0}
    due = Table.objects.filter(Q(next_hand_at__lte=now) | Q(turn_deadline__lte=now)).values_list("pk", flat=True)
    for table_id in list(due):
        try:
            with transaction.atomic():
                table = table_lock(table_id)
                if table.turn_deadline is not None and table.turn_deadline <= now and table.in_hand:
                    fired["timeouts"] += hand_timeout(table, now)
                elif table.next_hand_at is not None and table.next_hand_at <= now and not table.in_hand:
                    fired["hands_started"] += hand_start(table, now)
        except Exception:  # one broken table must not stop the clock for the others
            log.exception("deadline at table %s failed", table_id)
    return fired
