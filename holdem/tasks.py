"""Celery tasks: thin calls of services (style.md 3)."""

from functools import cache

import redis
from celery import shared_task
from django.conf import settings

from holdem.services.clock import deadline_tables_fire, deadlines_fire_due
from holdem.services.integrity import integrity_pairs_score

# A chunk of due tables not taken by a worker within this many seconds is dropped, not queued:
# the next second's scan finds its tables again (those still due), so a backlog never fires
# stale work in a burst after the workers come back.
CHUNK_EXPIRES_SECONDS = 3
# A table sent in a chunk is marked under this key until its chunk ran or expired: the ticks in
# between, finding it still due, do not send it again.
SENT_KEY = "casino:clock:sent:{}"


@shared_task(name="holdem.tasks.fire_due_deadlines", ignore_result=True)
def fire_due_deadlines() -> dict[str, int]:
    return deadlines_fire_due(fire_chunk=deadline_chunk_send)


@shared_task(name="holdem.tasks.fire_deadline_chunk", ignore_result=True)
def fire_deadline_chunk(table_ids: list[int]) -> dict[str, int]:
    try:
        return deadline_tables_fire(table_ids)
    finally:
        deadline_tables_unmark(table_ids)


@shared_task(name="holdem.tasks.score_pairs", ignore_result=True)
def score_pairs() -> int:
    return integrity_pairs_score()


def deadline_chunk_send(table_ids: list[int]) -> dict[str, int] | None:
    """Hand a chunk of due tables to the workers, less those already on their way in a chunk
    of an earlier tick. With eager tasks (embedded mode: no broker) it has fired here already,
    and its counts join the tick's."""
    if fire_deadline_chunk.app.conf.task_always_eager:
        return fire_deadline_chunk.apply((table_ids,)).get()  # type: ignore[no-any-return]
    fresh = deadline_tables_mark(table_ids)
    if fresh:
        fire_deadline_chunk.apply_async((fresh,), expires=CHUNK_EXPIRES_SECONDS)
    return None


def deadline_tables_mark(table_ids: list[int]) -> list[int]:
    """Mark each table as sent for as long as its chunk may wait; returns those not marked
    already. When the workers fall behind, a table still due is otherwise sent again every
    second, and each copy is one more lock and re-check for the workers (docs/performance.md,
    Clock at scale)."""
    with _redis().pipeline(transaction=False) as pipe:
        for table_id in table_ids:
            pipe.set(SENT_KEY.format(table_id), 1, nx=True, px=CHUNK_EXPIRES_SECONDS * 1000)
        marked = pipe.execute()
    return [table_id for table_id, new in zip(table_ids, marked, strict=True) if new]


def deadline_tables_unmark(table_ids: list[int]) -> None:
    """The chunk ran: the next tick sends those of its tables still due (one skipped as busy,
    or with a second deadline due) at once."""
    if table_ids and not fire_deadline_chunk.app.conf.task_always_eager:
        _redis().delete(*(SENT_KEY.format(table_id) for table_id in table_ids))


@cache
def _redis() -> "redis.Redis[bytes]":
    return redis.Redis.from_url(settings.REDIS_URL)
