"""Bot players: sign in, open the table's websocket like a browser (session cookie, Origin), sit
down and play random legal actions from `you.legal` with a think time (docs/protocol.md).

    .venv/bin/python bench/bots.py --url http://127.0.0.1:8101 --table 3 --players 6 --seconds 60

Bot accounts are `<prefix>-<n>`; a bot signs in through the login form, and signs up through the
sign-up form when its account does not exist yet (so each starts with the site's starting chips).
bench/load.py drives many tables with the same Bot class and reads the figures it keeps. A dev
and ops tool: never point it at a site whose players did not agree to bots.
"""

import argparse
import asyncio
import http.cookiejar
import json
import random
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root
from holdem.realtime.delta import client_view  # pure: no Django
from tests.socket_client import dial  # nor this

# How often a bot picks each kind of legal action; bet/raise sizes are drawn between min_to and
# a pot-sized amount. Folding is only considered when it costs something (there is a bet to call).
ACTION_WEIGHTS = {"check": 5, "call": 5, "bet": 2, "raise": 1.5, "fold": 1.5, "all_in": 0.15}


class SignInError(Exception):
    pass


# --- signing in over HTTP, as a browser would ------------------------------------------------


class _KeepRedirects(urllib.request.HTTPRedirectHandler):
    """Leave redirects unfollowed: a 302 after the form post is the answer we want."""

    def redirect_request(self, *args, **kwargs):
        return None


def _origin_of(base_url: str) -> str:
    parts = urllib.parse.urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}"


def _post_form(opener, jar, url: str, fields: dict, timeout: float) -> int:
    with opener.open(urllib.request.Request(url), timeout=timeout) as page:
        html = page.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    if token is None:
        raise SignInError(f"no CSRF token in the form at {url}")
    body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token.group(1)}).encode()
    request = urllib.request.Request(
        url, data=body, headers={"Origin": _origin_of(url), "Referer": url}
    )
    try:
        with opener.open(request, timeout=timeout) as answer:
            return answer.status
    except urllib.error.HTTPError as answer:  # the 302 after success lands here (not followed)
        return answer.code


def sign_in(
    base_url: str, username: str, password: str, *, create: bool = True, timeout: float = 20
) -> str:
    """The session id of `username`, signing in through the login form (and signing up through the
    sign-up form first when the account does not exist and `create` is set)."""
    base_url = base_url.rstrip("/")
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _KeepRedirects)
    attempts = [("/accounts/login/", {"username": username, "password": password})]
    if create:
        attempts.append(
            (
                "/accounts/signup/",
                {"username": username, "email": "", "password1": password, "password2": password},
            )
        )
    for path, fields in attempts:
        status = _post_form(opener, jar, base_url + path, fields, timeout)
        session = next((c.value for c in jar if c.name == "sessionid"), None)
        if status == 302 and session:
            return session
    raise SignInError(
        f"{username} could not sign in at {base_url} (wrong password, or sign-up refused)"
    )


# --- the figures the bots keep ----------------------------------------------------------------


@dataclass
class Figures:
    """Shared by every bot of a run; only the asyncio loop touches it, so no locks."""

    errors: Counter = field(default_factory=Counter)  # error frames by code, failed connections...
    lost_events: int = 0  # events never delivered (a gap no later frame filled)
    reordered: int = 0  # events delivered after a later one (each such gap forces a snapshot)
    duplicates: int = 0  # an event delivered twice
    incomplete_broadcasts: int = 0  # actions whose event did not reach every socket at the table
    actions_sent: int = 0
    latencies: list = field(default_factory=list)  # seconds, act sent -> last socket has the event
    latencies_by_kind: dict = field(default_factory=dict)  # the same, split by what the act caused
    answer_latencies: list = field(default_factory=list)  # act sent -> its `ok` (the server's work)
    hands_ended: int = 0
    refused_handshakes: int = 0  # handshakes the server refused as too busy, tried again later
    measuring: bool = True

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())


