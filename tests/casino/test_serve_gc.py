"""Daphne as the site runs it collects garbage the way a server of thousands of sockets needs
(casino/serve.py `tune_gc`; docs/performance.md): what it loaded at start is frozen
out of collections, and young collections come less often. In a process of its own, as a served
Daphne is (importing Daphne installs its reactor)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

PROBE = """
import gc
from casino import serve
before = gc.get_threshold()
serve.tune_gc()
print(gc.get_freeze_count(), before[0], *gc.get_threshold())
"""


def test_a_served_process_freezes_what_it_loaded_and_collects_the_young_less_often():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    frozen, young_before, young, middle, old = map(int, out.stdout.split())
    assert frozen > 10_000  # the interpreter, Daphne, Twisted: out of every later collection
    assert young_before < young == 20_000  # CPython's own: 700 up to 3.12, 2,000 from 3.13
    assert (middle, old) == (10, 10)  # the older generations keep CPython's pace
