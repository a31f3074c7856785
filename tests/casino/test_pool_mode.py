"""DATABASE_POOL_MODE, DATABASE_REPLICA_URL and DATABASE_DIRECT_URL (casino/settings.py), and
the site's services through a real PgBouncer in transaction mode (docs/decisions.md, Database)."""

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connections

from casino.settings import database_from_url, database_pool_mode
from tests.conftest import service_missing
from tests.pgbouncer import pgbouncer, pgbouncer_path

ROOT = Path(__file__).resolve().parents[2]
PRIMARY = "postgres://casino@pgbouncer:6432/casino"
REPLICA = "postgres://casino@replica:5432/casino"
DIRECT = "postgres://casino@postgres:5432/casino"

SHOW = (
    "from django.conf import settings; import json; print(json.dumps({"
    "'prepared': settings.CASINO_PREPARED_STATEMENTS, 'databases': {alias: "
    "{'cursors_off': conf.get('DISABLE_SERVER_SIDE_CURSORS'), 'host': conf['HOST'], "
    "'mirror': conf['TEST'].get('MIRROR')} for alias, conf in settings.DATABASES.items()}}))"
)


def settings_with(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("DATABASE_") and k != "CASINO_PREPARED_STATEMENTS"
    }
    return subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "casino.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def shown(**env: str) -> dict:
    done = settings_with(**env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_transaction_mode_turns_server_side_cursors_off():
    assert database_from_url(PRIMARY, "transaction")["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert database_from_url(PRIMARY)["DISABLE_SERVER_SIDE_CURSORS"] is False


def test_a_pool_mode_other_than_session_or_transaction_is_refused(monkeypatch):
    monkeypatch.setenv("DATABASE_POOL_MODE", "statement")
    with pytest.raises(ImproperlyConfigured, match="session or transaction, not 'statement'"):
        database_pool_mode()
    monkeypatch.setenv("DATABASE_POOL_MODE", " Transaction ")
    assert database_pool_mode() == "transaction"
    monkeypatch.delenv("DATABASE_POOL_MODE")
    assert database_pool_mode() == "session"


def test_the_site_refuses_to_start_on_a_wrong_pool_mode():
    done = settings_with(DATABASE_URL=PRIMARY, DATABASE_POOL_MODE="sessions")
    assert done.returncode != 0
    assert "DATABASE_POOL_MODE must be session or transaction, not 'sessions'" in done.stderr


def test_behind_a_transaction_pooler_the_replica_too_reads_without_server_cursors():
    """Prepared statements are off unless asked for (PgBouncer 1.21+ keeps them); the replica is
    a test mirror of the primary and sits behind the same pooler; the direct connection keeps
    its server cursors."""
    found = shown(
        DATABASE_URL=PRIMARY,
        DATABASE_POOL_MODE="transaction",
        DATABASE_REPLICA_URL=REPLICA,
        DATABASE_DIRECT_URL=DIRECT,
    )
    assert found["prepared"] is False
    assert found["databases"] == {
        "default": {"cursors_off": True, "host": "pgbouncer", "mirror": None},
        "replica": {"cursors_off": True, "host": "replica", "mirror": "default"},
        "direct": {"cursors_off": False, "host": "postgres", "mirror": "default"},
    }
    asked = shown(
        DATABASE_URL=PRIMARY, DATABASE_POOL_MODE="transaction", CASINO_PREPARED_STATEMENTS="1"
    )
    assert asked["prepared"] is True


def test_without_a_pooler_or_a_replica_nothing_changes():
    found = shown(DATABASE_URL=DIRECT)
    assert found["prepared"] is True
    assert found["databases"] == {
        "default": {"cursors_off": False, "host": "postgres", "mirror": None}
    }


def pooled_play(port: int, name: str, tag: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "casino" / "pooled_play.py"), tag, "4"],
        cwd=ROOT,
        env={
            **clean,
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{port}/{name}",
            "DATABASE_POOL_MODE": "transaction",
            "DJANGO_CONN_MAX_AGE": "60",
        },
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.django_db(transaction=True)
def test_two_processes_play_through_one_pgbouncer_server_connection(postgres):
    """Two processes, one server connection (default_pool_size = 1) shared a transaction at a
    time: hands dealt and played, the chips audited and the chains walked (server-side cursors
    off: each result read whole) through PgBouncer in transaction mode."""
    if pgbouncer_path() is None:
        service_missing("needs pgbouncer (apt-get install -y pgbouncer)")
    name = connections["default"].settings_dict["NAME"]
    with pgbouncer(pool_size=1) as bouncer, ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda tag: pooled_play(bouncer.port, name, tag), ["a", "b"]))
    for result in results:
        assert result["server_side_cursors_disabled"] is True
        assert result["prepared_statements"] is False
        assert result["hands"] == 4
        assert result["chips_ok"], result["chips"]
        assert result["chains_ok"], result["chains"]
        assert "history OK" in result["chains"]
