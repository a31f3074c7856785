"""Redis servers of a test's own, started beside the shared one: shards of the channel layer, a
master watched by a Sentinel. Each runs from the machine's redis-server on a free port, keeps
nothing on disk, and is stopped when its test ends."""

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from tests.conftest import service_missing

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    def __init__(self, port: int, process: subprocess.Popen, url: str):
        self.port, self.process, self.url = port, process, url

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def _wait_until_it_answers(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"redis-server on port {port} exited with {process.returncode}")
        try:
            if redis.Redis(port=port, socket_timeout=1).ping():
                return
        except redis.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError(f"redis-server on port {port} did not answer within 10 s")


def _start(*arguments: str, port: int, workdir: str) -> subprocess.Popen:
    binary = shutil.which("redis-server")
    if binary is None:
        service_missing("needs the redis-server program to start shards of its own")
    process = subprocess.Popen(
        [
            binary,
            *arguments,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            workdir,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait_until_it_answers(port, process)
    return process


@contextmanager
def redis_servers(count: int) -> Iterator[list[RedisServer]]:
    servers: list[RedisServer] = []
    with tempfile.TemporaryDirectory() as workdir:
        try:
            for _ in range(count):
                port = free_port()
                process = _start(port=port, workdir=workdir)
                servers.append(RedisServer(port, process, f"redis://127.0.0.1:{port}/0"))
            yield servers
        finally:
            for server in servers:
                server.stop()


@contextmanager
def sentinel_watching(master: RedisServer, name: str = "casino") -> Iterator[RedisServer]:
    """A Sentinel that watches `master` under `name` (quorum 1); its `url` is the site's
    sentinel:// URL of that master."""
    with tempfile.TemporaryDirectory() as workdir:
        config = Path(workdir) / "sentinel.conf"  # a Sentinel rewrites its own file
        config.write_text(
            f"sentinel monitor {name} 127.0.0.1 {master.port} 1\n"
            f"sentinel down-after-milliseconds {name} 5000\n"
        )
        port = free_port()
        process = _start(str(config), "--sentinel", port=port, workdir=workdir)
        server = RedisServer(port, process, f"sentinel://127.0.0.1:{port}/{name}/0")
        try:
            deadline = time.monotonic() + 10
            while not server.client().execute_command("SENTINEL", "MASTERS"):
                if time.monotonic() > deadline:
                    raise RuntimeError("the sentinel did not take up its master within 10 s")
                time.sleep(0.1)
            yield server
        finally:
            server.stop()
