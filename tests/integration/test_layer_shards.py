"""The channel layer over several Redis servers (CHANNEL_LAYER_URLS), and through Sentinel: groups
spread over the shards and still cross processes; the heartbeat notices a shard that lost its
groups; /healthz names each shard; the broker may be reached through Sentinel (docs/scale.md)."""

import asyncio
import os
import subprocess
import sys

import pytest
from django.test import Client
from django.utils.module_loading import import_string

from casino.layers import shard_hosts
from casino.redis_shards import endpoint, sync_client
from casino.settings import redis_channel_layer
from holdem.realtime.heartbeat import Heartbeat
from tests.integration.redis_servers import ROOT, redis_servers, sentinel_watching

pytestmark = [pytest.mark.redis, pytest.mark.slow]

GROUPS = [f"table.{n}" for n in range(1, 25)]


def make_layer(urls, kind):
    config = redis_channel_layer(urls, kind)
    return import_string(config["BACKEND"])(**config["CONFIG"])


def crossing(urls, kind, groups):
    """Send to each of `groups` from one layer (a server) and receive on another: what arrived."""

    async def scenario():
        web_a, web_b = make_layer(urls, kind), make_layer(urls, kind)
        channel = await web_b.new_channel()
        for group in groups:
            await web_b.group_add(group, channel)
        await asyncio.sleep(0.3)  # subscriptions take effect asynchronously
        try:
            for seq, group in enumerate(groups):
                await web_a.group_send(group, {"type": "table.message", "group": group, "seq": seq})
            received = [await asyncio.wait_for(web_b.receive(channel), 5) for _ in groups]
        finally:
            await web_a.flush()
            await web_b.flush()
        return sorted(message["group"] for message in received)

    return asyncio.run(scenario())


@pytest.mark.parametrize("kind", ["pubsub", "core"])
def test_groups_spread_over_two_shards_and_still_cross_processes(kind):
    with redis_servers(2) as (one, two):
        listened = []

        async def watch():  # which shard carried what: each server's own view
            return [await asyncio.to_thread(s.client().info, "stats") for s in (one, two)]

        before = asyncio.run(watch())
        assert crossing([one.url, two.url], kind, GROUPS) == sorted(GROUPS)
        after = asyncio.run(watch())
        for old, new in zip(before, after):
            listened.append(new["total_commands_processed"] - old["total_commands_processed"])
        # Both servers worked: the groups hash to both, not all to one.
        assert all(commands > len(GROUPS) / 4 for commands in listened), listened


def test_a_sentinel_url_reaches_its_master_for_the_layer_and_the_checks():
    with redis_servers(1) as (master,), sentinel_watching(master) as sentinel:
        assert crossing([sentinel.url], "pubsub", GROUPS[:4]) == sorted(GROUPS[:4])
        client = sync_client(endpoint(sentinel.url), 2)
        client.set("through-sentinel", "1")
        assert master.client().get("through-sentinel") == b"1"


def test_the_heartbeat_rejoins_after_any_one_shard_lost_its_groups(settings):
    with redis_servers(2) as (one, two):
        settings.CHANNEL_LAYER_URLS = [one.url, two.url]
        beat = Heartbeat()

        async def beats(*changes):
            seen = []
            for change in changes:
                change()
                seen.append(await beat.layer_lost())
            for client in beat.shards or ():
                await client.aclose()
            return seen

        def nothing():
            pass

        assert asyncio.run(
            beats(nothing, nothing, two.client().flushall, nothing, one.client().flushall)
        ) == [False, False, True, False, True]


def test_a_shard_that_is_down_does_not_stop_the_beat_of_the_others(settings):
    with redis_servers(2) as (one, two):
        settings.CHANNEL_LAYER_URLS = [one.url, two.url]
        beat = Heartbeat()

        async def scenario():
            assert await beat.layer_lost() is False
            two.stop()
            down = await beat.layer_lost()  # no exception: shard two is judged when it is back
            one.client().flushall()
            lost = await beat.layer_lost()
            for client in beat.shards or ():
                await client.aclose()
            return down, lost

        assert asyncio.run(scenario()) == (False, True)


@pytest.mark.django_db
def test_healthz_names_each_shard_and_fails_when_one_is_down(settings):
    with redis_servers(2) as (one, two):
        settings.REDIS_URL = one.url
        settings.CELERY_BROKER_URL = one.url
        settings.CHANNEL_LAYER_URLS = [one.url, two.url]
        body = Client().get("/healthz").json()
        assert body["status"] == "ok" and body["broker"] == "ok"
        labels = [endpoint(one.url).label, endpoint(two.url).label]
        assert body["layer"] == dict.fromkeys(labels, "ok")
        two.stop()
        response = Client().get("/healthz")
        assert response.status_code == 503
        body = response.json()
        assert body["layer"][labels[0]] == "ok"
        assert body["layer"][labels[1]].startswith("error: ")
        assert body["redis"].startswith("error: ")


@pytest.mark.django_db
def test_healthz_reaches_a_broker_behind_sentinel(settings):
    with redis_servers(1) as (master,), sentinel_watching(master) as sentinel:
        settings.REDIS_URL = master.url
        settings.CHANNEL_LAYER_URLS = [master.url]
        settings.CELERY_BROKER_URL = f"sentinel://127.0.0.1:{sentinel.port}"
        # As casino/settings.py sets them from CELERY_BROKER_MASTER_NAME.
        settings.CELERY_BROKER_MASTER_NAME = "casino"
        settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"master_name": "casino"}
        assert Client().get("/healthz").json()["broker"] == "ok"
        settings.CELERY_BROKER_MASTER_NAME = "nobody"
        settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"master_name": "nobody"}
        response = Client().get("/healthz")
        assert response.status_code == 503 and response.json()["broker"].startswith("error: ")


def test_layer_or_broker_urls_without_redis_url_are_refused_at_start():
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        CHANNEL_LAYER_URLS="redis://127.0.0.1:6379/0", DJANGO_SETTINGS_MODULE="casino.settings"
    )
    started = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert started.returncode != 0
    assert "CHANNEL_LAYER_URLS and CELERY_BROKER_URL need REDIS_URL" in started.stderr


def test_a_sentinel_url_becomes_a_sentinel_host_of_the_layer():
    config = redis_channel_layer(
        [
            "redis://:pw@10.0.0.1:6379/2",
            "sentinel://:pw@s1:26379,s2:26379/casino/3?sentinel_password=sp",
        ],
        "pubsub",
    )["CONFIG"]
    plain, watched = shard_hosts(config["urls"], config["connection"])
    assert plain["address"] == "redis://:pw@10.0.0.1:6379/2" and plain["socket_timeout"] == 30
    assert watched == {
        "master_name": "casino",
        "sentinels": [("s1", 26379), ("s2", 26379)],
        "db": 3,
        "password": "pw",
        "sentinel_kwargs": {"password": "sp"},
        "socket_timeout": 30,
        "socket_connect_timeout": 5,
        "max_connections": 1000,
    }
    assert endpoint(config["urls"][1]).label == "sentinel://s1:26379,s2:26379/casino/3"
