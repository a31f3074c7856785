"""`make run` as a newcomer starts it, run for real on a free port: production settings by default
(DEBUG off, the site's own styled error pages, static files served, a secret key made once and
kept across restarts), Django's debug pages only when asked."""

import http.cookiejar
import os
import re
import signal
import socket
import stat
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Run:
    """`make run` in its own process group, on `port`, with its files under `workdir`."""

    def __init__(self, workdir: Path, *, debug: str | None = None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = workdir / f"run-{self.port}.log"
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DJANGO_", "CASINO_", "REDIS_", "DATABASE_", "MAKE"))
        }
        env.update(
            PORT=str(self.port),
            DATABASE_URL=f"sqlite:///{workdir / 'run.sqlite3'}",
            CASINO_SECRET_KEY_FILE=str(workdir / "secret-key"),
        )
        if debug is not None:
            env["DJANGO_DEBUG"] = debug
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                ["make", "-s", "run"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"make run did not start:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.3)

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


class Browser:
    """A cookie-keeping HTTP client: what a browser sends, without a browser."""

    def __init__(self, base, jar=None):
        self.base = base
        self.jar = jar or http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path):
        try:
            with self.opener.open(self.base + path, timeout=10) as answer:
                return answer.status, answer.read().decode(errors="replace"), answer.headers
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), error.headers

    def sign_in(self, username, password):
        _, page, _ = self.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": token}
        ).encode()
        request = urllib.request.Request(
            self.base + "/accounts/login/", data=form, headers={"Referer": self.base + "/"}
        )
        with self.opener.open(request, timeout=10) as answer:
            assert answer.url.endswith("/lobby/"), answer.url


DEBUG_PAGE = ("URLconf", "Django tried these URL patterns", "DEBUG = True", "Traceback")


def test_make_run_serves_like_production_and_keeps_its_key(tmp_path, artifacts_dir):
    run = Run(tmp_path)
    try:
        player = Browser(run.base)
        player.sign_in("alice", "holdem-demo")  # seed_demo ran, with the same settings
        status, page, headers = player.get("/hands/999999/")  # someone else's, or nobody's
        assert status == 404
        assert not [words for words in DEBUG_PAGE if words in page]
        assert "Page not found" in page and 'href="/static/css/site.css"' in page
        assert 'id="header-wallet"' in page  # the site's header, signed in
        assert "'unsafe-inline'" not in headers["Content-Security-Policy"]
        status, css, _ = player.get("/static/css/site.css")
        assert status == 200 and ".error-page" in css
        status, _, icon = player.get("/favicon.ico")
        assert status == 200 and icon["Content-Type"].startswith("image/")
        assert not [words for words in DEBUG_PAGE if words in Browser(run.base).get("/nope")[1]]
        key_file = tmp_path / "secret-key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        key = key_file.read_text()
        assert len(key.strip()) >= 50 and key.strip() not in run.log.read_text()
        screenshots(run.base, player.jar, artifacts_dir)
    finally:
        run.stop()

    # Started again: the same key, so alice is still signed in.
    again = Run(tmp_path)
    try:
        assert (tmp_path / "secret-key").read_text() == key
        status, page, _ = Browser(again.base, player.jar).get("/accounts/profile/")
        assert status == 200 and "Chip history" in page
    finally:
        again.stop()


def test_debug_only_when_asked(tmp_path):
    run = Run(tmp_path, debug="true")
    try:
        status, page, _ = Browser(run.base).get("/no-such-page/")
        assert status == 404 and "Django tried these URL patterns" in page
        assert "DEBUG is on" in run.log.read_text()
    finally:
        run.stop()


def screenshots(base, jar, artifacts_dir):
    """The 404 page a player meets, at 1280x800 and 360 px wide, in Chromium: styled (the CSP
    lets the site's stylesheet in), with no error in the console."""
    if not Path(CHROMIUM).exists():
        return

    cookies = [{"name": c.name, "value": c.value, "domain": "127.0.0.1", "path": "/"} for c in jar]
    with sync_playwright() as driver:
        chromium = driver.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--headless"]
        )
        try:
            for width, height in ((1280, 800), (360, 780)):
                context = chromium.new_context(viewport={"width": width, "height": height})
                context.add_cookies(cookies)
                page = context.new_page()
                problems = []
                page.on(
                    "console",
                    lambda m, seen=problems: seen.append(m.text) if m.type == "error" else 0,
                )
                page.goto(base + "/hands/999999/")
                page.wait_for_timeout(500)
                colour = page.eval_on_selector(".error-code", "e => getComputedStyle(e).color")
                assert colour == "rgb(232, 182, 76)"  # the site's gold: its stylesheet applied
                # One 404 in the console is the page itself; nothing else may be refused.
                assert [p for p in problems if "404" not in p] == []
                page.screenshot(path=str(artifacts_dir / f"error-404-{width}.png"), full_page=True)
                context.close()
        finally:
            chromium.close()


@pytest.fixture
def artifacts_dir():
    path = ROOT / "artifacts"
    path.mkdir(exist_ok=True)
    return path
