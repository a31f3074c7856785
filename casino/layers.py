"""The pub/sub channel layer, with a commit's messages sent in one round trip.

channels-redis's `group_send` is one PUBLISH, awaited, per message, each taking the shard's lock
in turn; a table action sends three (the table's frame, the actor's and the next player's own
parts) and the database thread waits for all of them (holdem/realtime/broadcast.py). `group_send_many`
sends them as one pipeline per Redis shard, in the order given. Receiving is channels-redis's own.
"""

from channels_redis.pubsub import RedisPubSubChannelLayer


class PubSubLayer(RedisPubSubChannelLayer):
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
