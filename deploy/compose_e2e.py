"""The play of `make compose-e2e`: bin/compose-e2e starts the stack, this drives it through nginx
as two browsers would, and kills, stops and restarts its containers on the way.

  .venv/bin/python deploy/compose_e2e.py --url http://127.0.0.1:18080 --project casinoe2e \\
      --results FILE -- docker-compose --project-name casinoe2e --file ... --env-file ...

Two people sign up through the real form (CSRF cookie and token, Origin), open the lobby and a
table over websockets (Origin and cookies as a browser sends them), sit down and play a hand to
its end while their sockets are served by different web containers (read from each container's
own TCP table); beat is stopped and started and the next countdown fires; a web container is
killed mid-hand and the hand finishes through the other; /healthz answers; the first admin signs
in with a second factor; a backup is restored over the database; audit_chips passes in a
container. Each result is appended to FILE as `hand=ok`, `failover=ok`, `audit=ok`.
"""

import argparse
import asyncio
import base64
import hashlib
import hmac
import http.cookiejar
import json
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root
from holdem.delta import client_view  # pure: what a client holds after each frame

BUY_IN = 2_000
TURN_SECONDS = 60  # no turn runs out while the script thinks
COUNTDOWN_SECONDS = 4
DAPHNE_PORT = 8000
STARTED = time.monotonic()


def step(message: str) -> None:
    print(f"compose-e2e: [{time.monotonic() - STARTED:5.1f} s] {message}", flush=True)


class Failure(Exception):
    """A check of the scenario that did not hold."""


def check(condition, message: str) -> None:
    if not condition:
        raise Failure(message)


# --- the containers -----------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Container:
    id: str
    name: str


class Stack:
    """The compose project: its commands and what Docker knows about its containers."""

    def __init__(self, compose: list[str], project: str):
        self.compose_command = compose
        self.project = project

    def compose(self, *args: str, timeout: float = 180) -> str:
        done = subprocess.run(
            [*self.compose_command, *args], capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            raise Failure(f"{' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
        return done.stdout

    def exec_bytes(self, service: str, *command: str, stdin: bytes = b"") -> bytes:
        """A command in the service's running container, its output as bytes (pg_dump)."""
        done = subprocess.run(
            [*self.compose_command, "exec", "-T", service, *command],
            input=stdin,
            capture_output=True,
            timeout=120,
        )
        if done.returncode != 0:
            raise Failure(
                f"{' '.join(command)} failed: {done.stderr.decode(errors='replace')[-1500:]}"
            )
        return done.stdout

    def manage(self, *args: str, environment: dict[str, str] | None = None) -> str:
        """manage.py in a one-off container of the site's image, as docs/deploy.md tells operators."""
        settings = [arg for item in (environment or {}).items() for arg in ("-e", "=".join(item))]
        return self.compose(
            "run", "--rm", "--no-deps", "-T", *settings, "migrate", "python", "manage.py", *args
        )

    @staticmethod
    def docker(*args: str) -> str:
        done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise Failure(f"docker {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def containers(self, service: str) -> list[Container]:
        listing = self.docker(
            "ps",
            "--filter",
            f"label=com.docker.compose.project={self.project}",
            "--filter",
            f"label=com.docker.compose.service={service}",
            "--format",
            "{{.ID}} {{.Names}}",
        )
        return sorted(Container(*line.split()) for line in listing.splitlines() if line.strip())

    def address(self, container: Container) -> str:
        return self.docker(
            "inspect",
            "--format",
            "{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}",
            container.id,
        ).split()[0]

    def proxied_sockets(self, web: Container, nginx_address: str) -> set[int]:
        """The open connections from nginx to this web container's Daphne, by nginx's port, read
        from the container's own TCP table. Each is a websocket: nginx keeps no idle connection
        to Daphne, and the container's health checks come from inside it."""
        table = self.docker("exec", web.id, "cat", "/proc/net/tcp")
        ports = set()
        for line in table.splitlines()[1:]:
            fields = line.split()
            local, remote, state = fields[1], fields[2], fields[3]
            if state != "01":  # ESTABLISHED
                continue
            if int(local.rsplit(":", 1)[1], 16) != DAPHNE_PORT:
                continue
            remote_ip, remote_port = remote.rsplit(":", 1)
            if socket.inet_ntoa(bytes.fromhex(remote_ip)[::-1]) == nginx_address:
                ports.add(int(remote_port, 16))
        return ports

    def proxied(self) -> set[tuple[Container, int]]:
        """Every websocket nginx holds open to a web container: (container, nginx's port)."""
        nginx_address = self.address(self.containers("nginx")[0])
        return {
            (web, port)
            for web in self.containers("web")
            for port in self.proxied_sockets(web, nginx_address)
        }


# --- a browser --------------------------------------------------------------------------------


class Browser:
    """One person's browser: a cookie jar, forms with their CSRF token, the Origin it sends."""

    def __init__(self, base_url: str, name: str):
        self.base_url = base_url
        self.name = name
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.opener.addheaders = [("User-Agent", "compose-e2e (a browser's requests)")]

    def get(self, path: str) -> tuple[int, str, str]:
        try:
            with self.opener.open(self.base_url + path, timeout=20) as response:
                return response.status, response.read().decode(), response.url
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), path

    def headers_of(self, path: str) -> tuple[int, dict[str, str]]:
        with self.opener.open(self.base_url + path, timeout=20) as response:
            response.read()
            return response.status, dict(response.headers)

    def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        status, page, _ = self.get(path)
        check(status == 200, f"{self.name}: GET {path} answered {status}")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        check(token is not None, f"{self.name}: no CSRF token in the form at {path}")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), **fields}).encode()
        request = urllib.request.Request(
            self.base_url + path,
            data=body,
            headers={
                "Origin": self.base_url,
                "Referer": self.base_url + path,
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, response.read().decode(), response.url
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), path

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.cookies if c.name == name), None)

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.cookies)

    def sign_up(self, username: str, password: str) -> None:
        status, _, landed = self.post_form(
            "/accounts/signup/",
            {
                "username": username,
                "email": f"{username}@example.com",
                "password1": password,
                "password2": password,
            },
        )
        check(
            status == 200 and landed.endswith("/lobby/"),
            f"{username}: sign-up ended at {landed} ({status})",
        )
        check(self.cookie("sessionid"), f"{username}: no session cookie after signing up")


