"""A PgBouncer of our own, in front of the local PostgreSQL, for a test or a benchmark: started on
a free port with a temporary configuration, stopped when the block ends. Shared by
tests/casino/test_pool_mode.py and bench/pool_cost.py.

Debian's package (`apt-get install -y pgbouncer`) is 1.18 on bookworm: no prepared statements in
transaction mode (those need 1.21 and `max_prepared_statements`), and no `options` startup
parameter (1.20), so the site's lock timeout is set by the pooler's `connect_query` here.
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg


def pgbouncer_path() -> str | None:
    found = shutil.which("pgbouncer")
    if found:
        return found
    debian = Path("/usr/sbin/pgbouncer")
    return str(debian) if debian.exists() else None


def pgbouncer_version() -> tuple[int, int]:
    path = pgbouncer_path()
    if path is None:
        return (0, 0)
    first = subprocess.run([path, "--version"], capture_output=True, text=True).stdout.split()
    major, minor = first[1].split(".")[:2]  # "PgBouncer 1.18.0"
    return int(major), int(minor)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Bouncer:
    port: int
    pid: int  # its one process (not daemonized): its CPU is part of what a query costs


@contextmanager
def pgbouncer(
    *,
    server: str = "host=127.0.0.1 port=5432",
    pool_mode: str = "transaction",
    pool_size: int = 4,
    lock_timeout_ms: int = 3000,
    max_prepared_statements: int | None = None,
) -> Iterator[Bouncer]:
    """Run PgBouncer in front of `server` (every database name, user postgres, trust) and yield
    where it listens. `max_prepared_statements`: only for PgBouncer 1.21 or later."""
    path = pgbouncer_path()
    if path is None:
        raise RuntimeError("pgbouncer is not installed (apt-get install -y pgbouncer)")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="casino-pgbouncer-") as temp:
        folder = Path(temp)
        folder.chmod(0o755)  # read by the user it switches to when started as root
        (folder / "userlist.txt").write_text('"postgres" ""\n')
        extra = ""
        if max_prepared_statements is not None:
            extra += f"max_prepared_statements = {max_prepared_statements}\n"
        (folder / "pgbouncer.ini").write_text(
            "[databases]\n"
            f"* = {server} connect_query='SET lock_timeout = {lock_timeout_ms}'\n"
            "[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {folder / 'userlist.txt'}\n"
            f"pool_mode = {pool_mode}\ndefault_pool_size = {pool_size}\n"
            "max_client_conn = 500\nignore_startup_parameters = options\n"
            "server_reset_query =\nlog_connections = 0\nlog_disconnections = 0\n" + extra
        )
        for name in ("userlist.txt", "pgbouncer.ini"):
            (folder / name).chmod(0o644)
        command = [path]
        if os.geteuid() == 0:  # PgBouncer refuses to run as root
            command += ["-u", "nobody"]
        log = (folder / "pgbouncer.log").open("w")
        process = subprocess.Popen(
            [*command, str(folder / "pgbouncer.ini")], stderr=log, stdout=log
        )
        try:
            _wait_for(port, process, folder / "pgbouncer.log")
            yield Bouncer(port, process.pid)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()


def _wait_for(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 15
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"pgbouncer exited: {log.read_text()[-2000:]}")
        try:
            with psycopg.connect(
                f"host=127.0.0.1 port={port} dbname=postgres user=postgres", connect_timeout=2
            ) as probe:
                probe.execute("SELECT 1")
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
