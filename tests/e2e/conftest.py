"""The e2e fixtures: a real Daphne server on a fresh SQLite file, and Debian's Chromium driven by
Playwright. One server and one browser for the whole run; each test gets its own rooms and
players (made once, below), so tests never share a seat."""

import functools
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.conftest import service_missing

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PASSWORD = "e2e-pass-4711"
DEMO_PASSWORD = "holdem-demo"  # seed_demo's players: alice, bob, carol, dave

# Rooms the tests play in: short countdowns so a hand starts ~2 s after the second player sits.
QUICK = {"countdown_seconds": 2, "countdown_full_seconds": 1, "turn_seconds": 20}
ROOMS = {
    "showdown": {"preset": "nl50", "seats": 6, **QUICK},
    # Three players must all be dealt in: on a loaded machine the third took more than 4 s to sit
    # down after the second, and the hand started heads-up without them.
    "fold": {"preset": "nl50", "seats": 6, **QUICK, "countdown_seconds": 10},
    "all_in": {"preset": "nl50", "seats": 6, **QUICK},
    "raise": {"preset": "nl50", "seats": 9, **QUICK},
    "capped": {"preset": "fl20", "seats": 10, **QUICK},
    "switch_a": {"preset": "pl50", "seats": 6, **QUICK, "countdown_seconds": 6},
    "switch_b": {"preset": "nl50", "seats": 6, **QUICK},
    "reload": {"preset": "classic", "seats": 6, **QUICK},
    "lobby": {"preset": "nl50", "seats": 4, "countdown_seconds": 30},
    "seating": {"preset": "nl50", "seats": 6, **QUICK},
    "alerts": {"preset": "nl50", "seats": 6, **QUICK},
    # No maximum buy-in and fixed blinds (10/20): the buy-in form proposes the whole balance.
    "buy_in": {"preset": "fl20", "seats": 6, "countdown_seconds": 30},
    "rebuy": {"preset": "nl50", "seats": 6, **QUICK},
    "topup": {"preset": "nl50", "seats": 6, "countdown_seconds": 30},
    "preact": {"preset": "nl50", "seats": 6, **QUICK},
    # The sit-out boxes and auto top-up (tests/e2e/test_table_sit_out_next.py).
    "sitout": {"preset": "nl50", "seats": 6, **QUICK, "countdown_seconds": 4},
    "autotopup": {"preset": "nl50", "seats": 6, **QUICK},
    # The shortest turn clock and a short time bank (tests/e2e/test_table_regular.py).
    "bank": {"preset": "nl50", "seats": 6, **QUICK, "turn_seconds": 5, "time_bank_seconds": 3},
    # Ten seats, dealt as soon as the last one is taken; turns long enough for a bot to hold one
    # while the test looks at the table (tests/e2e/test_table_layout.py).
    "layout": {"preset": "nl50", "seats": 10, **QUICK, "countdown_seconds": 60, "turn_seconds": 60},
    # Heads-up from a stacked deck (STACKED_DECKS), turns long enough to run axe on each state
    # (tests/e2e/test_accessibility.py) or to act by keyboard alone (test_keyboard_hand.py).
    "a11y": {"preset": "nl50", "seats": 6, **QUICK, "turn_seconds": 90},
    "a11y_keys": {"preset": "nl50", "seats": 6, **QUICK, "turn_seconds": 90},
}
PLAYERS = [f"e2e{n:02d}" for n in range(1, 21)]

# How long a page may take to show what the server did, on a machine as loaded as the suite's.
LOADED_MACHINE_WAIT_MS = 15_000

# Rooms dealt from a stacked deck (tests/e2e/stacked_serve.py), by name. Three players: the one
# left of the button gets aces (cards 0 and 3), the others nothing the board helps; checked
# down, the aces are shown first and beat both others, who are then offered Show or Muck.
STACKED_DECKS = {
    "E2E Rules Muck": [
        "As",
        "7c",
        "8h",
        "Ad",
        "2d",
        "3s",
        "Jc",
        "Ks",
        "Qd",
        "9c",
        "Jd",
        "5h",
        "Jh",
        "Tc",
    ],
}
# Heads-up, the big blind is dealt first (cards 0 and 2: aces), the button cards 1 and 3
# (seven-eight); burn, flop, burn, turn, burn, river. Checked down, the big blind shows first and
# wins; the button, beaten by a hand already shown, is offered Show or Muck.
HEADS_UP_ACES = ["As", "7c", "Ad", "8h", "2d", "3s", "Jc", "Ks", "Qd", "9c", "Jd", "5h"]
STACKED_DECKS |= {"E2E A11Y": HEADS_UP_ACES, "E2E A11Y Keys": HEADS_UP_ACES}

