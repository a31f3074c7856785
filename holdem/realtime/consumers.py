"""The table websocket: checks who is asking and the shape of each frame, then calls one service.

Identity comes from the session only. Every bad frame gets an `error` frame and changes nothing;
oversized frames and floods close the connection (docs/protocol.md).
"""

import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from channels.db import database_sync_to_async
from django.db import DatabaseError

from casino import metrics
from casino.accounts.services import user_set_card_back
from casino.accounts.table_settings import preferences_set, table_settings_view
from casino.errors import DomainError
from casino.handshake import handshake_read
from holdem import services
from holdem.realtime.broadcast import player_group, table_group
from holdem.realtime.close_codes import CloseCode
from holdem.realtime.heartbeat import heartbeat
from holdem.realtime.sockets import TrackedConsumer
from holdem.selectors.snapshot import (
    previous_hand_at,
    table_is_open,
    table_known_open,
    table_snapshot,
    table_view_for,
)
from holdem.services.chat import chat_mute, chat_say
from holdem.services.presence import OpenedAt

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
MAX_FRAMES_PER_SECOND = 20
MAX_AMOUNT = 10**15
MAX_TOKEN = 64  # action ids and turn tokens


# Field checks: each field of a frame is checked here, once, for its JSON shape (type and size).
# What the value means (a free seat, a legal action, an affordable amount) is for the services
# and the engine to decide, each of them once.


