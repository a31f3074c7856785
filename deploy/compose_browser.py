"""A person's browser for deploy/compose_e2e.py: pages and forms over HTTP with cookies and CSRF,
and a table's websocket as the site's client holds it (frames applied with holdem.realtime.delta)."""

import base64
import hashlib
import hmac
import http.cookiejar
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root
from deploy.compose_stack import Failure, check
from holdem.realtime.delta import client_view  # pure: what a client holds after each frame
from tests.socket_client import ListeningSocket  # no Django either


class Browser:
    """One person's browser: a cookie jar, forms with their CSRF token, the Origin it sends."""

    def __init__(self, base_url: str, name: str):
        self.base_url = base_url
        self.name = name
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.opener.addheaders = [("User-Agent", "compose-e2e (a browser's requests)")]

    def get(self, path: str) -> tuple[int, str, str]:
        try:
            with self.opener.open(self.base_url + path, timeout=20) as response:
                return response.status, response.read().decode(), response.url
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), path

    def headers_of(self, path: str) -> tuple[int, dict[str, str]]:
        with self.opener.open(self.base_url + path, timeout=20) as response:
            response.read()
            return response.status, dict(response.headers)

    def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        status, page, _ = self.get(path)
        check(status == 200, f"{self.name}: GET {path} answered {status}")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        check(token is not None, f"{self.name}: no CSRF token in the form at {path}")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), **fields}).encode()
        request = urllib.request.Request(
            self.base_url + path,
            data=body,
            headers={
                "Origin": self.base_url,
                "Referer": self.base_url + path,
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, response.read().decode(), response.url
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), path

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.cookies if c.name == name), None)

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.cookies)

    def sign_up(self, username: str, password: str) -> None:
        status, _, landed = self.post_form(
            "/accounts/signup/",
            {
                "username": username,
                "email": f"{username}@example.com",
                "password1": password,
                "password2": password,
            },
        )
        check(
            status == 200 and landed.endswith("/lobby/"),
            f"{username}: sign-up ended at {landed} ({status})",
        )
        check(self.cookie("sessionid"), f"{username}: no session cookie after signing up")


# --- a websocket tab ---------------------------------------------------------------------------


class Tab(ListeningSocket):
    """A websocket as static/js/table-app.js keeps one: reads every frame, applies each event's
    changes to the table it holds, follows the table's seq and asks for a snapshot on a gap or a
    heartbeat ahead of it."""

    timeout = 15
    failure = Failure

    def __init__(self, name: str):
        super().__init__(name)
        self.seq: int | None = None
        self.table: dict | None = None

    async def open(self, browser: Browser, path: str) -> "Tab":
        return await self.open_url(
            browser.base_url.replace("http://", "ws://", 1) + path,
            origin=browser.base_url,
            cookie=browser.cookie_header(),
            user_agent_header="compose-e2e (a browser's websocket)",
            open_timeout=20,
        )

    async def on_frame(self, frame: dict) -> None:
        kind = frame["type"]
        in_order = self.seq is not None and frame.get("seq") == self.seq + 1
        if kind == "snapshot" or (kind == "event" and in_order):
            self.seq = frame["seq"]
            self.table, _ = client_view(self.table, None, frame)
        elif kind == "event" and self.seq is not None and frame["seq"] > self.seq + 1:
            # A gap: the changes need what was missed.
            await self.send({"type": "snapshot"})
        elif kind == "spectators":
            self.table, _ = client_view(self.table, None, frame)
        elif kind == "heartbeat" and self.seq is not None and frame["seq"] > self.seq:
            await self.send({"type": "snapshot"})


def totp_code(secret_base32: str, at: float) -> str:
    """The code an authenticator app shows (RFC 6238: SHA-1, 30 s steps, 6 digits)."""
    counter = int(at // 30).to_bytes(8, "big")
    digest = hmac.new(base64.b32decode(secret_base32), counter, hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    code = (int.from_bytes(digest[offset : offset + 4], "big") & 0x7FFFFFFF) % 1_000_000
    return f"{code:06d}"


def is_event(kind: str):
    return lambda frame: frame["type"] == "event" and frame["event"]["kind"] == kind
