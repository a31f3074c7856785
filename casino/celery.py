"""The Celery app: workers run the table tasks, and beat fires due deadlines every second (one of
the beat processes at a time, by a lock in Redis: celery-redbeat)."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun
from django.db import close_old_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def redbeat_settings_by_their_own_names(sender: Celery, source: Any, **kwargs: Any) -> None:
    """celery-redbeat finds its settings through Celery's namespace (CELERY_REDBEAT_REDIS_URL),
    but asks whether they were set by their bare names (redbeat_redis_url): without these, it
    warns at every start that it fell back to the broker's URL, which it did not."""
    for key in [key for key in list(source) if key.startswith("CELERY_REDBEAT_")]:
        source[key.removeprefix("CELERY_").lower()] = source[key]


@task_prerun.connect
@task_postrun.connect
def database_connections_kept(sender: Any = None, **kwargs: Any) -> None:
    """A worker keeps its database connection between tasks as a web process does between
    requests (CONN_MAX_AGE, CONN_HEALTH_CHECKS): one broken or too old is closed here, before and
    after each task, and the next query opens a new one. Celery's own habit, a new connection for
    every task, would cost a connection a chunk: ten a second for the clock's chunks alone
    (CELERY_DB_REUSE_MAX in the settings turns it off). An eager task (embedded mode) runs in
    its caller's connection, maybe inside its transaction: left alone, as Celery does."""
    if not getattr(getattr(sender, "request", None), "is_eager", False):
        close_old_connections()