class TableWatch:
    """The bots at one table, to time each action until every socket there has its event."""

    def __init__(self, table_id: int, figures: Figures):
        self.table_id = table_id
        self.figures = figures
        self.connected: set = set()
        self.pending: dict[int, tuple[float, frozenset, set]] = {}  # seat -> (sent, expected, seen)
        self.hands_seen: set = set()

    def acted(self, seat: int, sent: float) -> None:
        if seat in self.pending:  # the previous action of this seat never reached everyone
            self.figures.incomplete_broadcasts += 1
        self.pending[seat] = (sent, frozenset(self.connected), set())

    def saw(self, bot, seq: int, event: dict, at: float) -> None:
        if event.get("kind") == "hand_ended" and seq not in self.hands_seen:
            self.hands_seen.add(seq)
            if self.figures.measuring:
                self.figures.hands_ended += 1
        for change in event.get("engine") or ():
            seat = change.get("seat")
            if change.get("kind") != "action" or change.get("reason") or seat not in self.pending:
                continue
            sent, expected, seen = self.pending[seat]
            seen.add(bot)
            if expected <= seen | (expected - self.connected):  # everyone still connected has it
                del self.pending[seat]
                if self.figures.measuring:
                    self.figures.latencies.append(at - sent)
                    self.figures.latencies_by_kind.setdefault(caused(event), []).append(at - sent)


def caused(event: dict) -> str:
    """What an action led to: the hand's end, a new street, or just the next turn."""
    if event.get("kind") != "hand":
        return event.get("kind", "?")
    if any(
        change.get("kind") == "street" or "board" in change for change in event.get("engine") or ()
    ):
        return "next street"
    return "next turn"


# --- one bot ------------------------------------------------------------------------------------

# A refused handshake is tried again as static/js/socket.js does: 0.5 s, doubling, at most 15 s.
REFUSED_FIRST_DELAY = 0.5
REFUSED_MAX_DELAY = 15.0


def choose_action(legal: dict, rng: random.Random) -> tuple[str, int | None]:
    """A random legal action with a legal amount, the way a careless human might click."""
    actions = list(legal["actions"])
    weights = [ACTION_WEIGHTS.get(a, 1) for a in actions]
    if "check" in actions and "fold" in actions:
        weights[actions.index("fold")] = 0  # nobody folds when checking is free
    action = rng.choices(actions, weights)[0]
    if action not in ("bet", "raise"):
        return action, None
    low, high = legal["min_to"], legal["max_to"]
    pot_sized = max(
        low, legal.get("current_bet", 0) + legal.get("pot", 0) + legal.get("to_call", 0)
    )
    return action, rng.randint(low, max(low, min(high, pot_sized)))


