"""GET /healthz: the database and Redis status as JSON, 200 when healthy and 503 when not."""
import pytest
from django.db.utils import OperationalError

pytestmark = pytest.mark.django_db


def test_healthz_in_embedded_mode_is_ok_without_redis(client, settings):
    settings.REDIS_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "database": "ok", "redis": "not configured"}
    assert "no-cache" in response["Cache-Control"]


def test_healthz_reports_a_real_redis_as_ok(client, settings, redis_url):
    settings.REDIS_URL = redis_url
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "ok"}


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
    assert response.json() == {"status": "error", "database": "error: OperationalError", "redis": "not configured"}


def test_healthz_answers_plain_http_even_when_https_is_enforced(client, settings):
    settings.REDIS_URL = ""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/lobby/").status_code == 301  # everything else goes to https
    assert client.get("/healthz").status_code == 200


def test_healthz_only_answers_reads(client):
    assert client.post("/healthz").status_code == 405
    assert client.head("/healthz").status_code == 200
