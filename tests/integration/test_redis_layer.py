"""The Redis channel layer as settings.py configures it: messages cross processes, and quiet
moments do not kill consumers.

channels-redis's core layer waits for messages with a 5-second BZPOPMIN; redis-py 8 also gives up
reading after 5 seconds by default, so with a bare URL a process that received nothing for 5 s got
a redis TimeoutError inside its consumer and the browser's socket was closed (1011).
"""

import asyncio

import pytest
from channels_redis.core import RedisChannelLayer
from django.utils.module_loading import import_string

from casino.layers import shard_hosts
from casino.settings import redis_channel_layer

pytestmark = pytest.mark.redis


def make_layer(url, kind):
    config = redis_channel_layer(url, kind)
    return import_string(config["BACKEND"])(**config["CONFIG"])


def test_reads_may_outlast_the_blocking_pop():
    for kind in ("pubsub", "core"):
        config = redis_channel_layer("redis://127.0.0.1:6379/0", kind)["CONFIG"]
        host = shard_hosts(config["urls"], config["connection"])[0]
        assert host["socket_timeout"] > RedisChannelLayer.brpop_timeout


def test_an_unknown_layer_kind_is_refused():
    with pytest.raises(ValueError, match="core or pubsub"):
        redis_channel_layer("redis://127.0.0.1:6379/0", "memory")


@pytest.mark.parametrize("kind", ["pubsub", "core"])
def test_a_group_message_reaches_a_consumer_of_another_process(redis_url, kind):
    async def scenario():
        web_a, web_b = make_layer(redis_url, kind), make_layer(redis_url, kind)  # two servers
        channel = await web_b.new_channel()
        await web_b.group_add("table.1", channel)
        await asyncio.sleep(0.2)  # a subscription takes effect asynchronously
        try:
            await web_a.group_send("table.1", {"type": "table.message", "message": {"seq": 7}})
            return await asyncio.wait_for(web_b.receive(channel), timeout=5)
        finally:
            await web_b.group_discard("table.1", channel)
            await web_a.flush()
            await web_b.flush()

    assert asyncio.run(scenario())["message"] == {"seq": 7}


def test_sites_on_two_databases_of_one_redis_do_not_hear_each_other(redis_url):
    """Redis pub/sub ignores the database number: a PUBLISH on database 11 reaches a subscriber
    on database 12. Two sites (or two test workers) sharing one Redis on their own databases heard
    each other's tables: a frame of another site's table 9 arrived at this site's table 9."""
    base, _, db = redis_url.rpartition("/")
    other_url = f"{base}/{int(db) - 1 if int(db) else 1}"

    async def scenario():
        here, elsewhere = make_layer(redis_url, "pubsub"), make_layer(other_url, "pubsub")
        ours, theirs = await here.new_channel(), await elsewhere.new_channel()
        await here.group_add("table.4", ours)
        await elsewhere.group_add("table.4", theirs)
        await asyncio.sleep(0.2)  # a subscription takes effect asynchronously
        try:
            await elsewhere.group_send("table.4", {"type": "table.message", "site": "elsewhere"})
            await here.group_send("table.4", {"type": "table.message", "site": "here"})
            return await asyncio.wait_for(here.receive(ours), timeout=5)
        finally:
            await here.flush()
            await elsewhere.flush()

    assert asyncio.run(scenario())["site"] == "here"


def test_a_channel_quiet_for_longer_than_the_blocking_pop_still_receives(redis_url):
    async def scenario(kind):
        layer = make_layer(redis_url, kind)
        channel = await layer.new_channel()
        await layer.group_add(f"table.{kind}", channel)
        try:
            # A consumer waits the way Channels does: one receive, never cancelled while it lives.
            waiting = asyncio.ensure_future(layer.receive(channel))
            await asyncio.sleep(RedisChannelLayer.brpop_timeout + 1)  # nothing arrives meanwhile
            assert not waiting.done(), f"{kind}: {waiting.exception()!r}"
            await layer.group_send(
                f"table.{kind}", {"type": "table.message", "message": {"seq": 1}}
            )
            return await asyncio.wait_for(waiting, timeout=5)
        finally:
            await layer.flush()

    async def both():  # side by side: one quiet wait for the two layers
        return await asyncio.gather(scenario("pubsub"), scenario("core"))

    assert [m["message"] for m in asyncio.run(both())] == [{"seq": 1}, {"seq": 1}]


def test_a_commits_messages_go_in_one_pipeline_in_order_to_every_group(redis_url):
    """casino/layers.py: the pub/sub layer sends a commit's messages (the table's, and each
    player's own) in one round trip; each group gets its own, in the order given."""

    async def scenario():
        web_a, web_b = make_layer(redis_url, "pubsub"), make_layer(redis_url, "pubsub")
        table, alice = await web_b.new_channel(), await web_b.new_channel()
        await web_b.group_add("table.9", table)
        await web_b.group_add("table.9", alice)
        await web_b.group_add("table.9.user.1", alice)
        await asyncio.sleep(0.2)  # a subscription takes effect asynchronously
        try:
            messages = []
            for seq in range(1, 6):
                messages.append(("table.9", {"type": "table.message", "seq": seq, "skip": [1]}))
                messages.append(("table.9.user.1", {"type": "table.message", "seq": seq}))
            await web_a.group_send_many(messages)

            async def take(channel, count):
                return [await asyncio.wait_for(web_b.receive(channel), 5) for _ in range(count)]

            return await take(table, 5), await take(alice, 10)
        finally:
            await web_a.flush()
            await web_b.flush()

    to_table, to_alice = asyncio.run(scenario())
    assert [m["seq"] for m in to_table] == [1, 2, 3, 4, 5]
    # Alice is in both groups: both copies arrive, each group's in order (her socket skips the
    # table's copy, holdem/realtime/sockets.py).
    assert [m["seq"] for m in to_alice if "skip" not in m] == [1, 2, 3, 4, 5]
    assert [m["seq"] for m in to_alice if "skip" in m] == [1, 2, 3, 4, 5]
