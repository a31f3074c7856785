"""Fixtures of the integration tests that run real servers beside this process."""

import pytest
import redis


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
