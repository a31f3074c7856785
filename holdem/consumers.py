"""The table websocket: checks who is asking and the shape of each frame, then calls one service.

Identity comes from the session only. Every bad frame gets an `error` frame and changes nothing;
oversized frames and floods close the connection (docs/protocol.md).
"""

import json
import logging
import time

from channels.db import database_sync_to_async
from django.db import DatabaseError

from casino.accounts.errors import ChipError
from holdem import services
from holdem.broadcast import player_group, table_group
from holdem.errors import TableError
from holdem.heartbeat import heartbeat
from holdem.sockets import TrackedConsumer

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
MAX_FRAMES_PER_SECOND = 20
MAX_AMOUNT = 10**15
CLOSE_TOO_BIG = 4009
CLOSE_FLOOD = 4029
CARD_BACKS = ("classic", "red", "green", "black")

# type -> (required fields, optional fields)
FRAMES = {
    "sit": ({"seat"}, {"buy_in"}),
    "leave": (set(), set()),
    "sit_out": (set(), set()),
    "sit_in": (set(), set()),
    "post": (set(), set()),
    "act": ({"action"}, {"amount", "action_id", "turn"}),
    "show": (set(), set()),
    "muck": (set(), set()),
    "auto_muck": ({"value"}, set()),
    "card_back": ({"value"}, set()),
    "previous_hand": (set(), set()),
    "switch": ({"table_id"}, set()),
    "snapshot": (set(), set()),
    "ping": (set(), set()),
}


