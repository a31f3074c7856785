"""A server's database thread hands each commit's frames to the event loop and goes on (issue
13: "one hop to the event loop per commit"); the loop sends them in commit order."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from holdem import broadcast

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_database_thread_does_not_wait_for_the_channel_layer(monkeypatch):
    async def scenario():
        layer = get_channel_layer()
        opened = asyncio.Event()
        sent = []

        async def held_send(group, message):
            await opened.wait()  # Redis is slow today
            sent.append(message["n"])

        monkeypatch.setattr(layer, "group_send", held_send)

        def commit():  # what a consumer's database call does after its transaction commits
            broadcast.send_now([("table.1", {"type": "table.message", "n": 1})])
            return "went on"

        answer = await asyncio.wait_for(database_sync_to_async(commit)(), timeout=3)
        assert answer == "went on" and sent == []
        opened.set()
        for _ in range(50):
            await asyncio.sleep(0.01)
            if sent:
                break
        assert sent == [1]

    async_to_sync(scenario)()


def test_commits_broadcast_from_the_database_thread_arrive_in_commit_order():
    async def scenario():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add("table.order", channel)

        def commits():
            for n in range(40):
                broadcast.send_now([("table.order", {"type": "table.message", "n": n})])

        await database_sync_to_async(commits)()
        got = [(await asyncio.wait_for(layer.receive(channel), 3))["n"] for _ in range(40)]
        assert got == list(range(40))
        await layer.group_discard("table.order", channel)

    async_to_sync(scenario)()
