"""GET /metrics (casino/metrics_endpoint.py): who may read it, that every figure of
casino/metrics.py is in it, and the figures read at scrape time (Celery queue length on a real
Redis, clock lag from the clock's own record), none of which can break the endpoint."""

import json
import threading
from datetime import timedelta

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.testing import ApplicationCommunicator
from django.core.exceptions import ImproperlyConfigured
from django.db.utils import OperationalError
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from casino import metrics, metrics_endpoint
from casino.settings import env_networks
from holdem.services.clock import clock_beat

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN = "metrics-token-for-tests-0123456789"


def scrape(client=("127.0.0.1", 40000), headers=(), method="GET", path="/metrics"):
    """One request to the site's whole ASGI application: (status, headers, body)."""
    from casino.asgi import application

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": client,
        "server": ("127.0.0.1", 8000),
    }

    async def exchange():
        communicator = ApplicationCommunicator(application, scope)
        await communicator.send_input({"type": "http.request", "body": b""})
        start = await communicator.receive_output(10)
        body = b""
        while True:
            part = await communicator.receive_output(10)
            body += part.get("body", b"")
            if not part.get("more_body"):
                break
        await communicator.wait(10)
        return start["status"], dict(start["headers"]), body

    return async_to_sync(exchange)()


def samples(body: bytes) -> dict[tuple[str, tuple], float]:
    """{(sample name, sorted labels): value} of a Prometheus text body."""
    found = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def names(body: bytes) -> set[str]:
    return {name for name, _ in samples(body)}


def bearer(token: str):
    return [(b"authorization", f"Bearer {token}".encode())]


@pytest.fixture(autouse=True)
def no_broker(settings):
    """Embedded mode (Celery's in-memory broker) unless a test names a broker."""
    settings.REDIS_URL = ""
    settings.CELERY_BROKER_URL = "memory://"
    settings.CELERY_BROKER_MASTER_NAME = ""
    settings.CASINO_METRICS_TOKEN = ""


# --- Who may read them -------------------------------------------------------------------------


def test_loopback_reads_the_metrics_without_a_token():
    status, headers, body = scrape(client=("127.0.0.1", 40000))
    assert status == 200
    assert headers[b"content-type"].startswith(b"text/plain; version=0.0.4")
    assert "casino_open_sockets" in body.decode()
    assert scrape(client=("::1", 40000))[0] == 200
    assert scrape(client=("10.1.2.3", 40000))[0] == 200  # a private network: Prometheus beside
    assert scrape(client=("::ffff:172.18.0.5", 40000))[0] == 200  # IPv4 written as IPv6


def test_a_public_address_without_a_token_is_refused_with_json():
    status, headers, body = scrape(client=("203.0.113.7", 40000))
    assert status == 403
    assert headers[b"content-type"] == b"application/json"
    answer = json.loads(body)
    assert answer["error"] == "forbidden" and "token" in answer["message"]
    assert b"casino_" not in body
    assert scrape(client=None)[0] == 403  # no address at all (a unix socket)


def test_the_token_lets_any_address_read_them(settings):
    settings.CASINO_METRICS_TOKEN = TOKEN
    status, _, body = scrape(client=("203.0.113.7", 40000), headers=bearer(TOKEN))
    assert status == 200 and b"casino_actions_total" in body


def test_a_wrong_token_is_refused_even_from_loopback(settings):
    settings.CASINO_METRICS_TOKEN = TOKEN
    for client in (("203.0.113.7", 40000), ("127.0.0.1", 40000)):
        status, _, body = scrape(client=client, headers=bearer(TOKEN + "x"))
        assert status == 403
        assert json.loads(body) == {"error": "forbidden", "message": "wrong metrics token"}


def test_a_token_is_no_key_when_the_site_sets_none():
    status, _, _ = scrape(client=("203.0.113.7", 40000), headers=bearer("anything"))
    assert status == 403


def test_with_no_networks_only_the_token_reads_them(settings):
    settings.CASINO_METRICS_NETWORKS = []
    settings.CASINO_METRICS_TOKEN = TOKEN
    assert scrape(client=("127.0.0.1", 40000))[0] == 403
    assert scrape(client=("127.0.0.1", 40000), headers=bearer(TOKEN))[0] == 200


def test_other_methods_are_refused_and_other_paths_go_to_django():
    status, headers, body = scrape(method="POST")
    assert status == 405 and headers[b"allow"] == b"GET, HEAD"
    assert json.loads(body)["error"] == "method_not_allowed"
    status, _, body = scrape(method="HEAD")
    assert status == 200 and body == b""
    status, _, body = scrape(path="/healthz")  # Django's, through the endpoint
    assert status == 200 and json.loads(body)["database"] == "ok"


