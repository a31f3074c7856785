"""The websocket client of the tests, deploy/compose_e2e.py and the bench: open a socket as a
browser tab does (session cookie, Origin), send frames, and wait for the frame that matches.

It imports neither Django nor the site, so the scripts that run beside a live site (deploy/,
bench/) use it as the tests do. Two kinds of socket keep the same log of frames and the same
wait (`FrameLog.until`): one read only when the test asks (the in-process `WebsocketCommunicator`
of tests/realtime, or a real socket: `ReadingSocket`), and a real socket whose reader task keeps
reading in the background as the site's client does (`ListeningSocket`).
"""

import asyncio
import json
from collections.abc import Callable

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

Frame = dict
Predicate = Callable[[Frame], bool]

# Room for the largest snapshot the site sends (websockets' own default is 1 MiB).
MAX_FRAME_BYTES = 2**22


def dial(url: str, *, origin: str, cookie: str = "", **options):
    """A real websocket to `url` with the headers a browser sends: `origin`, and `cookie` as the
    whole Cookie header (`sessionid=...`). Await it, or use it with `async with`; `options` go
    to websockets' `connect` (open_timeout, user_agent_header, proxy, ...)."""
    options.setdefault("max_size", MAX_FRAME_BYTES)
    headers = {"Cookie": cookie} if cookie else {}
    return connect(url, origin=origin, additional_headers=headers, **options)


def frame_text(frame: Frame | str) -> str:
    """A frame as it goes on the wire; a string is sent as it is (to test malformed input)."""
    return frame if isinstance(frame, str) else json.dumps(frame)


class FrameLog:
    """Every frame one socket received, in order, and the wait for a frame that matches.

    A subclass says how a frame comes (`next_frame`) and how one is sent (`send_text`). Where
    frames are read only when the test asks for them, every frame in `frames` has been handed to
    the test already, so `until` waits for one still to come (`looks_back = False`); where a
    reader task keeps reading, a frame may have arrived before the test looked, so `until` looks
    through the whole log (or from `start`, the length of the log before a request was sent).
    """

    timeout: float = 10  # seconds `until` waits when not told
    failure: type[Exception] = AssertionError  # what `until` raises when no frame matched
    answers: frozenset[str] = frozenset({"ok", "error"})  # the frame types answering a request
    looks_back: bool = True

    def __init__(self, name: str):
        self.name = name
        self.frames: list[Frame] = []

    async def next_frame(self, timeout: float) -> None:
        """Wait up to `timeout` seconds for one more frame in `frames`; TimeoutError if none."""
        raise NotImplementedError

    async def send_text(self, text: str) -> None:
        raise NotImplementedError

    async def on_frame(self, frame: Frame) -> None:
        """What the client does with a frame just logged (follow the table, ask for a snapshot)."""

    async def send(self, frame: Frame | str) -> None:
        await self.send_text(frame_text(frame))

    async def until(
        self, predicate: Predicate, timeout: float | None = None, start: int | None = None
    ) -> Frame:
        """The first frame from index `start` of the log on that matches `predicate`, waiting for
        it up to `timeout` seconds."""
        timeout = self.timeout if timeout is None else timeout
        index = start if start is not None else (0 if self.looks_back else len(self.frames))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            while index < len(self.frames):
                frame = self.frames[index]
                index += 1
                if predicate(frame):
                    return frame
            remaining = deadline - loop.time()
            try:
                if remaining <= 0:
                    raise TimeoutError
                await self.next_frame(remaining)
            except TimeoutError as waited:
                raise self.failure(
                    f"{self.name}: no matching frame within {timeout} s; last {self.frames[-3:]}"
                ) from waited

    async def request(self, frame: Frame | str, timeout: float | None = None) -> Frame:
        """Send a frame and return the first answer to it (events may come before it)."""
        mark = len(self.frames)
        await self.send(frame)
        return await self.until(lambda f: f["type"] in self.answers, timeout, start=mark)


class ReadingSocket(FrameLog):
    """A real websocket (one `dial` opened) read only when the test waits on it."""

    looks_back = False

    def __init__(self, ws, name: str):
        super().__init__(name)
        self.ws = ws

    async def next_frame(self, timeout: float) -> None:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.frames.append(frame)
        await self.on_frame(frame)

    async def send_text(self, text: str) -> None:
        await self.ws.send(text)


class ListeningSocket(FrameLog):
    """A real websocket whose reader task keeps reading, as the site's client does; a subclass
    does with each frame what that client does (`on_frame`)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.arrived = asyncio.Event()
        self.closed = asyncio.Event()
        self.closed_with: int | None = None  # the close code the server sent, if it sent one

    async def open_url(
        self,
        url: str,
        *,
        origin: str,
        cookie: str = "",
        timeout: float | None = None,
        first: tuple[str, ...] = ("snapshot", "lobby"),
        **options,
    ):
        """Connect, start reading, and return once the socket's first frame came: a snapshot or a
        lobby (`first`: the types the socket opens with; ws/me/ opens with `wallet`)."""
        self.ws = await dial(url, origin=origin, cookie=cookie, **options)
        self.reader = asyncio.get_running_loop().create_task(self.read())
        await self.until(lambda f: f["type"] in first, timeout)
        return self

    async def read(self) -> None:
        try:
            async for text in self.ws:
                frame = json.loads(text)
                self.frames.append(frame)
                await self.on_frame(frame)
                self.arrived.set()
        except ConnectionClosed as closed:
            self.closed_with = closed.rcvd.code if closed.rcvd else None
        finally:
            if self.closed_with is None and self.ws.close_code is not None:
                self.closed_with = self.ws.close_code
            self.closed.set()

    async def next_frame(self, timeout: float) -> None:
        # Nothing runs between the caller's look through the log and this clear: no frame is missed.
        self.arrived.clear()
        await asyncio.wait_for(self.arrived.wait(), timeout)

    async def send_text(self, text: str) -> None:
        await self.ws.send(text)

    async def close(self) -> None:
        await self.ws.close()
        if self.reader is not None:
            await asyncio.wait([self.reader], timeout=5)
