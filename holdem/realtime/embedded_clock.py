"""The embedded clock: in one-process mode, fire due deadlines every second inside the ASGI server,
and score the pairs of players for the staff's queue every CASINO_INTEGRITY_SECONDS.

Production runs the same functions from Celery beat instead (casino/celery.py, settings).
"""

import asyncio
import logging
import time

from channels.db import database_sync_to_async
from django.conf import settings

from holdem.services.clock import deadlines_fire_due
from holdem.services.integrity import integrity_pairs_score

log = logging.getLogger(__name__)


class EmbeddedClock:
    """ASGI middleware that starts the one-second clock on the server's event loop at first use."""

    def __init__(self, app):
        self.app = app
        self.task = None

    async def __call__(self, scope, receive, send):
        if self.task is None and settings.CASINO_CLOCK:
            self.task = asyncio.get_running_loop().create_task(self.tick_forever())
        return await self.app(scope, receive, send)

    async def tick_forever(self):
        fire = database_sync_to_async(deadlines_fire_due)
        score = database_sync_to_async(integrity_pairs_score)
        scored_at = time.monotonic()  # the first scoring waits a period, as beat's does
        while True:
            try:
                await fire()
            except Exception:  # keep ticking; one bad second must not stop the game clock
                log.exception("embedded clock tick failed")
            if time.monotonic() - scored_at >= settings.CASINO_INTEGRITY_SECONDS:
                scored_at = time.monotonic()
                try:
                    # On the one database thread, between two ticks: a few seconds at most
                    # (bounded window, docs/integrity.md), which the tables would feel, once
                    # every ten minutes, in the one-process mode meant for trying the site.
                    await score()
                except Exception:
                    log.exception("embedded pair scoring failed")
            await asyncio.sleep(1)
