"""The site for real, to attack it: Daphne processes started as the product starts them
(bin/daphne-serve), on the test PostgreSQL and Redis, killed and restarted at will, alone or
with a Celery worker and beat (`Stack`); players on real websockets who behave as the browser
client does (a `heartbeat` ahead of them, or a gap, and they ask for a snapshot); and the
deadline clock ticking beside them as beat would.
"""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from django.db import close_old_connections, connection

from holdem.models import DEADLINES_CLOCK, ClockBeat
from tests.frames import Player
from tests.integration.daphne_serve import (
    ROOT,
    SERVER_SECRET_KEY,
    database_url,
    free_port,
    server_env,
    session_cookie,
    wait_healthy,
)
from tests.mtt_bots import first_frames

__all__ = [
    "ROOT",
    "Clock",
    "LiveServer",
    "Player",
    "Stack",
    "last_beat",
    "session_cookie",
    "tab_opener",
    "wait_until",
]


def wait_until(condition, seconds: float, step: float = 0.2) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return False


def last_beat():
    """When the deadline clock last ran (beat's tick, or the in-process clock)."""
    return ClockBeat.objects.filter(name=DEADLINES_CLOCK).values_list("ran_at", flat=True).first()


class LiveServer:
    """One Daphne serving the site in services mode (Redis channel layer, no in-process clock)."""

    def __init__(self, redis_url: str, secret_key: str, extra_args=(), database=None):
        self.port = free_port()
        self.extra_args = list(extra_args)
        self.env = server_env(
            REDIS_URL=redis_url,
            DJANGO_SECRET_KEY=secret_key,
            DJANGO_CONN_HEALTH_CHECKS="true",
            **({"DATABASE_URL": database} if database else {}),
        )
        self.process = None
        self.log = None

    def start(self) -> "LiveServer":
        self.log = tempfile.TemporaryFile("w+")  # noqa: SIM115 (open until stop())
        self.process = subprocess.Popen(
            [
                str(ROOT / "bin/daphne-serve"),
                *self.extra_args,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "casino.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        wait_healthy(self.port, self.process, self.log)
        return self

    def kill(self) -> None:
        """SIGKILL: no disconnect handler runs, nothing is cleaned up."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                # Daphne's graceful stop waits for open sockets; the test is done with them.
                self.process.wait(2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()


class Clock:
    """The deadline clock as Celery beat runs it: deadlines_fire_due every half second."""

    def __init__(self):
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        from holdem.services import deadlines_fire_due

        try:
            while self.running:
                try:
                    deadlines_fire_due()
                finally:
                    close_old_connections()
                time.sleep(0.5)
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join(5)


class Stack:
    """The site's processes: Daphne servers in services mode (`servers` of them, on one database
    and one Redis), and one Celery worker running beat (the deadline clock: deals, turns, levels,
    the tournaments' start, moves and breaks) in a process group of its own. Each can be killed
    as a crash would, frozen (SIGSTOP) and started again."""

    def __init__(self, redis_url: str, schedule: Path, servers: int = 1):
        self.redis_url = redis_url
        self.schedule = schedule
        self.servers = [LiveServer(redis_url, SERVER_SECRET_KEY) for _ in range(servers)]
        self.worker: subprocess.Popen | None = None
        self.worker_log = None
        self.worker_logs: list[str] = []

    @property
    def server(self) -> LiveServer:
        return self.servers[0]

    @property
    def ports(self) -> list[int]:
        return [server.port for server in self.servers]

    def worker_start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CASINO_"))}
        env.update(DATABASE_URL=database_url(), REDIS_URL=self.redis_url)
        self.worker_log = tempfile.TemporaryFile("w+")  # noqa: SIM115 (read when it ends)
        self.worker = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("celery")),
                "-A",
                "casino",
                "worker",
                "-B",
                "--pool=solo",
                "--loglevel=warning",
                f"--schedule={self.schedule}",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.worker_log,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # beat runs in a child: the group is killed as one
        )

    def start(self) -> None:
        self.worker_start()
        for server in self.servers:
            server.start()

    def worker_ended(self) -> None:
        assert self.worker is not None and self.worker_log is not None
        self.worker.wait(15)
        self.worker_log.seek(0)
        self.worker_logs.append(self.worker_log.read())
        self.worker_log.close()
        self.worker_log = None

    def kill(self) -> None:
        """SIGKILL every process of the site at once: nothing is cleaned up or flushed."""
        assert self.worker is not None
        os.killpg(self.worker.pid, signal.SIGKILL)
        for server in self.servers:
            server.process.send_signal(signal.SIGKILL)
        self.worker_ended()
        for server in self.servers:
            server.process.wait(10)

    def freeze(self) -> None:
        """SIGSTOP the worker and beat: the clock stands still where it is (mid-task, maybe)."""
        assert self.worker is not None
        os.killpg(self.worker.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.worker is not None
        os.killpg(self.worker.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            os.killpg(self.worker.pid, signal.SIGCONT)  # a frozen worker cannot stop
            os.killpg(self.worker.pid, signal.SIGTERM)
            try:
                self.worker.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.worker.pid, signal.SIGKILL)
        if self.worker_log is not None:
            self.worker_ended()
        for server in self.servers:
            server.stop()

    def tracebacks(self) -> list[str]:
        """The ends of the logs (the worker's, each server's last) that show a traceback."""
        logs = [*self.worker_logs, *(s.output() for s in self.servers if s.log is not None)]
        return [log[-3000:] for log in logs if "Traceback" in log]


def tab_opener(port: int, cookie: str, name: str):
    """open_tab(path) for tests/mtt_bots.py: a `Player` tab at `path` on the server at `port`,
    signed in with `cookie`, once its first frame came."""

    async def open_tab(path: str) -> Player:
        return await Player(f"{name} {path}").connect(port, path, cookie, first=first_frames(path))

    return open_tab


class TcpProxy:
    """A TCP relay to PostgreSQL that can be cut, to take the database away from a server."""

    def __init__(self, target_port: int = 5432):
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.pairs = []
        self.lock = threading.Lock()
        threading.Thread(target=self.accept_forever, daemon=True).start()

    def accept_forever(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()  # the database is "down": refused at once
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pump, args=(a, b), daemon=True).start()

    @staticmethod
    def pump(source, sink):
        """Copy one way until either end closes, then close both. Shut down before closing: a
        bare close() does not wake the other direction's thread blocked in recv(), which kept
        the socket (and PostgreSQL's session on it) open until the process ended."""
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    end.close()

    def cut(self):
        """Every open connection dies and new ones are refused."""
        self.up = False
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for end in pair:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def restore(self):
        self.up = True

    def close(self):
        self.cut()
        self.listener.close()
