"""The Redis channel layer as settings.py configures it survives quiet moments.

channels-redis waits for messages with a 5-second BZPOPMIN; redis-py 8 also gives up reading
after 5 seconds by default, so with a bare URL a process that received nothing for 5 s got a
redis TimeoutError inside its consumer and the browser's socket was closed (1011).
"""
import asyncio

import pytest
from channels_redis.core import RedisChannelLayer

from casino.settings import redis_channel_layer

pytestmark = pytest.mark.redis


def test_reads_may_outlast_the_blocking_pop():
    host = redis_channel_layer("redis://127.0.0.1:6379/0")["CONFIG"]["hosts"][0]
    assert host["socket_timeout"] > RedisChannelLayer.brpop_timeout


def test_a_channel_quiet_for_longer_than_the_blocking_pop_still_receives(redis_url):
    async def scenario():
        layer = RedisChannelLayer(**redis_channel_layer(redis_url)["CONFIG"])
        channel = await layer.new_channel()
        try:
            # Nothing arrives for longer than one BZPOPMIN: only our own wait may time out.
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(layer.receive(channel), timeout=layer.brpop_timeout + 1.5)
            await layer.send(channel, {"type": "table.message", "message": {"seq": 1}})
            return await asyncio.wait_for(layer.receive(channel), timeout=5)
        finally:
            await layer.flush()
            await layer.close_pools()

    assert asyncio.run(scenario())["message"] == {"seq": 1}