def _whole_number(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise DomainError("bad_frame", f"{name} must be a whole number")
    return value


def _chips(value, name: str) -> int:
    """A JSON integer amount of chips (not a string, float, boolean, or absurdly large)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise DomainError("bad_amount", f"{name} must be a whole number of chips")
    if not 0 <= value <= MAX_AMOUNT:
        raise DomainError("bad_amount", f"{name} is out of range")
    return value


def _word(value, name: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 32:
        raise DomainError("bad_frame", f"{name} must be a word such as 'call'")
    return value


def _token(value, name: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TOKEN:
        raise DomainError("bad_frame", f"{name} must be a string of up to {MAX_TOKEN} characters")
    return value


def _flag(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise DomainError("bad_frame", f"{name} must be true or false")
    return value


def _sizes(value, name: str) -> list:
    """A short JSON list of numbers (which numbers make sizes is the settings service's to say)."""
    if not isinstance(value, list) or len(value) > 20:
        raise DomainError("bad_frame", f"{name} must be a list of at most 20 numbers")
    for size in value:
        if isinstance(size, bool) or not isinstance(size, (int, float)):
            raise DomainError("bad_frame", f"{name} must be a list of numbers")
    return value


def _chat_text(value, name: str) -> str:
    if not isinstance(value, str):
        raise DomainError("bad_frame", f"{name} must be text")
    return value  # what it may hold is the chat service's to say


@dataclass(frozen=True)
class FrameType:
    """A frame the table socket takes: its fields (name -> check) and the method that runs it."""

    handler: str
    required: dict = field(default_factory=dict)
    optional: dict = field(default_factory=dict)


FRAMES = {
    "sit": FrameType("sit", {"seat": _whole_number}, {"buy_in": _chips}),
    "act": FrameType(
        "act", {"action": _word}, {"amount": _chips, "action_id": _token, "turn": _token}
    ),
    "leave": FrameType("seat_change"),
    "leave_after_hand": FrameType("seat_change"),
    "sit_out": FrameType("seat_change"),
    "sit_in": FrameType("seat_change"),
    "post": FrameType("seat_change"),
    "show": FrameType("seat_change"),
    "muck": FrameType("seat_change"),
    "auto_muck": FrameType("auto_muck", {"value": _flag}),
    "top_up": FrameType("top_up", {"amount": _chips}),
    "sit_out_next_hand": FrameType("sit_out_box", {"value": _flag}),
    "sit_out_next_big_blind": FrameType("sit_out_box", {"value": _flag}),
    "auto_top_up": FrameType(
        "auto_top_up",
        {"enabled": _flag, "below_percent": _whole_number},
        {"to_big_blinds": _whole_number},
    ),
    "chat": FrameType("chat", {"text": _chat_text}),
    "chat_mute": FrameType("chat_mute", {"user_id": _whole_number, "value": _flag}),
    "pre_action": FrameType("pre_action", {}, {"value": _word, "amount": _chips}),
    "card_back": FrameType("card_back", {"value": _word}),
    "preferences": FrameType(
        "preferences",
        {},
        {
            "bet_sizes_postflop": _sizes,
            "bet_sizes_preflop": _sizes,
            "fold_confirm": _flag,
            "deck": _word,
        },
    ),
    "previous_hand": FrameType("previous_hand"),
    "switch": FrameType("switch", {"table_id": _whole_number}),
    "snapshot": FrameType("snapshot"),
    "ping": FrameType("ping"),
}

# The sit-out boxes (RULES.md 2): the frame names the box, the service ticks or unticks it.
SIT_OUT_BOXES = {
    "sit_out_next_hand": services.table_sit_out_next_hand,
    "sit_out_next_big_blind": services.table_sit_out_next_big_blind,
}

# The frames that only name a change of the sender's own seat, and the service that makes it.
SEAT_CHANGES = {
    "leave": services.table_leave,
    "leave_after_hand": services.table_leave_after_hand,
    "sit_out": services.table_sit_out,
    "sit_in": services.table_sit_in,
    "post": services.table_post,
    "show": services.table_show,
    "muck": services.table_muck,
}


def _no_constants(name):
    raise ValueError(f"{name} is not a number")


def load_frame(text: str) -> dict:
    """A JSON object with a string `type` and only valid Unicode in it."""
    try:
        frame = json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        raise DomainError("bad_json", "that message is not valid JSON") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        raise DomainError("bad_frame", "a message is a JSON object with a 'type'")
    if not _encodable(frame):
        # JSON may spell a lone surrogate ("\\ud800"); no database or socket can store it.
        raise DomainError("bad_frame", "text must be valid Unicode (no lone surrogates)")
    return frame


def check_frame(frame: dict) -> dict:
    """The frame with a known `type` and exactly the fields that type takes, each checked (a
    field sent as null counts as left out)."""
    kind = frame["type"]
    spec = FRAMES.get(kind)
    if spec is None:
        raise DomainError("unknown_type", f"unknown message type {kind[:40]!r}")
    fields = set(frame) - {"type"}
    missing = set(spec.required) - fields
    if missing:
        raise DomainError("bad_frame", f"'{kind}' needs {', '.join(sorted(missing))}")
    extra = fields - set(spec.required) - set(spec.optional)
    if extra:
        raise DomainError("bad_frame", f"'{kind}' does not take {', '.join(sorted(extra))[:80]}")
    checked = {"type": kind}
    for name, check in (spec.required | spec.optional).items():
        if frame.get(name) is not None:
            checked[name] = check(frame[name], name)
    return checked


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


class TableConsumer(TrackedConsumer):
    max_frame_bytes = MAX_FRAME_BYTES

    async def connect(self):
        self.user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if self.user is None or not self.user.is_authenticated:
            await self.close()  # refused before accept: spectating needs signing in
            return
        if not table_known_open(self.table_id) and not await handshake_read(table_is_open)(
            self.table_id
        ):
            await self.close()
            return
        self.frames_window = (time.monotonic(), 0)
        snapshot = await self.open_tracked(
            [table_group(self.table_id), player_group(self.table_id, self.user.pk)],
            self.first_snapshot,
        )
        if snapshot is None:
            return
        await self.send_table_snapshot(snapshot)
        self.start_beating()

    def first_snapshot(self, opened: OpenedAt | None) -> dict[str, Any]:
        """The snapshot, read under the table lock the socket's count took, from the row and
        seats it read (on the database thread, in the same trip)."""
        assert opened is not None  # a table socket is counted at its table
        return table_view_for(opened.table, self.user, opened.seats)

    async def receive(self, text_data=None, bytes_data=None):
        if await self.frame_refused(text_data, bytes_data):
            return
        if self.flooding():
            await self.send_json(
                {"type": "error", "code": "rate_limited", "message": "too many messages; slow down"}
            )
            await self.close(code=CloseCode.FLOOD)
            return
        action_id = None
        try:
            if text_data is None:
                raise DomainError("bad_frame", "send text frames with JSON")
            frame = load_frame(text_data)
            if frame["type"] == "act":
                action_id = _action_id_of(frame)  # an act's error names it, even a bad act's
            frame = check_frame(frame)
            await getattr(self, "on_" + FRAMES[frame["type"]].handler)(frame)
        except DomainError as refused:
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

    # One method per FrameType.handler; the frame's fields are already checked (parse_frame).

    async def on_ping(self, frame: dict) -> None:
        # The table's seq as of a second ago: a client behind it missed an event.
        await self.send_json({"type": "pong", "seq": heartbeat().settled_seq(self.table_id)})

    async def on_snapshot(self, frame: dict) -> None:
        await self.send_snapshot()

    async def on_sit(self, frame: dict) -> None:
        await database_sync_to_async(services.table_sit)(
            table_id=self.table_id, user=self.user, seat=frame["seat"], buy_in=frame.get("buy_in")
        )
        await self.ok("sit")

    async def on_act(self, frame: dict) -> None:
        action_id = frame.get("action_id", "")
        answer = await database_sync_to_async(metrics.act_timed(services.table_act))(  # metrics:
            table_id=self.table_id,
            user=self.user,
            action=frame["action"],
            amount=frame.get("amount"),
            action_id=action_id,
            turn_token=frame.get("turn"),
        )
        await self.send_json(
            {"type": "ok", "for": "act", "action_id": action_id, "repeated": answer["repeated"]}
        )

    async def on_seat_change(self, frame: dict) -> None:
        service = SEAT_CHANGES[frame["type"]]
        done = await database_sync_to_async(service)(table_id=self.table_id, user=self.user)
        if frame["type"] == "leave_after_hand" and done is True:
            # The leave waits for the hand's end: the page says so (docs/protocol.md).
            await self.send_json({"type": "ok", "for": frame["type"], "later": True})
            return
        await self.ok(frame["type"])

    async def on_pre_action(self, frame: dict) -> None:
        await database_sync_to_async(services.table_pre_action)(
            table_id=self.table_id,
            user=self.user,
            choice=frame.get("value"),
            amount=frame.get("amount"),
        )
        await self.ok("pre_action")

    async def on_chat(self, frame: dict) -> None:
        await database_sync_to_async(chat_say)(
            table_id=self.table_id, user=self.user, text=frame["text"]
        )
        await self.ok("chat")

    async def on_chat_mute(self, frame: dict) -> None:
        muted = await database_sync_to_async(chat_mute)(
            user=self.user, muted_id=frame["user_id"], mute=frame["value"]
        )
        await self.send_json(muted)

    async def on_top_up(self, frame: dict) -> None:
        await database_sync_to_async(services.table_top_up)(
            table_id=self.table_id, user=self.user, amount=frame["amount"]
        )
        await self.ok("top_up")

    async def on_sit_out_box(self, frame: dict) -> None:
        service = SIT_OUT_BOXES[frame["type"]]
        await database_sync_to_async(service)(
            table_id=self.table_id, user=self.user, value=frame["value"]
        )
        await self.ok(frame["type"])

    async def on_auto_top_up(self, frame: dict) -> None:
        await database_sync_to_async(services.auto_top_up_set)(
            user=self.user,
            enabled=frame["enabled"],
            below_percent=frame["below_percent"],
            to_big_blinds=frame.get("to_big_blinds"),
        )
        await self.ok("auto_top_up")

    async def on_auto_muck(self, frame: dict) -> None:
        await database_sync_to_async(services.table_set_auto_muck)(
            table_id=self.table_id, user=self.user, auto_muck=frame["value"]
        )
        await self.ok("auto_muck")

    async def on_card_back(self, frame: dict) -> None:
        await database_sync_to_async(user_set_card_back)(user=self.user, card_back=frame["value"])
        await self.ok("card_back")
        await self.send_snapshot()

    async def on_preferences(self, frame: dict) -> None:
        """The table's settings dialog: the player's settings, for every page of theirs (the
        `preferences` frame comes through ws/me/); this page hears them at once too."""
        changes = {name: value for name, value in frame.items() if name != "type"}
        row = await database_sync_to_async(preferences_set)(user=self.user, **changes)
        await self.send_json({"type": "preferences", "preferences": table_settings_view(row)})

    async def on_previous_hand(self, frame: dict) -> None:
        hand = await database_sync_to_async(previous_hand_at)(self.table_id, self.user)
        await self.send_json({"type": "previous_hand", "hand": hand})

    async def on_switch(self, frame: dict) -> None:
        target = frame["table_id"]
        await database_sync_to_async(services.table_switch)(user=self.user, to_table_id=target)
        await self.send_json({"type": "switched", "table_id": target, "url": f"/tables/{target}/"})

    async def ok(self, kind: str) -> None:
        await self.send_json({"type": "ok", "for": kind})

    async def send_snapshot(self) -> None:
        await self.send_table_snapshot(
            await database_sync_to_async(table_snapshot)(self.table_id, self.user)
        )

    async def send_table_snapshot(self, snapshot: dict[str, Any]) -> None:
        self.last_seq = max(self.last_seq, snapshot["seq"])
        self.seq_known = True
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


def _action_id_of(frame: dict) -> str | None:
    value = frame.get("action_id")
    return value if isinstance(value, str) and len(value) <= MAX_TOKEN else None