class Bot:
    """One player in one browser tab: a table websocket and the decisions a person would make."""

    def __init__(
        self,
        *,
        name: str,
        base_url: str,
        session_id: str,
        table_id: int,
        watch: TableWatch,
        figures: Figures,
        think: tuple[float, float] = (0.2, 1.0),
        rng: random.Random | None = None,
        buy_in: int | None = None,
        seat: int | None = None,
    ):
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.session_id = session_id
        self.table_id = table_id
        self.watch = watch
        self.figures = figures
        self.think = think
        self.rng = rng or random.Random()
        self.buy_in = buy_in
        self.preferred_seat = seat  # tried first, so bots of one run do not race for seats
        self.ws = None
        self.seq = None  # the last table seq applied
        self.snapshot_seq = -1  # events at or below it are already in the snapshot: ignored
        self.missing: set[int] = set()  # seqs skipped over, not (yet) delivered
        self.resyncing = False
        self.table: dict = {}
        self.you: dict = {}
        self.acted_seq = -1  # the `you` seq we last acted on: act once per turn
        self.awaiting_action = False  # our act is sent, its event not seen yet: frames may be stale
        self.act_sent_at = None
        self.request_pending = None  # a sit/leave/sit_in/post awaiting its answer
        self.decision = None  # the think-then-act task
        self.done = False  # set by a subclass to close the tab before the deadline

    @property
    def ws_url(self) -> str:
        scheme = "wss" if self.base_url.startswith("https") else "ws"
        return f"{scheme}://{self.base_url.split('://', 1)[1]}/ws/table/{self.table_id}/"

    async def run(self, deadline: float) -> None:
        """Play until `deadline` (time.monotonic()), then close the tab. A handshake the server
        refuses (too busy to take a socket) is tried again with the site's client's backoff."""
        delay = REFUSED_FIRST_DELAY
        while True:
            try:
                await self.play(deadline)
                return
            except InvalidStatus as refused:
                if time.monotonic() + delay >= deadline:
                    self.figures.errors[f"handshake_{refused.response.status_code}"] += 1
                    return
                self.figures.refused_handshakes += 1
                await asyncio.sleep(delay * (0.75 + 0.5 * random.random()))
                delay = min(REFUSED_MAX_DELAY, delay * 2)

    async def play(self, deadline: float) -> None:
        try:
            async with dial(
                self.ws_url,
                origin=_origin_of(self.base_url),
                cookie=f"sessionid={self.session_id}",
                proxy=None,
                open_timeout=30,
            ) as ws:
                self.ws = ws
                while not self.done and (remaining := deadline - time.monotonic()) > 0:
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=remaining)
                    except TimeoutError:
                        break
                    await self.on_frame(json.loads(text), time.perf_counter())
        except ConnectionClosed as closed:
            if time.monotonic() < deadline and not self.done:
                self.figures.errors[
                    f"closed_{closed.rcvd.code if closed.rcvd else 'abnormal'}"
                ] += 1
        except InvalidStatus:
            raise  # run() decides: try again later, or count it
        except (InvalidHandshake, OSError, TimeoutError) as failed:
            self.figures.errors[f"connect_{type(failed).__name__}"] += 1
        finally:
            self.figures.lost_events += len(self.missing)
            self.missing.clear()
            self.watch.connected.discard(self)
            if self.decision is not None:
                self.decision.cancel()

    async def send(self, frame: dict) -> None:
        await self.ws.send(json.dumps(frame))

    async def on_frame(self, frame: dict, at: float) -> None:
        kind = frame.get("type")
        if kind == "snapshot":
            # Expected to see the table's events from its first snapshot on: what came before it
            # is in the snapshot, not in events (a bot that joins mid-action saw no event).
            self.watch.connected.add(self)
            self.seq, self.resyncing, self.awaiting_action = frame["seq"], False, False
            self.snapshot_seq = frame["seq"]
            self.table, self.you = frame["table"], frame["you"]
            await self.decide(frame["seq"])
        elif kind == "event":
            seq = frame["seq"]
            if seq in self.missing:  # late, after a later one: the gap was a reordering
                self.missing.discard(seq)
                self.figures.reordered += 1
                return
            if seq <= self.seq:
                if seq > self.snapshot_seq:
                    self.figures.duplicates += 1
                return  # else: sent while we subscribed, already in the snapshot
            if seq > self.seq + 1:
                self.missing.update(range(self.seq + 1, seq))
                if not self.resyncing:  # docs/protocol.md: on a gap, ask for a snapshot
                    self.resyncing = True
                    await self.send({"type": "snapshot"})
            self.seq = seq
            self.table, self.you = client_view(self.table, self.you, frame)
            self.watch.saw(self, seq, frame["event"], at)
            if self.awaiting_action and any(
                change.get("kind") == "action" and change.get("seat") == self.you.get("seat")
                for change in frame["event"].get("engine") or ()
            ):
                self.awaiting_action = False
            if frame.get("you"):
                await self.decide(seq)
        elif kind == "you":
            self.table, self.you = client_view(self.table, self.you, frame)
            await self.decide(frame["seq"])
        elif kind == "spectators":
            self.table, self.you = client_view(self.table, self.you, frame)
        elif kind == "ok":
            if frame.get("for") != "act":
                self.request_pending = None
            elif self.act_sent_at is not None and self.figures.measuring:
                self.figures.answer_latencies.append(at - self.act_sent_at)
        elif kind == "error":
            code = frame.get("code", "error")
            self.figures.errors[code] += 1
            if frame.get("action_id"):
                self.acted_seq, self.awaiting_action = -1, False  # refused: think again
                await self.send({"type": "snapshot"})
            elif code == "seat_taken":  # another bot was quicker: look again and pick another
                self.request_pending = None
                await self.send({"type": "snapshot"})
            else:
                self.request_pending = f"stuck: {code}"  # retrying would only repeat the refusal

    async def decide(self, seq: int) -> None:
        you, legal = self.you, self.you.get("legal")
        if legal and you.get("seat") is not None and legal.get("seat", you["seat"]) == you["seat"]:
            idle = self.decision is None or self.decision.done()
            if seq > self.acted_seq and idle and not self.awaiting_action:
                self.acted_seq = seq
                self.decision = asyncio.create_task(self.act(legal))
            return
        if self.request_pending:
            return
        # A busted player is stood up by the server at the end of the hand; we then buy in again.
        if you.get("seat") is None:
            await self.sit_down()
        elif you.get("sitting_out"):
            await self.request({"type": "sit_in"})
        elif you.get("waiting_for_big_blind") and not you.get("wants_to_post"):
            await self.request({"type": "post"})

    async def request(self, frame: dict) -> None:
        self.request_pending = frame["type"]
        await self.send(frame)

    async def sit_down(self) -> None:
        options = self.table.get("options") or {}
        free = [s["number"] for s in self.table.get("seats", ()) if not s.get("occupied")]
        if not free or self.table.get("status") != "open":
            return
        if options.get("max_buy_in") is None:
            buy_in = None  # whole-balance room
        else:
            low, high = options.get("min_buy_in") or 1, options["max_buy_in"]
            buy_in = (
                self.buy_in
                if self.buy_in is not None
                else self.rng.randint(low, max(low, min(high, low * 3)))
            )
            balance = self.you.get("balance") or 0
            if balance < low:
                self.figures.errors["bot_out_of_chips"] += 1
                self.request_pending = "broke"  # stays so: nothing more to do at this table
                return
            buy_in = min(buy_in, balance)
        seat = self.preferred_seat if self.preferred_seat in free else self.rng.choice(free)
        await self.request({"type": "sit", "seat": seat, "buy_in": buy_in})

    async def act(self, legal: dict) -> None:
        low, high = self.think
        await asyncio.sleep(self.rng.uniform(low, high))
        action, amount = choose_action(legal, self.rng)
        frame = {"type": "act", "action": action, "action_id": uuid.uuid4().hex}
        if amount is not None:
            frame["amount"] = amount
        turn = self.table.get("turn") or {}
        if turn.get("token"):
            frame["turn"] = turn["token"]  # a late answer is refused, never applied to a later turn
        self.awaiting_action = True
        self.act_sent_at = time.perf_counter()
        self.watch.acted(self.you.get("seat"), self.act_sent_at)
        self.figures.actions_sent += 1
        await self.send(frame)


