"""Each commit's frames leave in one hop to the event loop, and in commit order: a
table's events must reach its sockets in seq order, or every client asks for a snapshot."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from holdem.realtime import broadcast

pytestmark = pytest.mark.django_db(transaction=True)


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
