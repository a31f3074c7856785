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
container. On the way, the scaled shape (deploy/compose_scaled.py): Prometheus scrapes both web
containers and nginx refuses /metrics, the queries go through PgBouncer, the replica streams,
both channel-layer shards carry traffic, and beat fails over when the one holding the lock is
killed. Each result is appended to FILE as `hand=ok`, `failover=ok`, `audit=ok`, `metrics=ok`,
`pgbouncer=ok`, `replica=ok`, `shards=ok`, `beat_failover=ok`.
"""

import argparse
import asyncio
import json
import re
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root
from deploy import compose_scaled
from deploy.compose_browser import Browser, Tab, is_event, totp_code
from deploy.compose_stack import Container, Failure, Stack, check, step

BUY_IN = 2_000
TURN_SECONDS = 60  # no turn runs out while the script thinks
COUNTDOWN_SECONDS = 4


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
        usernames = [f"{browser.name}-{suffix}" for browser in (alice, bob)]
        for browser, username in zip((alice, bob), usernames, strict=True):
            browser.sign_up(username, f"e2e-{secrets.token_urlsafe(12)}")
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
        # /metrics, while each web container serves one socket: Prometheus scrapes both from
        # inside the network; nginx refuses it.
        status, _, _ = alice.get("/metrics")
        check(status in (403, 404), f"/metrics through nginx answered {status}")
        step(f"/metrics through nginx: {status}")
        if await asyncio.to_thread(compose_scaled.metrics, self.stack, 2) == "ok":
            self.passed("metrics")

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
        if await asyncio.to_thread(compose_scaled.pgbouncer, self.stack) == "ok":
            self.passed("pgbouncer")
        if await asyncio.to_thread(compose_scaled.replica, self.stack, usernames) == "ok":
            self.passed("replica")

        table = await self.wait_table(lambda t: t["countdown"] is not None, 10, "the countdown")
        due = table["countdown"]["starts_at"] / 1000
        await asyncio.sleep(max(0.0, due - time.time()) + 2)
        check(self.latest()["hand"] is None, "a hand started while beat was stopped")
        step("the countdown is overdue with beat stopped and no hand started; starting beat")
        restarted = time.monotonic()
        self.stack.compose("start", "beat")
        table = await self.wait_table(
            lambda t: t["hand"] is not None, 60, "the next hand after beat's restart"
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
        if await asyncio.to_thread(compose_scaled.shards, self.stack) == "ok":
            self.passed("shards")
        if await asyncio.to_thread(compose_scaled.beat_failover, self.stack) == "ok":
            self.passed("beat_failover")

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