# --- a reconnect storm: sockets that arrive all at once (bench/load.py --storm) -------------------


@dataclass
class StormFigures:
    """What the storm's sockets met: when each was in (its first frame), how often it was refused
    as busy first, and what went wrong."""

    arrived: int = 0  # sockets that started trying
    waits: list = field(default_factory=list)  # seconds from its first try to its first frame
    in_at: list = field(default_factory=list)  # time.monotonic() of each first frame
    refused: int = 0  # handshakes refused as busy, tried again
    errors: Counter = field(default_factory=Counter)


async def storm_socket(
    url: str, origin: str, session_id: str, end_at: float, figures: StormFigures
) -> None:
    """One socket of the storm, as a reloaded page's: tries until it is in (refused as busy: again,
    with the site's client's backoff), then reads whatever comes until `end_at`."""
    figures.arrived += 1
    started = time.monotonic()
    delay = REFUSED_FIRST_DELAY
    while time.monotonic() < end_at:
        try:
            async with dial(
                url, origin=origin, cookie=f"sessionid={session_id}", proxy=None, open_timeout=30
            ) as ws:
                try:
                    await asyncio.wait_for(ws.recv(), timeout=max(0.1, end_at - time.monotonic()))
                except TimeoutError:
                    figures.errors["never_in"] += 1  # open, but no first frame before the end
                    return
                now = time.monotonic()
                figures.waits.append(now - started)
                figures.in_at.append(now)
                while (remaining := end_at - time.monotonic()) > 0:
                    try:
                        await asyncio.wait_for(ws.recv(), timeout=remaining)
                    except TimeoutError:
                        break
            return
        except InvalidStatus:
            if time.monotonic() + delay >= end_at:
                figures.errors["never_in"] += 1
                return
            figures.refused += 1
            await asyncio.sleep(delay * (0.75 + 0.5 * random.random()))
            delay = min(REFUSED_MAX_DELAY, delay * 2)
        except ConnectionClosed as closed:
            if time.monotonic() < end_at:
                figures.errors[f"closed_{closed.rcvd.code if closed.rcvd else 'abnormal'}"] += 1
            return
        except (InvalidHandshake, OSError, TimeoutError) as failed:
            figures.errors[f"connect_{type(failed).__name__}"] += 1
            return
    figures.errors["never_in"] += 1  # still waiting to try again when the window closed


