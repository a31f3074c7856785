"""CPU and memory of groups of processes over a measured window, from /proc (Linux only).

Used by bench/load.py and bench/floor.py. A window samples every process of its groups once a
second: a process that ends inside the window (a PostgreSQL connection recycled after
CONN_MAX_AGE, a Celery pool process) still counts up to its last sample, and one born inside it
counts from zero. CPU is a process's own user + system time (all its threads); children are
groups' members of their own, never counted through their parent's cutime (the postmaster's
would hold every other user's finished backends).
"""

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024

# PostgreSQL's own processes, shared by every database of the server (their title after
# "postgres: <cluster>: "); the postmaster is the one whose command line is the binary.
POSTGRES_SHARED = (
    "checkpointer",
    "background writer",
    "walwriter",
    "autovacuum launcher",
    "logical replication launcher",
    "archiver",
    "stats collector",
)


@dataclass
class Stat:
    name: str
    parent: int
    cpu: float  # seconds, user + system, all threads
    rss_kb: int
    started: int  # clock ticks after boot


def read_stat(pid: int) -> Stat | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
        statm = Path(f"/proc/{pid}/statm").read_text().split()
    except OSError:
        return None
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return Stat(name, int(fields[1]), cpu, int(statm[1]) * PAGE_KB, int(fields[19]))


def all_stats() -> dict[int, Stat]:
    return {
        int(p.name): s
        for p in Path("/proc").iterdir()
        if p.name.isdigit()
        if (s := read_stat(int(p.name)))
    }


def command_line(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def tree(stats: dict[int, Stat], root: int) -> list[int]:
    """`root` and all its descendants alive now."""
    children: dict[int, list[int]] = {}
    for pid, stat in stats.items():
        children.setdefault(stat.parent, []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            found.append(pid)
            todo.extend(children.get(pid, ()))
    return found


def redis_pids(stats: dict[int, Stat]) -> list[int]:
    """Every redis-server of the machine and its forks (BGSAVE): shared with anyone else using it."""
    roots = [pid for pid, s in stats.items() if s.name == "redis-server"]
    return sorted({pid for root in roots for pid in tree(stats, root)})


def postgres_pids(stats: dict[int, Stat], database: str) -> tuple[list[int], list[int]]:
    """(the backends connected to `database`, autovacuum workers on it included; PostgreSQL's
    shared processes: the postmaster, checkpointer, WAL writer, background writer, launchers).
    Backends of other databases (other users of the server) are in neither."""
    backends, shared = [], []
    for pid, stat in stats.items():
        if stat.name != "postgres":
            continue
        parent = stats.get(stat.parent)
        if parent is None or parent.name != "postgres":
            shared.append(pid)  # the postmaster
            continue
        line = command_line(pid)
        if not line.startswith("postgres:"):
            continue  # just forked, not named yet: the next sample tells what it is
        title = line.split(":", 2)[-1].strip()
        if title.startswith(POSTGRES_SHARED):
            shared.append(pid)
        elif database in title.split():
            backends.append(pid)
    return backends, shared


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far: other users of it show here."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return (sum(values) - idle) / CLOCK_TICKS, sum(values) / CLOCK_TICKS


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as /proc/loadavg has them."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def ticks_since_boot() -> int:
    return int(float(Path("/proc/uptime").read_text().split()[0]) * CLOCK_TICKS)


@dataclass
class Usage:
    cpu: float = 0.0  # seconds used inside the window
    rss_kb: int = 0  # resident memory at the end (processes alive then)
    processes: int = 0  # processes seen during the window


@dataclass
class Window:
    elapsed: float
    groups: dict[str, Usage]
    machine_percent: float  # of one core, everything on the machine
    cores: int
    load_before: str
    load_after: str
    samples: int = 0
    notes: list = field(default_factory=list)

    def cpu(self, *names: str) -> float:
        return sum(self.groups[n].cpu for n in names if n in self.groups)


class CpuWindow:
    """Measures from start() to stop(), sampling every `every` seconds in a thread.
    `classify(stats)` names the groups and their processes at each sample."""

    def __init__(self, classify: Callable[[dict[int, Stat]], dict[str, list[int]]], every=1.0):
        self.classify = classify
        self.every = every
        self.base: dict[int, float] = {}  # CPU at the start, or 0 for processes born after it
        self.last: dict[int, tuple[str, float, int]] = {}  # (group, CPU, rss) at the last sample
        self.alive: set[int] = set()
        self.samples = 0
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    def scan(self, first: bool = False) -> None:
        stats = all_stats()
        groups = self.classify(stats)
        with self.lock:
            self.alive = set()
            for group, pids in groups.items():
                for pid in pids:
                    stat = stats.get(pid)
                    if stat is None:
                        continue
                    if pid not in self.base:
                        born_inside = not first and stat.started >= self.started_ticks
                        # Alive before the window but first seen now: count from now on.
                        self.base[pid] = 0.0 if born_inside else stat.cpu
                    self.last[pid] = (group, stat.cpu, stat.rss_kb)
                    self.alive.add(pid)
            self.samples += 1

    def run(self) -> None:
        while not self.stopping.wait(self.every):
            self.scan()

    def start(self) -> "CpuWindow":
        self.started_ticks = ticks_since_boot()
        self.load_before = load_average()
        self.machine_before = machine_busy()
        self.started = time.monotonic()
        self.scan(first=True)
        self.thread = threading.Thread(target=self.run, name="cpu-window", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> Window:
        self.stopping.set()
        self.thread.join()
        self.scan()
        elapsed = time.monotonic() - self.started
        busy = machine_busy()[0] - self.machine_before[0]
        groups: dict[str, Usage] = {}
        with self.lock:
            for pid, (group, cpu, rss) in self.last.items():
                usage = groups.setdefault(group, Usage())
                usage.cpu += max(0.0, cpu - self.base.get(pid, cpu))
                usage.processes += 1
                if pid in self.alive:
                    usage.rss_kb += rss
        return Window(
            elapsed=elapsed,
            groups=groups,
            machine_percent=busy / elapsed * 100,
            cores=os.cpu_count() or 1,
            load_before=self.load_before,
            load_after=load_average(),
            samples=self.samples,
        )


def measure_window(classify, measure_at: float, end_at: float):
    """Wait for the measured window (monotonic times), read every process's CPU over it."""
    time.sleep(max(0.0, measure_at - time.monotonic()))
    window = CpuWindow(classify).start()
    time.sleep(max(0.0, end_at - time.monotonic()))
    return window.stop()


def bot_results(workers, log_of: Callable[[int], Path], who: str) -> list[dict]:
    """The last JSON line each bot process printed; a process that failed stops the run with the
    tail of its log."""
    results = []
    for i, worker in enumerate(workers):
        out = worker.stdout.read()
        worker.wait(timeout=60)
        if worker.returncode != 0 or not out.strip():
            tail = log_of(i).read_text()[-2000:]
            raise SystemExit(f"{who}: bot process {i} failed:\n{tail}")
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results
