"""Celery tasks: thin calls of services (style.md 3)."""

from celery import shared_task

from holdem.services.clock import deadlines_fire_due
from holdem.services.integrity import integrity_pairs_score


@shared_task(name="holdem.tasks.fire_due_deadlines", ignore_result=True)
def fire_due_deadlines() -> dict:
    return deadlines_fire_due()


@shared_task(name="holdem.tasks.score_pairs", ignore_result=True)
def score_pairs() -> int:
    return integrity_pairs_score()
