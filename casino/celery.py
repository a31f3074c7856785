"""The Celery app: workers run the table tasks, and beat fires due deadlines every second (one of
the beat processes at a time, by a lock in Redis: celery-redbeat)."""

import os
from typing import Any

from celery import Celery

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
