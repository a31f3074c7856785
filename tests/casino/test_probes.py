"""/livez and /readyz, the orchestrator's probes (casino/health.py): liveness asks nothing outside
the process; readiness is the busy gate's measure, so a server whose database thread is queued
stops taking new sockets and takes them again once it catches up, whatever the clock or Redis do."""

import asyncio
import time

import pytest
from asgiref.sync import ThreadSensitiveContext
from channels.db import database_sync_to_async
from django.db.utils import OperationalError
from django.test import AsyncClient

from holdem.models import ClockBeat

pytestmark = pytest.mark.django_db(transaction=True)


def test_livez_answers_without_asking_the_database_or_redis(client, settings, monkeypatch):
    class BrokenConnection:
        def cursor(self):
            raise OperationalError("connection refused")

    monkeypatch.setattr("casino.health.connection", BrokenConnection())
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = client.get("/livez")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]
    assert client.post("/livez").status_code == 405


def test_readyz_is_ready_when_the_database_thread_is_free_even_with_a_stale_clock(settings):
    settings.REDIS_URL = ""
    ClockBeat.objects.create(name="deadlines", ran_at="2020-01-01T00:00:00Z")

    response = asyncio.run(served("/readyz"))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and 0 <= body["database_behind"] < 1


async def served(path):
    """A request as Daphne serves it: Django's ASGI handler gives each request a thread of its
    own for its sync parts (ThreadSensitiveContext), apart from the sockets' database thread."""
    async with ThreadSensitiveContext():
        return await AsyncClient().get(path)


def test_readyz_is_503_while_the_database_thread_is_queued_and_200_after():
    async def probe():
        blocked = asyncio.ensure_future(database_sync_to_async(time.sleep)(2.5))
        await asyncio.sleep(0.1)  # the sleep holds the one database thread
        busy = await served("/readyz")
        await blocked
        free = await served("/readyz")
        return busy, free

    busy, free = asyncio.run(probe())
    assert busy.status_code == 503
    assert busy.json()["status"] == "busy" and busy.json()["database_behind"] >= 1
    assert free.status_code == 200


def test_the_probes_answer_plain_http_when_https_is_enforced(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/livez").status_code == 200
    assert client.get("/readyz").status_code in (200, 503)  # answered, not redirected