# Run by `manage.py shell -c` with E2E_SETUP={"rooms": ..., "players": ..., "password": ...}.
SETUP = """
import json, os
from django.contrib.auth.hashers import make_password
from casino.accounts.models import User
from casino.accounts.services import account_open
from holdem.services import room_create
setup = json.loads(os.environ["E2E_SETUP"])
rooms = {key: room_create(name="E2E " + key.replace("_", " ").title(), **options).pk
         for key, options in setup["rooms"].items()}
hashed = make_password(setup["password"])  # hashed once: the hasher is slow on purpose
for name in setup["players"]:
    account_open(user=User.objects.create(username=name, password=hashed))
print("ROOMS=" + json.dumps(rooms))
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _manage(env, *args, timeout=120):
    done = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"manage.py {args[0]} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="session")
def chromium_ready():
    if not Path(CHROMIUM).exists():
        service_missing(f"needs Debian's chromium at {CHROMIUM} (apt-get install -y chromium)")
    return CHROMIUM


@pytest.fixture(scope="session")
def site(chromium_ready):
    """A real Daphne serving the site in embedded mode (in-memory layer, in-process clock)."""
    workdir = Path(tempfile.mkdtemp(prefix="casino-e2e-"))
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(
        {
            "DATABASE_URL": f"sqlite:///{workdir / 'e2e.sqlite3'}",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "CASINO_CLOCK": "on",
            "DJANGO_SETTINGS_MODULE": "casino.settings",
            "PYTHONUNBUFFERED": "1",
            "E2E_DECKS": json.dumps(STACKED_DECKS),
            # A session reminder's minute is a second here (tests/e2e/test_responsible_play.py).
            "CASINO_REMINDER_MINUTE_SECONDS": "1",
        }
    )
    _manage(env, "migrate", "--no-input")
    _manage(env, "seed_demo")
    out = _manage(
        {
            **env,
            "E2E_SETUP": json.dumps({"rooms": ROOMS, "players": PLAYERS, "password": PASSWORD}),
        },
        "shell",
        "-c",
        SETUP,
    )
    rooms = json.loads(next(line for line in out.splitlines() if line.startswith("ROOMS="))[6:])

    port = _free_port()
    log = open(workdir / "daphne.log", "w")  # noqa: SIM115 (the server writes it until teardown)
    server = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/python"),
            "-m",
            "tests.e2e.stacked_serve",  # Daphne, with the stacked decks of STACKED_DECKS
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "casino.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/", timeout=2) as answer:
                if answer.status == 200:
                    break
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            pytest.fail(f"daphne did not start: {(workdir / 'daphne.log').read_text()[-3000:]}")
        time.sleep(0.2)
    try:
        # site["manage"](...) runs manage.py against the served database (e.g. totp_enrol admin).
        manage = functools.partial(_manage, env)
        yield {"base": base, "rooms": rooms, "log": workdir / "daphne.log", "manage": manage}
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        # Kept for whoever reads a failed run (CI included): the server's side of every test.
        ARTIFACTS.mkdir(exist_ok=True)
        shutil.copy(workdir / "daphne.log", ARTIFACTS / "e2e-daphne.log")
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(chromium_ready):
    """One Chromium per test module. Playwright's sync API runs an event loop in this thread
    while it is started; stopping it at the end of the module frees the thread for the tests
    (asyncio.run) that a pytest-xdist worker runs after the browser tests."""
    # On a slow or loaded machine a page takes seconds to show what the server did: an assertion
    # about the page waits as long as an action does (the contexts' timeout below), not
    # Playwright's default 5 s.
    expect.set_options(timeout=LOADED_MACHINE_WAIT_MS)
    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=chromium_ready, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def sign_in(site, browser):
    """sign_in("alice") -> a signed-in page in its own browser context (its own cookies)."""
    contexts = []

    def open_as(username, *, phone=False):
        viewport = {"width": 360, "height": 780} if phone else {"width": 1280, "height": 900}
        # Reduced motion: the to-act glow (a blurred box-shadow, redrawn every frame) would keep
        # a core busy for every open page, and some tests open eight.
        context = browser.new_context(
            viewport=viewport, device_scale_factor=2 if phone else 1, reduced_motion="reduce"
        )
        context.set_default_timeout(LOADED_MACHINE_WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.goto(site["base"] + "/accounts/login/")
        page.fill("#id_username", username)
        page.fill(
            "#id_password",
            DEMO_PASSWORD if username in {"alice", "bob", "carol", "dave"} else PASSWORD,
        )
        page.click("form button[type=submit]")
        page.wait_for_url("**/lobby/")
        return page

    yield open_as
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
