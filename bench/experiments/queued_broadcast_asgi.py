"""Experiment, not production code: an ASGI entry point that hands broadcasts to one sender task
on the server's event loop instead of blocking the database thread with one async_to_sync per
group (docs/performance.md, "Broadcast off the database thread"). Order is kept: one queue.

    .venv/bin/python bench/load.py --tables 50 --server-env CASINO_CHANNEL_LAYER=core \
        --server-env PYTHONPATH=bench/experiments --server-env CLUSTER_ASGI_APP=queued_broadcast_asgi:application
"""
import asyncio

from channels.layers import get_channel_layer

import holdem.realtime.broadcast as broadcast
from casino.asgi import application as site_application

sender: dict = {}  # the loop, the queue and the task, made at the first ASGI call
blocking_send = broadcast._send


async def send_forever(queue: asyncio.Queue) -> None:
    layer = get_channel_layer()
    while True:
        prepared = await queue.get()
        for group, message in prepared:
            try:
                await layer.group_send(group, {"type": "table.message", "message": message})
            except Exception:  # as holdem.realtime.broadcast: a failed broadcast never undoes a commit
                broadcast.log.exception("broadcast to %s failed", group)


async def application(scope, receive, send):
    if not sender:
        sender["loop"] = asyncio.get_running_loop()
        sender["queue"] = asyncio.Queue()
        sender["task"] = sender["loop"].create_task(send_forever(sender["queue"]))
    return await site_application(scope, receive, send)


def queued_send(prepared) -> None:
    if not sender:
        blocking_send(prepared)
        return
    sender["loop"].call_soon_threadsafe(sender["queue"].put_nowait, prepared)


broadcast._send = queued_send
