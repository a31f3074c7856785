"""The site's channel layers: channels-redis's two, given the site's Redis URLs (one per shard,
casino/redis_shards.py: plain or through Sentinel), and the pub/sub one with a commit's messages
sent in one round trip.

channels-redis's `group_send` is one PUBLISH, awaited, per message, each taking the shard's lock
in turn; a table action sends three (the table's frame, the actor's and the next player's own
parts) and the database thread waits for all of them (holdem/realtime/broadcast.py). `group_send_many`
sends them as one pipeline per Redis shard, in the order given. Receiving is channels-redis's own.
"""

from typing import Any

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer

from casino.redis_shards import endpoint, layer_host


def shard_hosts(urls: list[str], connection: dict[str, Any]) -> list[dict[str, Any]]:
    """channels-redis's hosts for the shard URLs, each with redis-py's `connection` options."""
    return [layer_host(endpoint(url), **connection) for url in urls]


class CoreLayer(RedisChannelLayer):
    """channels-redis's default layer on the shards named by URL."""

    def __init__(self, *, urls: list[str], connection: dict[str, Any], **config: Any) -> None:
        super().__init__(hosts=shard_hosts(urls, connection), **config)


class PubSubLayer(RedisPubSubChannelLayer):
    """channels-redis's pub/sub layer on the shards named by URL. Redis pub/sub ignores the
    database number: two sites sharing one Redis on databases of their own heard each other's
    tables. The (first shard's) database names the channels instead."""

    def __init__(self, *, urls: list[str], connection: dict[str, Any], **config: Any) -> None:
        database = endpoint(urls[0]).db
        super().__init__(
            hosts=shard_hosts(urls, connection), prefix=f"asgi.db{database}.", **config
        )

    async def group_send_many(self, messages) -> None:
        """`group_send(group, message)` for each pair, in order: one pipelined round trip per
        shard. Written against channels-redis 4.3's shards (its `_lock` and `_redis`; the version
        is pinned, and tests/integration/test_redis_layer.py sends through it)."""
        layer = self._get_layer()
        batches: dict = {}  # shard -> [(channel, data)]
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            batches.setdefault(layer._get_shard(channel), []).append(
                (channel, self.serialize(message))
            )
        for shard, items in batches.items():
            async with shard._lock:
                shard._ensure_redis()
                async with shard._redis.pipeline(transaction=False) as pipe:
                    for channel, data in items:
                        pipe.publish(channel, data)
                    await pipe.execute()
