"""Bots that play a multi-table tournament (RULES.md 9) over the site's sockets, as a player does
in a browser: the header's ws/me/ tells them where they sit (`tournament_started`) and where they
were moved (`tournament_moved`); the table's socket deals them in, and they answer each of their
turns with a random legal action (bench/bots.py's `choose_action`).

One bot class for the in-process sockets of tests/realtime (`ListeningTab`), the real sockets of
tests/integration (`tests.frames.Player`) and bench/mtt.py: the caller gives `open_tab(path)`,
which returns a socket that keeps reading (`tests.socket_client.FrameLog`, with the `table` and
`you` the frames build) once its first frame came. Imports no Django, for the bench.
"""

import asyncio
import random
from collections import Counter
from collections.abc import Awaitable, Callable

from bench.bots import choose_action
from tests.socket_client import FrameLog

STARTED, MOVED = "tournament_started", "tournament_moved"

# A blind schedule whose blinds double every level (after the last level given, each is twice
# the one before, RULES.md 8): a tournament of bots ends in minutes whatever the cards.
DOUBLING_BLINDS = [[10, 20, 0], [20, 40, 0]]

# How often a bot picks each action it may take: mostly checking and calling small bets, so
# that hands go on and the blinds have time to climb; all in only now and then.
PATIENT_WEIGHTS = {"fold": 3, "check": 8, "call": 6, "bet": 2, "raise": 1, "all_in": 0.3}


def choose_patiently(legal: dict, rng: random.Random) -> tuple[str, int | None]:
    """A legal action from the private `you.legal`, and an amount for a bet or a raise."""
    weights = dict(PATIENT_WEIGHTS)
    if legal["to_call"] * 3 > legal["all_in_to"]:
        weights.update(fold=8, call=2)  # a third of the stack or more to call: mostly fold
    actions = legal["actions"]
    action = rng.choices(actions, weights=[weights.get(a, 1) for a in actions])[0]
    if action not in ("bet", "raise"):
        return action, None
    low, high = legal["min_to"], legal["max_to"]
    top = high if rng.random() < 0.1 else min(high, low * 2)
    return action, rng.randint(low, top)


OpenTab = Callable[[str], Awaitable[FrameLog]]


def first_frames(path: str) -> tuple[str, ...]:
    """The types of frame a socket at `path` opens with: ws/me/ the wallet, a table a snapshot."""
    return ("wallet",) if path == "/ws/me/" else ("snapshot",)


class MttBot:
    """One entrant: their ws/me/ tab, and the tab of the table they sit at. When moved, the old
    table's tab must have said so (`moved_out`, to the table the ws/me/ frame names) before it
    is closed; the new table's tab is opened and play goes on there."""

    def __init__(
        self,
        name: str,
        open_tab: OpenTab,
        rng: random.Random,
        *,
        choose: Callable[[dict, random.Random], tuple[str, int | None]] = choose_action,
        think: tuple[float, float] = (0.0, 0.0),
        wait: float = 15,
    ):
        self.name, self.open_tab, self.rng, self.think, self.wait = name, open_tab, rng, think, wait
        self.choose = choose
        self.me: FrameLog | None = None
        self.tab: FrameLog | None = None
        self.table_id: int | None = None
        self.followed = 0  # the ws/me/ frames handled
        self.acted_on: set[str] = set()  # the turn tokens answered
        self.actions = 0
        self.refused: Counter = Counter()  # error codes answering an act
        self.moves: list[tuple[int, int]] = []  # (from table, to table) as the frames said
        self.moves_unseen = 0  # moves made before the old table's tab was open
        self.played_after_move = 0  # moves after which the bot acted at the new table
        self.acted_here = False

    async def open(self, table_id: int | None = None) -> "MttBot":
        """Open ws/me/, and the table's tab when the player already sits at one (a page opened
        again after a restart); the frames ws/me/ sent before are not followed."""
        self.me = await self.open_tab("/ws/me/")
        self.followed = len(self.me.frames)
        if table_id is not None:
            await self.go_to(table_id)
        return self

    async def run(self, done: asyncio.Event) -> None:
        """Follow and play until `done` is set."""
        while not done.is_set():
            await self.follow()
            if not await self.act():
                await asyncio.sleep(0.05)

    async def follow(self) -> None:
        """Each `tournament_started` or `tournament_moved` frame of ws/me/, in order."""
        assert self.me is not None
        while self.followed < len(self.me.frames):
            frame = self.me.frames[self.followed]
            self.followed += 1
            if frame.get("type") not in (STARTED, MOVED):
                continue
            target = frame["tournament"]["table_id"]
            if frame["type"] == MOVED:
                await self.moved_out(target)
            await self.go_to(target)

    async def moved_out(self, target: int) -> None:
        """The old table's tab tells the player they left it for `target`, and they sit there no
        more (their own part: no seat). A tab opened after the move (a page opened again after
        a restart, just as the clock moved them) says so in its snapshot instead."""
        assert self.tab is not None and self.table_id is not None, f"{self.name}: moved unseated"

        def said_so(frame: dict) -> bool:
            if frame.get("type") == "snapshot":
                return frame["you"]["seat"] is None
            event = frame.get("event") or {}
            return event.get("kind") == "moved_out" and event.get("username") == self.name

        frame = await self.tab.until(said_so, self.wait)
        if frame["type"] == "event":
            assert frame["event"]["to_table"] == target, (self.name, frame["event"], target)
            assert frame["you"]["seat"] is None, (self.name, frame["you"])
            self.moves.append((self.table_id, target))
        else:
            self.moves_unseen += 1

    async def go_to(self, table_id: int) -> None:
        if self.tab is not None:
            await self.tab.close()
        self.tab = None  # (a failure to open leaves no closed tab behind)
        self.tab = await self.open_tab(f"/ws/table/{table_id}/")
        self.table_id = table_id
        self.acted_here = False  # (a first action here, after a move, counts in played_after_move)

    async def act(self) -> bool:
        """Answer the turn, if it is ours and not answered yet; True if an action was sent."""
        tab = self.tab
        if tab is None or not tab.table or not tab.you:
            return False
        turn, legal = tab.table.get("turn"), tab.you.get("legal")
        seat = tab.you.get("seat")
        if not turn or not legal or seat is None or turn.get("seat") != seat:
            return False
        token = turn["token"]
        if token in self.acted_on:
            return False
        self.acted_on.add(token)
        low, high = self.think
        # A tab sends at most 20 frames a second (holdem/realtime/consumers.py): so does a bot.
        await asyncio.sleep(max(self.rng.uniform(low, high) if high else 0.0, 0.05))
        action, amount = self.choose(legal, self.rng)
        action_id = f"{self.name}-{token}"[:64]
        frame = {"type": "act", "action": action, "action_id": action_id, "turn": token}
        if amount is not None:
            frame["amount"] = amount
        mark = len(tab.frames)
        await tab.send(frame)
        answer = await tab.until(
            lambda f: f.get("type") in ("ok", "error") and f.get("action_id") == action_id,
            self.wait,
            start=mark,
        )
        if answer["type"] == "error":
            self.refused[answer.get("code", "error")] += 1
            return True
        self.actions += 1
        if self.moves and not self.acted_here:
            self.played_after_move += 1
        self.acted_here = True
        return True

    async def close(self) -> None:
        for tab in (self.tab, self.me):
            if tab is not None:
                await tab.close()
        self.tab = self.me = None
