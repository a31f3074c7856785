"""The floor's server (bench/floor.py starts it through bin/daphne-serve): a bare Channels
consumer on the site's own channel layer, and nothing else. No database, no sessions, no origin
check, no heartbeat: what a table action cannot cost less than in this stack.

    bin/daphne-serve --bind 127.0.0.1 --port 8141 bench.floor_app:application

One `act` text frame in from one socket, one group message to the table's group, one text frame
out to each socket of the table (the sender included: its echo ends its latency). The outgoing
frame is padded to the size the act asks for (`size`, bytes), so one server measures any frame
size. Encoded once by the receiving consumer and forwarded as text by every consumer of the
group (FLOOR_ENCODE=each re-encodes a dict per socket instead, as `send_json` does).

The channel layer is the site's: casino/settings.py builds CHANNEL_LAYERS from REDIS_URL and
CASINO_CHANNEL_LAYER (pubsub as bin/cluster, or core), and only that setting is taken from it.

FLOOR_DATABASE (a PostgreSQL URL; bench/floor.py --transaction) adds, before the group message,
one action's transaction on the process's one database thread (bench/floor_db.py): the least a
committed action can cost.
"""

import json
import os

import django
from asgiref.sync import sync_to_async
from django.conf import settings

from bench.floor_db import commit_act
from casino import settings as site_settings

if not site_settings.REDIS_URL:
    raise RuntimeError("the floor needs REDIS_URL: it measures the site's Redis channel layer")

settings.configure(
    DEBUG=False,
    INSTALLED_APPS=[],
    CHANNEL_LAYERS=site_settings.CHANNEL_LAYERS,
    LOGGING_CONFIG=None,
)
django.setup()

from channels.consumer import get_handler_name  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

ENCODE_EACH = os.environ.get("FLOOR_ENCODE", "once") == "each"
# FLOOR_DISPATCH=channels keeps Channels' own dispatch, which hops to a worker thread before every
# handler to close stale database connections; the site skips that hop (holdem/realtime/sockets.py), so
# the floor does too by default.
CHANNELS_DISPATCH = os.environ.get("FLOOR_DISPATCH", "direct") == "channels"
MAX_SIZE = 64 * 1024
_padding: dict[int, str] = {}
DATABASE = os.environ.get("FLOOR_DATABASE")
# The hop to the process's one database thread, as Channels' `database_sync_to_async` makes it.
commit_on_db_thread = sync_to_async(commit_act, thread_sensitive=True)


def event_text(frame: dict) -> str:
    """The frame every socket of the table gets for this act, `size` bytes long (at least the
    bare event's own length)."""
    event = {
        "type": "event",
        "seq": frame.get("seq", 0),
        "seat": frame.get("seat"),
        "action_id": frame.get("action_id"),
        "pad": "",
    }
    bare = json.dumps(event, separators=(",", ":"))
    size = min(int(frame.get("size") or 0), MAX_SIZE)
    missing = size - len(bare)
    if missing > 0:
        if missing not in _padding:
            _padding[missing] = "x" * missing
        event["pad"] = _padding[missing]
        return json.dumps(event, separators=(",", ":"))
    return bare


class FloorConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        if CHANNELS_DISPATCH:
            return await super().dispatch(message)
        await getattr(self, get_handler_name(message))(message)

    async def connect(self):
        self.table = self.scope["url_route"]["kwargs"]["table"]
        self.group = f"floor.{self.table}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        frame = json.loads(text_data)
        if DATABASE:
            frame["seq"] = await commit_on_db_thread(
                DATABASE, self.table, frame.get("seat"), frame.get("action") or ""
            )
        if ENCODE_EACH:
            message = {"type": "floor.event", "event": json.loads(event_text(frame))}
        else:
            message = {"type": "floor.event", "text": event_text(frame)}
        await self.channel_layer.group_send(self.group, message)

    async def floor_event(self, message):
        if ENCODE_EACH:
            await self.send(text_data=json.dumps(message["event"], separators=(",", ":")))
        else:
            await self.send(text_data=message["text"])


async def alive(scope, receive, send):
    """Any HTTP request: 200, so that floor.py knows the server is up."""
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"floor\n"})


application = ProtocolTypeRouter(
    {
        "http": alive,
        # A group name of its own: Redis pub/sub channels are shared by every database number.
        "websocket": URLRouter([path("ws/floor/<str:table>/", FloorConsumer.as_asgi())]),
    }
)
