"""Shared test fixtures: real services when present; on CI a missing service is a failure."""

import gc
import os
import threading

import pytest
from django.core.cache import cache
from django.db.backends.base.base import BaseDatabaseWrapper
from django.urls import reverse
from django_otp.oath import totp

from casino.accounts.second_factor import second_factor_required, totp_device_enrol

ON_CI = os.environ.get("CI", "").lower() == "true"


def service_missing(reason: str):
    if ON_CI:
        pytest.fail(f"{reason} (CI=true: services must be running)")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def no_embedded_clock(settings):
    """Tests drive the clock themselves (deadlines_fire_due with a chosen `now`)."""
    settings.CASINO_CLOCK = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    # The lobby's pages are read anew each time (tests/lobby/test_room_pages.py turns it on):
    # a test reads the list again right after changing it.
    settings.CASINO_LOBBY_CACHE_SECONDS = 0
    cache.clear()


@pytest.fixture
def postgres(settings):
    """Skip (or fail on CI) unless the test database is PostgreSQL."""
    from django.db import connection

    if connection.vendor != "postgresql":
        service_missing(
            "needs PostgreSQL: set DATABASE_URL or run make test with PostgreSQL on 127.0.0.1:5432"
        )
    return connection


def worker_redis_url(url: str) -> str:
    """Each pytest-xdist worker (gw0, gw1, ...) gets a Redis database of its own, counting down
    from the one given (13, 12, 11, ...): tests flush theirs and must not flush a neighbour's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    base, _, db = url.rpartition("/")
    number = int(db) if db.isdigit() else 0
    return f"{base}/{number - index}" if index and number - index >= 0 else url


@pytest.fixture
def redis_url():
    url = os.environ.get("CASINO_TEST_REDIS_URL")
    if url:
        url = worker_redis_url(url)
    if not url:
        service_missing(
            "needs Redis: CASINO_TEST_REDIS_URL is unset (make test sets it when Redis answers)"
        )
    import redis

    try:
        redis.Redis.from_url(url).ping()
    except redis.RedisError as error:
        service_missing(f"Redis at {url} does not answer: {error}")
    return url


@pytest.fixture
def make_player(db):
    """A signed-up player with the starting grant, through the real service."""
    from casino.accounts.services import account_create

    counter = {"n": 0}

    def make(username=None, password="pw-for-tests-123"):
        counter["n"] += 1
        return account_create(username=username or f"player{counter['n']}", password=password)

    return make


def pytest_collection_modifyitems(config, items):
    """The longest chains first, so that the workers share out the rest around them: the browser
    tests (one worker takes them all: one site, one Chromium per module, about four minutes of
    clicking and waiting), then the long runs (500 hands in four). The browser fixture stops
    Playwright, and the event loop it runs in this thread, after each module, so tests that call
    asyncio.run() may come after it."""
    items.sort(
        key=lambda item: ("/tests/e2e/" not in str(item.fspath), "test_long_run" not in item.nodeid)
    )
    for item in items:
        if "/tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.xdist_group("browser"))


# Admin sign-in: the password session, then the code for chip adjusters (casino/accounts/second_factor.py).
def current_code(device) -> str:
    """The code an authenticator app loaded with this device's secret shows now."""
    return f"{totp(device.bin_key, step=device.step, t0=device.t0, digits=device.digits):0{device.digits}d}"


@pytest.fixture
def admin_sign_in(client):
    """admin_sign_in(user) -> the client signed in to the admin as that user. A chip adjuster
    (superusers included) gets a fresh device and passes the admin's code page with its code."""

    def sign_in(user):
        client.force_login(user)
        if second_factor_required(user):
            device = totp_device_enrol(user=user)
            response = client.post(reverse("admin:second_factor"), {"token": current_code(device)})
            assert response.status_code == 302, response.content.decode()[:2000]
        return client

    return sign_in


@pytest.fixture
def admin_client(admin_sign_in, make_player):
    """A Django test client signed in to the admin as a superuser ("root"), past the second
    factor (in place of pytest-django's fixture of that name, which knows no second factor)."""
    admin = make_player("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    return admin_sign_in(admin)


# `slow`: everything under tests/integration and tests/e2e (real servers, workers, a browser).
# Added as each test is collected, so `-m "not slow"` (make test-fast) deselects them.
SLOW_DIRS = tuple(
    os.path.join(os.path.dirname(__file__), name) + os.sep for name in ("integration", "e2e")
)


def pytest_itemcollected(item):
    if str(item.path).startswith(SLOW_DIRS):
        item.add_marker(pytest.mark.slow)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    """Before the last test's teardown drops the test databases: close the connections other
    threads left open (PostgreSQL will not drop a database with sessions on it). A websocket
    test runs the site's application in an event loop of its own (`async_to_sync`); its
    consumers' database calls run in that loop's worker threads, which end with the loop (or
    are about to) and keep their connection (CONN_MAX_AGE: persistent, as in production, where
    those threads live as long as the server). Nothing runs in them any more."""
    if nextitem is not None:
        return
    here = threading.get_ident()
    for wrapper in gc.get_objects():
        if (
            issubclass(type(wrapper), BaseDatabaseWrapper)  # type(): a dead weak proxy raises
            and wrapper.connection is not None
            and wrapper._thread_ident != here
        ):
            wrapper.connection.close()  # not wrapper.close(): that one is for its own thread
            wrapper.connection = None
