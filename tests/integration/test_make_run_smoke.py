"""The steps of `make run` work on a fresh SQLite database, twice in a row, and the site answers."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(env, *args):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_migrate_and_seed_demo_twice_then_home_page_answers(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    env["CASINO_CLOCK"] = "off"
    for _ in range(2):
        migrated = manage(env, "migrate", "--no-input")
        assert migrated.returncode == 0, migrated.stderr
        seeded = manage(env, "seed_demo")
        assert seeded.returncode == 0, seeded.stderr
        assert "demo ready" in seeded.stdout
    audit = manage(env, "audit_chips")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    probe = subprocess.run(
        [sys.executable, "-c", ASGI_PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split() == ["200", "200"], probe.stdout


# Calls the real ASGI application (what Daphne serves) for the home page and a static file.
ASGI_PROBE = """
import asyncio, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
from casino.asgi import application

async def get(path):
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"host", b"127.0.0.1")], "scheme": "http", "server": ("127.0.0.1", 8000),
             "client": ("127.0.0.1", 5000), "http_version": "1.1", "asgi": {"version": "3.0"}, "root_path": ""}
    requested, sent = [], []
    async def receive():
        if not requested:
            requested.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client never disconnects early
    async def send(message):
        sent.append(message)
    await application(scope, receive, send)
    return sent[0]["status"]

async def main():
    print(await get("/"), await get("/static/css/site.css"))
asyncio.run(main())
"""
