"""The transaction floor's database (bench/floor.py --transaction): what the issue keeps for
every table action, and nothing else. `prepare` makes the database and its tables for a run
(bench/floor.py); `commit_act` is one action's transaction, run by the floor's server
(bench/floor_app.py) on its database thread: lock the table's row, write its new state and
sequence number, append the action's line, commit. Raw psycopg with statements prepared once:
no ORM, no engine, no seats, no private parts.
"""

import threading

import psycopg

DATABASE = "casino_floor"
STATE = "s" * 1500  # about the size of a hand's saved state (Table.hand_state) mid-hand
SCHEMA = """
CREATE TABLE IF NOT EXISTS floor_table (name text PRIMARY KEY, seq integer NOT NULL, state text);
CREATE TABLE IF NOT EXISTS floor_action (
    id bigserial PRIMARY KEY, table_name text NOT NULL, seq integer NOT NULL,
    seat integer, action text NOT NULL, at timestamptz NOT NULL DEFAULT now());
TRUNCATE floor_table, floor_action;
"""
_local = threading.local()


def prepare(server_url: str, tables: list[str]) -> str:
    """The floor's database on the PostgreSQL of `server_url` (made on first use), emptied,
    with a row for each of `tables`. Returns its URL."""
    base = server_url.rsplit("/", 1)[0]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        found = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE])
        if not found.fetchone():
            admin.execute(f"CREATE DATABASE {DATABASE}")
    url = f"{base}/{DATABASE}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(SCHEMA)
        with db.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO floor_table (name, seq, state) VALUES (%s, 0, %s)",
                [(name, STATE) for name in tables],
            )
    return url


def commit_act(url: str, table: str, seat, action: str) -> int:
    """One action's transaction; returns the table's new seq. One connection per thread."""
    db = getattr(_local, "db", None)
    if db is None:
        db = _local.db = psycopg.connect(url, prepare_threshold=0)
    with db.transaction():
        seq, state = db.execute(
            "SELECT seq, state FROM floor_table WHERE name = %s FOR UPDATE", [table]
        ).fetchone()
        seq += 1
        db.execute(
            "UPDATE floor_table SET seq = %s, state = %s WHERE name = %s", [seq, state, table]
        )
        db.execute(
            "INSERT INTO floor_action (table_name, seq, seat, action) VALUES (%s, %s, %s, %s)",
            [table, seq, seat, action],
        )
    return seq