class BadFrame(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _no_constants(name):
    raise ValueError(f"{name} is not a number")


def parse_frame(text: str) -> dict:
    """A JSON object with a known `type` and exactly the fields that type takes."""
    try:
        frame = json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        raise BadFrame("bad_json", "that message is not valid JSON") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        raise BadFrame("bad_frame", "a message is a JSON object with a 'type'")
    if not _encodable(frame):
        # JSON may spell a lone surrogate ("\\ud800"); no database or socket can store it.
        raise BadFrame("bad_frame", "text must be valid Unicode (no lone surrogates)")
    kind = frame["type"]
    if kind not in FRAMES:
        raise BadFrame("unknown_type", f"unknown message type {kind[:40]!r}")
    required, optional = FRAMES[kind]
    fields = set(frame) - {"type"}
    missing = required - fields
    if missing:
        raise BadFrame("bad_frame", f"'{kind}' needs {', '.join(sorted(missing))}")
    extra = fields - required - optional
    if extra:
        raise BadFrame("bad_frame", f"'{kind}' does not take {', '.join(sorted(extra))[:80]}")
    return frame


def _encodable(value) -> bool:
    """Every string in the frame (keys too) encodes as UTF-8."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_encodable(k) and _encodable(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_encodable(item) for item in value)
    return True


def chips(value, name: str, allow_none: bool = False):
    """A JSON integer amount of chips (not a string, float, boolean, or absurdly large)."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadFrame("bad_amount", f"{name} must be a whole number of chips")
    if not 0 <= value <= MAX_AMOUNT:
        raise BadFrame("bad_amount", f"{name} is out of range")
    return value


def whole_number(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise BadFrame("bad_frame", f"{name} must be a whole number")
    return value


class TableConsumer(TrackedConsumer):
    async def connect(self):
        self.user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if self.user is None or not self.user.is_authenticated:
            await self.close()  # refused before accept: spectating needs signing in
            return
        if not await database_sync_to_async(_table_is_open)(self.table_id):
            await self.close()
            return
        self.frames_window = (time.monotonic(), 0)
        await self.open_tracked(
            [table_group(self.table_id), player_group(self.table_id, self.user.pk)]
        )
        await self.send_snapshot()
        self.start_beating()

    async def disconnect(self, code):
        await self.close_tracked()

    async def receive(self, text_data=None, bytes_data=None):
        if getattr(self, "revoked", True):
            return  # signed out or evicted: nothing more is accepted on this socket
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > MAX_FRAME_BYTES:
            await self.close(code=CLOSE_TOO_BIG)
            return
        if self.flooding():
            await self.send_json(
                {"type": "error", "code": "rate_limited", "message": "too many messages; slow down"}
            )
            await self.close(code=CLOSE_FLOOD)
            return
        action_id = None
        try:
            if text_data is None:
                raise BadFrame("bad_frame", "send text frames with JSON")
            frame = parse_frame(text_data)
            if frame["type"] == "act":
                action_id = frame.get("action_id")
            await self.handle(frame)
        except BadFrame as bad:
            await self.send_error(bad.code, bad.message, action_id)
        except (TableError, ChipError) as refused:
            await self.send_error(refused.code, refused.message, action_id)
        except DatabaseError:
            # An outage: nothing was applied (each request is one transaction); try again.
            log.exception(
                "database unavailable for a %s frame at table %s",
                text_data and text_data[:20],
                self.table_id,
            )
            await self.send_error(
                "unavailable",
                "the table cannot be reached right now; try again in a moment",
                action_id,
                retry=True,
            )

    def flooding(self) -> bool:
        started, count = self.frames_window
        now = time.monotonic()
        if now - started >= 1.0:
            self.frames_window = (now, 1)
            return False
        self.frames_window = (started, count + 1)
        return count + 1 > MAX_FRAMES_PER_SECOND

    async def handle(self, frame: dict) -> None:
        kind = frame["type"]
        call = database_sync_to_async
        table_id, user = self.table_id, self.user
        if kind == "ping":
            # The table's seq as of a second ago: a client behind it missed an event.
            await self.send_json({"type": "pong", "seq": heartbeat().settled_seq(self.table_id)})
        elif kind == "snapshot":
            await self.send_snapshot()
        elif kind == "sit":
            seat = whole_number(frame["seat"], "seat")
            buy_in = chips(frame.get("buy_in"), "the buy-in", allow_none=True)
            await call(services.table_sit)(table_id=table_id, user=user, seat=seat, buy_in=buy_in)
            await self.ok(kind)
        elif kind == "act":
            action = frame["action"]
            if not isinstance(action, str):
                raise BadFrame("bad_frame", "action must be a word such as 'call'")
            amount = chips(frame.get("amount"), "the amount", allow_none=True)
            action_id = frame.get("action_id") or ""
            if not isinstance(action_id, str) or len(action_id) > 64:
                raise BadFrame("bad_frame", "action_id must be a string of up to 64 characters")
            turn = frame.get("turn")
            if turn is not None and (not isinstance(turn, str) or len(turn) > 64):
                raise BadFrame("bad_frame", "turn must be the turn token string from the table")
            answer = await call(services.table_act)(
                table_id=table_id,
                user=user,
                action=action,
                amount=amount,
                action_id=action_id,
                turn_token=turn,
            )
            await self.send_json(
                {"type": "ok", "for": "act", "action_id": action_id, "repeated": answer["repeated"]}
            )
        elif kind in ("leave", "sit_out", "sit_in", "post", "show", "muck"):
            service = {
                "muck": services.table_muck,
                "leave": services.table_leave,
                "sit_out": services.table_sit_out,
                "sit_in": services.table_sit_in,
                "post": services.table_post,
                "show": services.table_show,
            }[kind]
            await call(service)(table_id=table_id, user=user)
            await self.ok(kind)
        elif kind == "auto_muck":
            if not isinstance(frame["value"], bool):
                raise BadFrame("bad_frame", "value must be true or false")
            await call(services.table_set_auto_muck)(
                table_id=table_id, user=user, auto_muck=frame["value"]
            )
            await self.ok(kind)
        elif kind == "card_back":
            from casino.accounts.services import user_set_card_back

            if frame["value"] not in CARD_BACKS:
                raise BadFrame("bad_frame", f"card backs are {', '.join(CARD_BACKS)}")
            await call(user_set_card_back)(user=user, card_back=frame["value"])
            await self.ok(kind)
            await self.send_snapshot()
        elif kind == "previous_hand":
            hand = await call(_previous_hand)(table_id, user)
            await self.send_json({"type": "previous_hand", "hand": hand})
        elif kind == "switch":
            target = whole_number(frame["table_id"], "table_id")
            await call(services.table_switch)(user=user, to_table_id=target)
            await self.send_json(
                {"type": "switched", "table_id": target, "url": f"/tables/{target}/"}
            )

    async def ok(self, kind: str) -> None:
        await self.send_json({"type": "ok", "for": kind})

    async def send_snapshot(self) -> None:
        snapshot = await database_sync_to_async(_snapshot)(self.table_id, self.user)
        self.last_seq = max(self.last_seq, snapshot["seq"])
        await self.send_json(snapshot)

    async def send_error(
        self, code: str, message: str, action_id=None, retry: bool = False
    ) -> None:
        frame = {"type": "error", "code": code, "message": message}
        if action_id is not None:
            frame["action_id"] = action_id
        if retry:
            frame["retry"] = True
        await self.send_json(frame)

    async def table_message(self, event):
        """A message from the services through the channel layer (holdem/broadcast.py)."""
        message = event["message"]
        if message.get("type") == "event":
            self.last_seq = max(self.last_seq, message["seq"])
        await self.send_json(message)


def _table_is_open(table_id: int) -> bool:
    from holdem.models import Table, TableStatus

    return Table.objects.filter(pk=table_id).exclude(status=TableStatus.CLOSED).exists()


def _snapshot(table_id: int, user) -> dict:
    from holdem.models import Table
    from holdem.selectors import table_view_for

    return table_view_for(Table.objects.get(pk=table_id), user)


def _previous_hand(table_id: int, user):
    from holdem.models import Table
    from holdem.selectors import previous_hand_for

    return previous_hand_for(Table.objects.get(pk=table_id), user)