def test_a_network_that_is_not_one_stops_the_start(monkeypatch):
    monkeypatch.setenv("CASINO_METRICS_NETWORKS", "10.0.0.0/8,intranet")
    with pytest.raises(ImproperlyConfigured, match="CASINO_METRICS_NETWORKS: 'intranet'"):
        env_networks("CASINO_METRICS_NETWORKS", "127.0.0.0/8")
    monkeypatch.setenv("CASINO_METRICS_NETWORKS", "10.0.0.1/8")  # host bits set
    with pytest.raises(ImproperlyConfigured, match="is not a network"):
        env_networks("CASINO_METRICS_NETWORKS", "127.0.0.0/8")
    monkeypatch.setenv("CASINO_METRICS_NETWORKS", "")
    assert env_networks("CASINO_METRICS_NETWORKS", "127.0.0.0/8") == []
    monkeypatch.delenv("CASINO_METRICS_NETWORKS")
    assert env_networks("CASINO_METRICS_NETWORKS", "127.0.0.0/8, ::1/128") == [
        "127.0.0.0/8",
        "::1/128",
    ]


# --- What they say ----------------------------------------------------------------------------


@pytest.fixture
def broker(redis_url, settings):
    """A real Redis as Celery's broker, emptied."""
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    settings.CELERY_BROKER_URL = redis_url
    yield client
    client.flushdb()
    client.close()


def test_every_figure_is_in_the_output(broker):
    clock_beat(timezone.now() - timedelta(seconds=2))
    _, _, body = scrape()
    assert names(body) == metrics.sample_names()
    found = samples(body)
    for kind in metrics.SOCKET_KINDS:
        assert ("casino_open_sockets", (("kind", kind),)) in found
    for kind in metrics.RESYNC_KINDS:
        assert ("casino_heartbeat_resyncs_total", (("kind", kind),)) in found
    assert found[("casino_tables_playing", ())] == 0


def test_the_queue_length_is_read_from_the_broker(broker):
    broker.rpush("celery", "a", "b", "c")
    broker.rpush("celery\x06\x163", "prioritised")  # kombu's list for priority 3
    broker.rpush("some-other-list", "x")
    found = samples(scrape()[2])
    assert found[("casino_celery_queue_length", (("queue", "celery"),))] == 4
    broker.delete("celery", "celery\x06\x163")
    found = samples(scrape()[2])
    assert found[("casino_celery_queue_length", (("queue", "celery"),))] == 0


def test_no_broker_no_queue_sample():
    body = scrape()[2]
    assert "casino_celery_queue_length" not in names(body)
    assert "casino_actions_total" in names(body)


def test_a_broker_that_does_not_answer_leaves_only_its_figure_out(settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    clock_beat(timezone.now())
    status, _, body = scrape()
    assert status == 200
    assert "casino_celery_queue_length" not in names(body)
    assert {"casino_tables_playing", "casino_clock_lag_seconds"} <= names(body)


def test_a_sentinel_broker_is_its_master(settings):
    """kombu's form (tests/integration/test_metrics_sentinel.py reads one for real)."""
    settings.CELERY_BROKER_URL = "sentinel://:pw%21@10.0.0.1:26379/2;sentinel://10.0.0.2:26380/2"
    settings.CELERY_BROKER_MASTER_NAME = "casino"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {
        "master_name": "casino",
        "sentinel_kwargs": {"password": "sentinels"},
    }
    point = metrics_endpoint.broker_endpoint()
    assert point is not None and point.master_name == "casino"
    assert point.sentinels == (("10.0.0.1", 26379), ("10.0.0.2", 26380))
    assert (point.db, point.password, point.sentinel_password) == (2, "pw!", "sentinels")
    assert "pw" not in point.label
    settings.CELERY_BROKER_MASTER_NAME = ""  # a sentinel URL without a master: nothing to read
    assert metrics_endpoint.broker_endpoint() is None
    assert "casino_celery_queue_length" not in names(scrape()[2])


def test_the_clock_lag_is_the_age_of_the_clocks_last_run():
    assert "casino_clock_lag_seconds" not in names(scrape()[2])  # it never ran
    clock_beat(timezone.now() - timedelta(seconds=42))
    lag = samples(scrape()[2])[("casino_clock_lag_seconds", ())]
    assert 42 <= lag < 42 + 60


def test_a_failed_database_read_leaves_only_its_figures_out(monkeypatch):
    def broken():
        raise OperationalError("connection refused")

    monkeypatch.setattr(metrics_endpoint, "tables_playing", broken)
    status, _, body = scrape()
    assert status == 200
    assert "casino_tables_playing" not in names(body)
    assert "casino_open_sockets" in names(body)


def test_a_read_that_hangs_is_left_out_and_not_queued_again(monkeypatch):
    """The database does not answer: the scrape goes on without the figures read at scrape
    time, and the next one does not queue a second read behind the first."""
    release = threading.Event()
    calls = []

    def hanging():
        calls.append(1)
        release.wait(10)
        return 0

    monkeypatch.setattr(metrics_endpoint, "tables_playing", hanging)
    monkeypatch.setattr(metrics_endpoint, "READ_BUDGET_SECONDS", 0.2)
    try:
        for _ in range(2):
            status, _, body = scrape()
            assert status == 200
            assert "casino_tables_playing" not in names(body)
            assert "casino_actions_total" in names(body)
    finally:
        release.set()
    metrics_endpoint.reader.pending.result(10)
    assert calls == [1]  # the second scrape queued no read behind the first
    assert "casino_tables_playing" in names(scrape()[2])
