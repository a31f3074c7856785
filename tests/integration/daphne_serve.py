"""A real Daphne for tests, started the way the product starts it (bin/daphne-serve, the same
flags) on a free port, against the test database, in production settings over plain http."""

import os
import secrets
import socket
import subprocess
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from django.db import connection
from django.test import Client, override_settings

from tests.conftest import service_missing

ROOT = Path(__file__).resolve().parents[2]
# The server runs without DEBUG, which refuses a published key; sessions made here must be signed
# with the server's key (Django checks the session's auth hash with it).
SERVER_SECRET_KEY = secrets.token_urlsafe(50)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def session_cookie(user) -> str:
    """A session for `user` that the server accepts."""
    with override_settings(SECRET_KEY=SERVER_SECRET_KEY):
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value


def database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def server_env(**overrides) -> dict:
    """The environment of a Daphne serving the test database in production settings, relaxed for
    plain http on localhost as in bin/cluster (live_site.LiveServer uses it too)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CASINO_"))}
    env.pop("REDIS_URL", None)
    env.update(
        DATABASE_URL=database_url(),
        DJANGO_SECRET_KEY=SERVER_SECRET_KEY,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_DEBUG="false",
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_SECURE_COOKIES="false",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_LOG_LEVEL="WARNING",
    )
    env.update(overrides)
    return env


@contextmanager
def daphne_serving():
    """Yield the port of a Daphne serving casino.asgi:application; stop it afterwards. Needs the
    test database to be PostgreSQL with committed data (django_db(transaction=True))."""
    if connection.vendor != "postgresql":
        service_missing(
            "needs PostgreSQL: Daphne runs in another process and reads the test database"
        )
    env = server_env(
        CASINO_CLOCK="off"
    )  # embedded mode: the in-memory channel layer is enough here
    port = free_port()
    with tempfile.TemporaryFile("w+") as log:
        server = subprocess.Popen(
            [
                str(ROOT / "bin/daphne-serve"),
                "--bind",
                "127.0.0.1",
                "--port",
                str(port),
                "casino.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_healthy(port, server, log)
            yield port
        finally:
            # Daphne often takes 10 s to stop gracefully (its shutdown hook fails with a KeyError
            # and something then waits out a timeout); a test server need not wait for that.
            server.terminate()
            try:
                server.wait(2)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def wait_healthy(port, server, log):
    direct = urllib.request.build_opener(
        urllib.request.ProxyHandler({})
    )  # never an http_proxy from the env
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with direct.open(f"http://127.0.0.1:{port}/healthz", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if server.poll() is not None:
            break
        time.sleep(0.2)
    log.seek(0)
    raise AssertionError(
        f"daphne on port {port} did not become healthy; its log ends:\n{log.read()[-3000:]}"
    )
