"""bin/cluster: two Daphne servers, two Celery workers and two beats on PostgreSQL and Redis, in
production settings over plain http. A player on server A sees what another does through server B.
"""

import asyncio
import json
import os
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from bench.bots import sign_in
from tests.conftest import service_missing
from tests.socket_client import ReadingSocket, dial

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def cluster_database() -> str:
    """The cluster's database, named after this checkout's test database (DATABASE_URL): two
    checkouts on one PostgreSQL, on different migrations, must not migrate the same one."""
    name = urllib.parse.urlsplit(os.environ.get("DATABASE_URL", "")).path.lstrip("/")
    return f"{name or 'casino'}_cluster_test"


@pytest.fixture
def cluster(tmp_path, redis_url):
    if not answers(5432):
        service_missing("needs PostgreSQL on 127.0.0.1:5432")
    if not answers(6379):
        service_missing("needs Redis on 127.0.0.1:6379")
    ports = free_ports(2)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "CASINO_")) and k != "DATABASE_URL"
    }
    env.update(
        CLUSTER_PORTS=" ".join(map(str, ports)),
        CLUSTER_RUN_DIR=str(tmp_path / "run"),
        CLUSTER_DB=cluster_database(),
        CLUSTER_REDIS_URL=redis_url,  # bin/cluster flushes it: this worker's own
    )
    started = subprocess.run(
        ["bin/cluster", "start"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=90
    )
    run_dir = tmp_path / "run"
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        yield {"ports": ports, "env": env, "run_dir": run_dir}
    finally:
        stopped = subprocess.run(
            ["bin/cluster", "stop"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
        assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    assert not list(run_dir.glob("*.pid"))


def get(port: int, path: str):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_the_cluster_serves_on_both_servers_and_events_cross_between_them(cluster):
    port_a, port_b = cluster["ports"]
    names = sorted(p.stem for p in cluster["run_dir"].glob("*.pid"))
    assert names == sorted(
        ["beat-1", "beat-2", f"web-{port_a}", f"web-{port_b}", "worker-1", "worker-2"]
    )

    for port in (port_a, port_b):
        status, headers, body = get(port, "/healthz")
        assert status == 200, body
        health = json.loads(body)
        assert (health["status"], health["database"], health["redis"]) == ("ok", "ok", "ok")
        assert health["clock"] in ("ok", "not started")  # beat runs in the cluster
    status, headers, _ = get(port_b, "/static/css/site.css")  # CASINO_SERVE_STATIC: no nginx here
    assert status == 200 and headers["Content-Type"].startswith("text/css")
    status, headers, _ = get(port_a, "/accounts/login/")
    assert status == 200 and "script-src 'self'" in headers["Content-Security-Policy"]

    # Signing up and in over plain http works (DJANGO_SECURE_COOKIES=false in bin/cluster).
    stamp = str(time.time_ns())[-9:]
    watcher = sign_in(f"http://127.0.0.1:{port_a}", f"watcher{stamp}", "cluster-test-pw-1")
    sitter = sign_in(f"http://127.0.0.1:{port_b}", f"sitter{stamp}", "cluster-test-pw-2")
    made = subprocess.run(
        [
            "bin/cluster",
            "manage",
            "shell",
            "-c",
            f"from holdem.services import room_create; print(room_create(name='cluster {stamp}', preset='nl50').pk)",
        ],
        cwd=ROOT,
        env=cluster["env"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    table_id = int(made.stdout.split()[-1])

    seated = asyncio.run(watch_a_seat_taken_elsewhere(port_a, port_b, table_id, watcher, sitter))
    assert seated["event"]["kind"] == "seated"
    assert seated["event"]["username"] == f"sitter{stamp}" and seated["event"]["stack"] == 2_000
    changes = seated["changes"]  # the first event of a new room brings every seat
    taken = next(s for s in changes.get("seat_updates", changes.get("seats")) if s["number"] == 4)
    assert taken["occupied"] and taken["username"] == f"sitter{stamp}"


async def watch_a_seat_taken_elsewhere(port_a, port_b, table_id, watcher_session, sitter_session):
    def socket_to(port, session):
        return dial(
            f"ws://127.0.0.1:{port}/ws/table/{table_id}/",
            origin=f"http://127.0.0.1:{port}",
            cookie=f"sessionid={session}",
            proxy=None,
        )

    def of_type(kind):
        return lambda frame: frame["type"] == kind

    async with (
        socket_to(port_a, watcher_session) as ws_a,
        socket_to(port_b, sitter_session) as ws_b,
    ):
        on_a, on_b = ReadingSocket(ws_a, "watcher on a"), ReadingSocket(ws_b, "sitter on b")
        before = (await on_a.until(of_type("snapshot")))["seq"]
        await on_b.until(of_type("snapshot"))
        await on_b.send({"type": "sit", "seat": 4, "buy_in": 2_000})
        assert (await on_b.until(of_type("ok")))["for"] == "sit"
        event = await on_a.until(of_type("event"))
        assert event["seq"] == before + 1
        return event


def cluster_command(cluster, *command: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bin/cluster", *command],
        cwd=ROOT,
        env=cluster["env"],
        capture_output=True,
        text=True,
        timeout=60,
    )


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_one_process_killed_by_name_dies_with_its_children_and_respawns(cluster):
    _, port_b = cluster["ports"]
    run_dir = cluster["run_dir"]

    # A worker dies with its pool, as a crashed container would.
    worker = int((run_dir / "worker-1.pid").read_text())
    children = Path(f"/proc/{worker}/task/{worker}/children")
    deadline = time.monotonic() + 60  # the pool is forked once the worker has booted
    while not children.read_text().split() and time.monotonic() < deadline:
        time.sleep(0.2)
    pool = [int(p) for p in children.read_text().split()]
    assert pool, "a Celery worker forks its pool"
    killed = cluster_command(cluster, "kill", "worker-1")
    assert killed.returncode == 0, killed.stdout + killed.stderr
    assert not alive(worker) and not any(alive(p) for p in pool)
    status = cluster_command(cluster, "status").stdout
    assert "worker-1" not in status and "worker-2" in status

    # A web server killed stops answering; respawned, it serves again on the same port.
    assert cluster_command(cluster, "kill", f"web-{port_b}").returncode == 0
    assert not answers(port_b)
    for name in ("worker-1", f"web-{port_b}"):
        respawned = cluster_command(cluster, "respawn", name)
        assert respawned.returncode == 0, respawned.stdout + respawned.stderr
        assert f"started {name}" in respawned.stdout
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not answers(port_b):
        time.sleep(0.2)
    status, _, body = get(port_b, "/healthz")
    assert status == 200, body
    assert alive(int((run_dir / "worker-1.pid").read_text()))

    # Respawning a running process leaves it alone; a name the cluster does not have is refused.
    again = cluster_command(cluster, "respawn", "worker-1")
    assert again.returncode == 0 and "is running" in again.stdout
    unknown = cluster_command(cluster, "respawn", "worker-9x")
    assert unknown.returncode != 0
    assert cluster_command(cluster, "kill", "beat-3").returncode != 0
