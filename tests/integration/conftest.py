"""Fixtures of the integration tests that run real servers beside this process."""

import pytest
import redis

from tests.integration.live_site import Stack


@pytest.fixture
def redis_layer(postgres, redis_url, settings):
    """This process broadcasts through the same (emptied) Redis as the servers it starts: the
    clock thread or the services a test calls send their frames there."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }
    redis.Redis.from_url(redis_url).flushdb()
    return redis_url


@pytest.fixture
def stack_of(redis_layer, tmp_path):
    """stack_of(servers) -> the site's processes (live_site.Stack), not started; whatever
    happens, stopped after the test, and then none of their logs may show a traceback."""
    made = []

    def make(servers=1):
        site = Stack(redis_layer, tmp_path / f"beat-schedule-{len(made)}", servers)
        made.append(site)
        return site

    yield make
    for site in made:
        site.stop()
    for site in made:
        assert not site.tracebacks(), site.tracebacks()[0]