# --- the command line ---------------------------------------------------------------------------


def parse_think(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def play(args) -> Figures:
    figures = Figures()
    watch = TableWatch(args.table, figures)
    urls = args.url
    names = [f"{args.prefix}-{n}" for n in range(1, args.players + 1)]
    sessions = await asyncio.gather(
        *(
            asyncio.to_thread(sign_in, urls[i % len(urls)], name, args.password)
            for i, name in enumerate(names)
        )
    )
    rng = random.Random(args.seed)
    bots = [
        Bot(
            name=name,
            base_url=urls[i % len(urls)],
            session_id=session,
            table_id=args.table,
            watch=watch,
            figures=figures,
            think=parse_think(args.think),
            rng=random.Random(rng.random()),
            seat=i,
        )
        for i, (name, session) in enumerate(zip(names, sessions))
    ]
    deadline = time.monotonic() + args.seconds
    await asyncio.gather(*(bot.run(deadline) for bot in bots))
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--url", action="append", help="site URL; repeat to spread bots over servers"
    )
    parser.add_argument("--table", type=int, required=True)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument(
        "--think", default="0.2-1.0", help="think time range in seconds, e.g. 0.1-0.5"
    )
    parser.add_argument("--prefix", default="bot")
    parser.add_argument("--password", default="bot-players-only-on-dev-sites")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    args.url = args.url or ["http://127.0.0.1:8000"]
    started = time.monotonic()
    figures = asyncio.run(play(args))
    elapsed = time.monotonic() - started
    print(
        f"bots: table={args.table} players={args.players} seconds={elapsed:.0f} actions={figures.actions_sent} "
        f"hands={figures.hands_ended} p50_ms={percentile(figures.latencies, 0.5) * 1000:.1f} "
        f"p99_ms={percentile(figures.latencies, 0.99) * 1000:.1f} errors={figures.error_count} "
        f"lost_events={figures.lost_events} {dict(figures.errors) or ''}"
    )
    return 0 if figures.error_count == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
