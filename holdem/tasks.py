"""Celery tasks: thin calls of services (style.md 3)."""

from celery import shared_task
from celery.result import EagerResult

from holdem.services.clock import deadline_tables_fire, deadlines_fire_due
from holdem.services.integrity import integrity_pairs_score

# A chunk of due tables not taken by a worker within this many seconds is dropped, not queued:
# the next second's scan finds its tables again (those still due), so a backlog never fires
# stale work in a burst after the workers come back.
CHUNK_EXPIRES_SECONDS = 3


@shared_task(name="holdem.tasks.fire_due_deadlines", ignore_result=True)
def fire_due_deadlines() -> dict[str, int]:
    return deadlines_fire_due(fire_chunk=deadline_chunk_send)


@shared_task(name="holdem.tasks.fire_deadline_chunk", ignore_result=True)
def fire_deadline_chunk(table_ids: list[int]) -> dict[str, int]:
    return deadline_tables_fire(table_ids)


@shared_task(name="holdem.tasks.score_pairs", ignore_result=True)
def score_pairs() -> int:
    return integrity_pairs_score()


def deadline_chunk_send(table_ids: list[int]) -> dict[str, int] | None:
    """Hand a chunk of due tables to the workers. With eager tasks (embedded mode: no broker)
    it has fired here already, and its counts join the tick's."""
    sent = fire_deadline_chunk.apply_async((table_ids,), expires=CHUNK_EXPIRES_SECONDS)
    return sent.get() if isinstance(sent, EagerResult) else None
