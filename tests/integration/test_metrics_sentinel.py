"""The Celery queue length of /metrics read from a broker behind Redis Sentinel, in kombu's URL
form, from a real Sentinel watching a real master (tests/integration/redis_servers.py)."""

import pytest

from casino.metrics_endpoint import broker_endpoint, queue_lengths
from tests.integration.redis_servers import redis_servers, sentinel_watching

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def test_the_queue_length_is_read_from_the_master_a_sentinel_names(settings):
    with redis_servers(1) as (master,), sentinel_watching(master, name="broker") as sentinel:
        master.client().rpush("celery", "one", "two")
        settings.CELERY_BROKER_URL = f"sentinel://127.0.0.1:{sentinel.port}/0"
        settings.CELERY_BROKER_MASTER_NAME = "broker"
        settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"master_name": "broker"}
        assert queue_lengths(broker_endpoint()) == {"celery": 2, "deadlines": 0}
