"""The site for real, to attack it: Daphne processes started as the product starts them
(bin/daphne-serve), on the test PostgreSQL and Redis, killed and restarted at will; players on
real websockets who behave as the browser client does (a `heartbeat` ahead of them, or a gap,
and they ask for a snapshot); and the deadline clock ticking beside them as beat would.
"""

import contextlib
import signal
import socket
import subprocess
import tempfile
import threading
import time

from django.db import close_old_connections, connection

from tests.frames import follow
from tests.integration.daphne_serve import ROOT, free_port, server_env, session_cookie, wait_healthy
from tests.socket_client import ListeningSocket

__all__ = ["ROOT", "Clock", "LiveServer", "Player", "session_cookie", "wait_until"]


def wait_until(condition, seconds: float, step: float = 0.2) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return False


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


class Player(ListeningSocket):
    """A websocket tab that keeps reading: like static/js/table-app.js it tracks the table's `seq`
    and asks for a snapshot when a `heartbeat` (or an event) shows it missed something, and it
    keeps the table as the frames build it (each `event` frame is given the whole `table`)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.seq = None
        self.table = None
        self.you = None

    async def connect(self, port: int, path: str, cookie: str, origin: str | None = None):
        return await self.open_url(
            f"ws://127.0.0.1:{port}{path}",
            origin=origin or f"http://127.0.0.1:{port}",
            cookie=f"sessionid={cookie}",
        )

    async def on_frame(self, frame: dict) -> None:
        self.table, self.you = follow(self.table, self.you, frame)
        if frame["type"] == "snapshot":
            self.seq = frame["seq"]
        elif frame["type"] == "event":
            if self.seq is not None and frame["seq"] > self.seq + 1:
                await self.send({"type": "snapshot"})
            self.seq = max(self.seq or 0, frame["seq"])
        elif frame["type"] == "heartbeat" and self.seq is not None and frame["seq"] > self.seq:
            await self.send({"type": "snapshot"})


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
