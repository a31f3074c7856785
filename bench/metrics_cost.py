"""What the site's counting costs (casino/metrics.py), per call, on this machine: a broadcast frame
reaching a socket (once per socket and frame), a commit's stamp, an action timed, a socket opened
and closed, and rendering one process's own figures for a scrape. Prints figures, asserts nothing.

    .venv/bin/python bench/metrics_cost.py
"""

import os
import sys
import time
import timeit
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-0123456789abcdef0123456789abcdef0123456789")

# The site's modules need the settings loaded: imported after setup, as bench/chaos.py's are.
django.setup()

from prometheus_client import generate_latest  # noqa: E402

from casino import metrics  # noqa: E402

CALLS = 200_000


class FakeSocket:
    scope = {"path": "/ws/table/3/"}


def applied(**kwargs):
    return {"repeated": False}


def per_call_us(function, calls: int = CALLS) -> float:
    return timeit.timeit(function, number=calls) / calls * 1e6


def main() -> None:
    message = {"type": "table.message", "text": "{}", "committed_at": time.time()}
    messages = [("table.1", {}), ("table.1.user.1", {}), ("table.1.user.2", {})]
    socket = FakeSocket()
    figures = {
        "frame_delivered_us": per_call_us(lambda: metrics.frame_delivered(message)),
        "commit_stamp_3_messages_us": per_call_us(lambda: metrics.commit_stamp(messages)),
        "act_timed_us": per_call_us(lambda: metrics.act_timed(applied)()),
        "socket_open_close_us": per_call_us(
            lambda: (metrics.socket_opened(socket), metrics.socket_closed(socket))
        ),
        "render_own_figures_ms": per_call_us(lambda: generate_latest(metrics.REGISTRY), 500) / 1e3,
    }
    print("metrics_cost: " + " ".join(f"{name}={value:.2f}" for name, value in figures.items()))


if __name__ == "__main__":
    main()
