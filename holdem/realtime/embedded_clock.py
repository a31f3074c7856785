"""The embedded clock: in one-process mode, fire due deadlines every second inside the ASGI server.

Production runs the same function from Celery beat instead (casino/celery.py, settings).
"""

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from holdem.services.clock import deadlines_fire_due

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
        while True:
            try:
                await fire()
            except Exception:  # keep ticking; one bad second must not stop the game clock
                log.exception("embedded clock tick failed")
            await asyncio.sleep(1)
