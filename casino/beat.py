"""Celery beat's scheduler: celery-redbeat's (the schedule and a lock in Redis, so that two or more
beats can run and one ticks), kept ticking through what Redis may do to it.

redbeat alone ends the beat process when its lock cannot be renewed (another beat took it while
this one was paused, or Redis restarted empty and the lock is gone) or when Redis does not
answer; and after Redis restarted empty, a beat still running finds no schedule to tick at all,
since the entries are written once, at its start. Here the beat instead waits for Redis, waits for
the lock as a standby when another beat holds it, takes it again when nobody does, and writes
the entries again when Redis lost them (each is then due at once: the deadline tick, and the
pair scoring, which reads the same window twice without harm).
"""

import logging
import time
from typing import Any

from redbeat.schedulers import LUA_EXTEND_TO_SCRIPT, RedBeatScheduler, get_redis
from redis.exceptions import LockError, RedisError

log = logging.getLogger(__name__)

# How long a beat waits before asking Redis again after it did not answer.
REDIS_RETRY_SECONDS = 1.0


class ClockScheduler(RedBeatScheduler):  # type: ignore[misc]
    def tick(self, *args: Any, **kwargs: Any) -> float:
        try:
            if not self._lock_renewed():
                log.warning("beat: the lock is not ours; waiting for it as a standby")
                self._lock_wait()
                log.warning("beat: holds the lock; ticking")
            if not get_redis(self.app).exists(self.app.redbeat_conf.statics_key):
                log.warning("beat: Redis lost the schedule; writing its entries again")
                self.setup_schedule()
            interval: float = super().tick(*args, **kwargs)
        except RedisError as error:
            log.warning("beat: Redis did not answer (%s); trying again", error)
            return REDIS_RETRY_SECONDS
        return interval

    def _lock_renewed(self) -> bool:
        """Whether this beat still holds the lock, renewed for its whole timeout."""
        if self.lock is None:  # it could not be taken at the start (Redis did not answer)
            return False
        try:
            self.lock.extend(int(self.lock_timeout))
        except LockError:
            return False
        return True

    def _lock_wait(self) -> None:
        """Take the lock, waiting (trying every max_interval) while another beat holds it."""
        client = get_redis(self.app)
        lock = client.lock(self.lock_key, timeout=self.lock_timeout, sleep=self.max_interval)
        # redbeat's renewal sets the lock's time to live rather than adding to it.
        lock.lua_extend = client.register_script(LUA_EXTEND_TO_SCRIPT)
        while True:
            try:
                lock.acquire()
            except RedisError as error:
                log.warning("beat: Redis did not answer (%s) while waiting for the lock", error)
                time.sleep(REDIS_RETRY_SECONDS)
                continue
            self.lock = lock
            return
