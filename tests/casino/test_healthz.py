"""GET /healthz: the database and Redis status as JSON, 200 when healthy and 503 when not."""

from datetime import timedelta

import pytest
from django.db.utils import OperationalError
from django.utils import timezone

from holdem.models import ClockBeat
from holdem.services import deadlines_fire_due

pytestmark = pytest.mark.django_db


def test_healthz_in_embedded_mode_is_ok_without_redis(client, settings):
    settings.REDIS_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "redis": "not configured",
        "broker": "not configured",
        "clock": "not started",
        "layer": {},
        "clock_last_ran": None,
    }
    assert "no-cache" in response["Cache-Control"]


def test_healthz_reports_a_real_redis_as_ok(client, settings, redis_url):
    settings.REDIS_URL = redis_url
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok" and response.json()["redis"] == "ok"


def test_healthz_is_503_when_redis_does_not_answer(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error" and body["database"] == "ok"
    assert body["redis"].startswith("error: ")


def test_healthz_is_503_when_the_database_fails(client, settings, monkeypatch):
    settings.REDIS_URL = ""

    class BrokenConnection:
        def cursor(self):
            raise OperationalError("connection refused")

    monkeypatch.setattr("casino.health.connection", BrokenConnection())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "database": "error: OperationalError",
        "redis": "not configured",
        "broker": "not configured",
        "clock": "unknown",
        "layer": {},
        "clock_last_ran": None,
    }


def test_healthz_answers_plain_http_even_when_https_is_enforced(client, settings):
    settings.REDIS_URL = ""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/lobby/").status_code == 301  # everything else goes to https
    assert client.get("/healthz").status_code == 200


def test_healthz_only_answers_reads(client):
    assert client.post("/healthz").status_code == 405
    assert client.head("/healthz").status_code == 200


def test_healthz_says_when_the_clock_last_ran_and_fails_when_it_is_stale(client, settings):
    # Beat down means no countdown ends and no turn times out; the site is not healthy.
    settings.REDIS_URL = ""
    deadlines_fire_due()
    body = client.get("/healthz").json()
    assert body["clock"] == "ok" and body["clock_last_ran"]
    ClockBeat.objects.update(ran_at=timezone.now() - timedelta(seconds=60))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["clock"].startswith("stale: last ran 6")


def test_the_beat_entry_expires_instead_of_piling_up(settings):
    # With the workers down, beat's once-a-second ticks must not queue up by the thousand.
    entry = settings.CELERY_BEAT_SCHEDULE["fire-due-deadlines"]
    assert entry["schedule"] == 1.0 and 0 < entry["options"]["expires"] <= 5