# --- a websocket tab ---------------------------------------------------------------------------


class Tab:
    """A websocket as static/js/table-app.js keeps one: reads every frame, applies each event's
    changes to the table it holds, follows the table's seq and asks for a snapshot on a gap or a
    heartbeat ahead of it."""

    def __init__(self, name: str):
        self.name = name
        self.frames: list[dict] = []
        self.seq: int | None = None
        self.table: dict | None = None
        self.ws = None
        self.reader = None
        self.closed = asyncio.Event()

    async def open(self, browser: Browser, path: str) -> "Tab":
        url = browser.base_url.replace("http://", "ws://", 1) + path
        self.ws = await websockets.connect(
            url,
            origin=browser.base_url,
            additional_headers={"Cookie": browser.cookie_header()},
            user_agent_header="compose-e2e (a browser's websocket)",
            open_timeout=20,
            max_size=2**22,
        )
        self.reader = asyncio.get_running_loop().create_task(self.read())
        await self.until(lambda f: f["type"] in ("snapshot", "lobby"), timeout=15)
        return self

    async def read(self) -> None:
        try:
            async for text in self.ws:
                frame = json.loads(text)
                self.frames.append(frame)
                kind = frame["type"]
                in_order = self.seq is not None and frame.get("seq") == self.seq + 1
                if kind == "snapshot" or (kind == "event" and in_order):
                    self.seq = frame["seq"]
                    self.table, _ = client_view(self.table, None, frame)
                elif kind == "event" and self.seq is not None and frame["seq"] > self.seq + 1:
                    # A gap: the changes need what was missed.
                    await self.ws.send(json.dumps({"type": "snapshot"}))
                elif kind == "spectators":
                    self.table, _ = client_view(self.table, None, frame)
                elif kind == "heartbeat" and self.seq is not None and frame["seq"] > self.seq:
                    await self.ws.send(json.dumps({"type": "snapshot"}))
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()

    async def until(self, predicate, timeout: float = 15, start: int = 0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            for frame in self.frames[start:]:
                if predicate(frame):
                    return frame
            if time.monotonic() > deadline:
                raise Failure(
                    f"{self.name}: no such frame within {timeout} s; last {self.frames[-2:]}"
                )
            await asyncio.sleep(0.05)

    async def request(self, frame: dict) -> dict:
        mark = len(self.frames)
        await self.ws.send(json.dumps(frame))
        return await self.until(lambda f: f["type"] in ("ok", "error"), start=mark)

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.wait_for(self.closed.wait(), 5)


def totp_code(secret_base32: str, at: float) -> str:
    """The code an authenticator app shows (RFC 6238: SHA-1, 30 s steps, 6 digits)."""
    counter = int(at // 30).to_bytes(8, "big")
    digest = hmac.new(base64.b32decode(secret_base32), counter, hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    code = (int.from_bytes(digest[offset : offset + 4], "big") & 0x7FFFFFFF) % 1_000_000
    return f"{code:06d}"


def is_event(kind: str):
    return lambda frame: frame["type"] == "event" and frame["event"]["kind"] == kind


# --- the scenario ------------------------------------------------------------------------------


class Scenario:
    def __init__(self, base_url: str, stack: Stack, results: Path):
        self.base_url = base_url
        self.stack = stack
        self.results = results
        self.table_id = 0
        self.tabs: dict[int, Tab] = {}  # seat -> the tab playing it
        self.served_by: dict[int, Container] = {}  # seat -> the web container of its socket

    def passed(self, name: str) -> None:
        with self.results.open("a") as results:
            results.write(f"{name}=ok\n")
        step(f"{name}=ok")

    # Sockets and the container behind them.

    async def open_on(self, browser: Browser, path: str, avoid: Container | None = None):
        """Open a socket through nginx; when `avoid` is given, reopen until another web container
        serves it (nginx picks among the replicas Docker's DNS names). Returns the tab and its
        container, read from the containers' TCP tables before and after."""
        for attempt in range(1, 21):
            before = await asyncio.to_thread(self.stack.proxied)
            tab = await Tab(f"{browser.name} {path}").open(browser, path)
            new = await asyncio.to_thread(self.stack.proxied) - before
            check(len(new) == 1, f"cannot tell which container serves {tab.name}: {new}")
            ((web, _port),) = new
            if web != avoid:
                step(f"{tab.name}: served by {web.name} (attempt {attempt})")
                return tab, web
            await tab.close()
        raise Failure(f"{browser.name}: nginx never chose another web container than {avoid.name}")

    # The table.

    def latest(self) -> dict:
        """The newest public table any tab has seen."""
        tabs = [tab for tab in self.tabs.values() if tab.table is not None]
        return max(tabs, key=lambda tab: tab.seq).table

    async def wait_table(self, condition, timeout: float, what: str) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            table = self.latest()
            if condition(table):
                return table
            await asyncio.sleep(0.05)
        raise Failure(f"{what}: not within {timeout} s; table {json.dumps(self.latest())[:600]}")

    async def act_once(self, table: dict) -> None:
        """The player to act checks, or calls when there is a bet to call."""
        turn, hand = table["turn"], table["hand"]
        seat = turn["seat"]
        mine = next(s for s in hand["seats"] if s["seat"] == seat)
        action = "check" if hand["current_bet"] == mine["bet"] else "call"
        answer = await self.tabs[seat].request(
            {
                "type": "act",
                "action": action,
                "action_id": secrets.token_hex(8),
                "turn": turn["token"],
            }
        )
        check(answer["type"] == "ok", f"seat {seat} {action}: {answer}")

    async def play_to_the_end(self, hand_number: int, after_first_action=None) -> dict:
        """Act for whoever is to act until the hand ends; returns the table after it."""
        acted: set[str] = set()
        first = True
        while True:
            table = await self.wait_table(
                lambda t: (
                    (t["hand_number"] == hand_number and t["hand"] is None)
                    or (t["turn"] and t["turn"]["token"] not in acted)
                ),
                timeout=30,
                what=f"hand {hand_number}: the next turn",
            )
            if table["hand"] is None:
                return table
            acted.add(table["turn"]["token"])
            await self.act_once(table)
            if first and after_first_action is not None:
                first = False
                await after_first_action()

    # The steps.

    def healthz(self, browser: Browser) -> None:
        status, body, _ = browser.get("/healthz")
        health = json.loads(body)
        check(status == 200 and health["status"] == "ok", f"/healthz answered {status}: {body}")
        step(f"/healthz through nginx: {status} {body}")

    def first_admin(self) -> None:
        """docs/deploy.md's first admin: createsuperuser and totp_enrol in one-off containers,
        then the admin's sign-in form, its second-factor form, and the admin's index."""
        username, password = "admin", f"e2e-{secrets.token_urlsafe(12)}"
        created = self.stack.manage(
            "createsuperuser",
            "--no-input",
            f"--username={username}",
            "--email=admin@example.com",
            environment={"DJANGO_SUPERUSER_PASSWORD": password},
        )
        check("Superuser created" in created, f"createsuperuser: {created!r}")
        enrolled = self.stack.manage("totp_enrol", username)
        secret = re.search(r"^secret \(base32, for typing in\): ([A-Z2-7=]+)$", enrolled, re.M)
        check(secret, "totp_enrol printed no secret")
        admin = Browser(self.base_url, "admin")
        status, _, landed = admin.post_form(
            "/admin/login/?next=/admin/",
            {"username": username, "password": password, "next": "/admin/"},
        )
        check(status == 200 and "/admin/second-factor/" in landed, f"admin sign-in: {landed}")
        path = urllib.parse.urlsplit(landed)
        status, page, landed = admin.post_form(
            f"{path.path}?{path.query}",
            {"token": totp_code(secret.group(1), time.time()), "next": "/admin/"},
        )
        check(status == 200 and landed.endswith("/admin/"), f"admin second factor: {landed}")
        check("Site administration" in page, "the admin's index did not open")
        step("first admin: createsuperuser, totp_enrol, then signed in to /admin/ with a code")

    def backup_and_restore(self) -> None:
        """docs/deploy.md's backup and restore, as written there: pg_dump while the site runs;
        stop what writes, pg_restore --clean over the live database, start again. The restored
        database holds the same accounts, ledger entries and hand actions."""
        query = (
            "select (select count(*) from accounts_user), (select count(*) from"
            " accounts_ledgerentry), (select count(*) from holdem_handaction)"
        )

        def counts() -> str:
            return self.stack.exec_bytes(
                "postgres", "psql", "--username=casino", "--dbname=casino", "-tAc", query
            ).decode()

        before = counts()
        dump = self.stack.exec_bytes(
            "postgres", "pg_dump", "--username=casino", "--dbname=casino", "--format=custom"
        )
        self.stack.compose("stop", "web", "worker", "beat")
        self.stack.exec_bytes(
            "postgres",
            "pg_restore",
            "--username=casino",
            "--dbname=casino",
            "--clean",
            "--if-exists",
            "--exit-on-error",
            stdin=dump,
        )
        self.stack.compose("start", "web", "worker", "beat")
        after = counts()
        check(before == after, f"restored {after.strip()}, before {before.strip()}")
        users, ledger, actions = after.strip().split("|")
        step(
            f"backup: pg_dump ({len(dump):,} bytes), web, worker and beat stopped, pg_restore"
            f" --clean, started: the same {users} accounts, {ledger} ledger entries and"
            f" {actions} hand actions"
        )

    def create_room(self) -> None:
        code = (
            "from holdem.services import room_create; "
            "t = room_create(name='Compose e2e', preset='nl50', "
            f"turn_seconds={TURN_SECONDS}, countdown_seconds={COUNTDOWN_SECONDS}, "
            f"countdown_full_seconds={COUNTDOWN_SECONDS}); print('table', t.pk)"
        )
        output = self.stack.manage("shell", "--command", code)
        found = re.search(r"^table (\d+)$", output, re.M)
        check(found, f"room_create printed {output!r}")
        self.table_id = int(found.group(1))
        step(f"room {self.table_id} created (manage.py shell in a one-off container)")

    async def run(self) -> None:
        alice, bob = Browser(self.base_url, "alice"), Browser(self.base_url, "bob")
        self.healthz(alice)
        self.create_room()
        suffix = secrets.token_hex(3)
        for browser in (alice, bob):
            browser.sign_up(f"{browser.name}-{suffix}", f"e2e-{secrets.token_urlsafe(12)}")
        step("alice and bob signed up through the form (CSRF token, cookies, Origin)")

        # The lobby: the page, a static file nginx serves from the volume, the live room list.
        status, page, _ = alice.get("/lobby/")
        check(status == 200, f"lobby page: {status}")
        stylesheet = re.search(r'href="(/static/[^"]+\.css)"', page)
        check(stylesheet, "the lobby page links no stylesheet")
        status, headers = alice.headers_of(stylesheet.group(1))
        check(status == 200, f"{stylesheet.group(1)} through nginx: {status}")
        # deploy/nginx.conf: a name with the content's hash is kept a year, any other an hour.
        hashed = re.search(r"\.[0-9a-f]{12}\.css$", stylesheet.group(1))
        kept = "max-age=31536000" if hashed else "max-age=3600"
        check(kept in headers.get("Cache-Control", ""), f"{stylesheet.group(1)}: {headers}")
        lobby = await Tab("alice lobby").open(alice, "/ws/lobby/")
        rooms = lobby.frames[0]["rooms"]
        check(any(room["id"] == self.table_id for room in rooms), f"room not in the lobby: {rooms}")
        await lobby.close()
        step(
            f"lobby page, {stylesheet.group(1)} ({headers['Cache-Control']}) and the lobby socket"
            f" ({len(rooms)} room) through nginx"
        )

        path = f"/ws/table/{self.table_id}/"
        for browser in (alice, bob):
            status, _, _ = browser.get(f"/tables/{self.table_id}/")
            check(status == 200, f"{browser.name}: table page {status}")
        self.tabs[0], self.served_by[0] = await self.open_on(alice, path)
        self.tabs[1], self.served_by[1] = await self.open_on(bob, path, avoid=self.served_by[0])
        for seat, tab in self.tabs.items():
            answer = await tab.request({"type": "sit", "seat": seat, "buy_in": BUY_IN})
            check(answer["type"] == "ok", f"{tab.name}: sit {answer}")
        step("both seated; the countdown runs")

        # Hand 1 on two web containers. Beat is stopped once it has dealt, so the countdown
        # after the hand can only fire once beat is back.
        table = await self.wait_table(lambda t: t["hand"] is not None, 30, "hand 1 dealt")
        first_hand = table["hand_number"]
        step(f"hand {first_hand} dealt by beat; stopping beat")
        self.stack.compose("stop", "--timeout", "10", "beat")
        table = await self.play_to_the_end(first_hand)
        check(table["last_hand"] is not None, f"hand {first_hand} ended without a result")
        for seat, tab in self.tabs.items():
            await tab.until(is_event("hand_ended"), timeout=10)
            check(not tab.closed.is_set(), f"seat {seat}'s socket closed during the hand")
        self.passed("hand")

        table = await self.wait_table(lambda t: t["countdown"] is not None, 10, "the countdown")
        due = table["countdown"]["starts_at"] / 1000
        await asyncio.sleep(max(0.0, due - time.time()) + 2)
        check(self.latest()["hand"] is None, "a hand started while beat was stopped")
        step("the countdown is overdue with beat stopped and no hand started; starting beat")
        restarted = time.monotonic()
        self.stack.compose("start", "beat")
        table = await self.wait_table(
            lambda t: t["hand"] is not None, 45, "the next hand after beat's restart"
        )
        second_hand = table["hand_number"]
        check(second_hand == first_hand + 1, f"hand {second_hand} after hand {first_hand}")
        waited = time.monotonic() - restarted
        step(
            f"beat back: the countdown fired, hand {second_hand} dealt {waited:.1f} s after its start"
        )

        # Hand 2: a web container killed after the first action; the hand finishes on the other.
        async def kill_a_web_server():
            victim, survivor = self.served_by[0], self.served_by[1]
            self.stack.docker("kill", victim.id)
            step(f"killed {victim.name} (alice's socket) mid-hand")
            await asyncio.wait_for(self.tabs[0].closed.wait(), 10)
            self.tabs[0], self.served_by[0] = await self.open_on(alice, path)
            check(self.served_by[0] == survivor, f"alice came back on {self.served_by[0].name}")
            check(
                self.tabs[0].table["hand_number"] == second_hand and self.tabs[0].table["hand"],
                f"alice's snapshot after the reconnection: {self.tabs[0].table}",
            )

        table = await self.play_to_the_end(second_hand, after_first_action=kill_a_web_server)
        check(table["last_hand"] is not None, f"hand {second_hand} ended without a result")
        check(not self.tabs[1].closed.is_set(), "bob's socket on the surviving container closed")
        step(f"hand {second_hand} finished through {self.served_by[1].name}")
        self.healthz(alice)
        self.passed("failover")

        for tab in self.tabs.values():
            await tab.close()
        self.first_admin()
        self.backup_and_restore()
        summary = self.stack.manage("audit_chips")
        step("audit_chips in a one-off container: " + " | ".join(summary.strip().splitlines()[-3:]))
        self.passed("audit")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="nginx's address, e.g. http://127.0.0.1:18080")
    parser.add_argument("--project", required=True, help="the compose project name")
    parser.add_argument("--results", required=True, type=Path, help="file the results go to")
    parser.add_argument("compose", nargs="+", help="the compose command line, after --")
    options = parser.parse_args()
    scenario = Scenario(options.url, Stack(options.compose, options.project), options.results)
    try:
        asyncio.run(asyncio.wait_for(scenario.run(), 420))
    except (Failure, TimeoutError, OSError, websockets.WebSocketException) as error:
        step(f"FAILED: {type(error).__name__}: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
