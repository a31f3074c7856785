"""Production settings: Content Security Policy, JSON logs, and `check --deploy` with real values."""

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.views.defaults import page_not_found, permission_denied, server_error

from casino.logging import JsonFormatter

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_with_no_inline_code(client):
    response = client.get("/")
    policy = dict(
        ([*part.split(" ", 1), ""])[:2]
        for part in (p.strip() for p in response["Content-Security-Policy"].split(";"))
    )
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert policy["frame-ancestors"] == "'none'"
    assert policy["connect-src"] == "'self' ws://testserver wss://testserver"


@pytest.mark.django_db
def test_over_https_websockets_may_only_use_wss(client, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    response = client.get("/", headers={"X-Forwarded-Proto": "https"})
    assert "connect-src 'self' wss://testserver" in response["Content-Security-Policy"]
    assert "ws://" not in response["Content-Security-Policy"]


INLINE_CODE = re.compile(
    r"""<style|\sstyle\s*=|\son[a-z]+\s*=|javascript:|<script(?![^>]*\bsrc=)(?![^>]*application/json)""",
    re.I,
)


def test_the_templates_hold_no_inline_script_style_or_handler():
    """The policy forbids inline code; a template that used some would break in the browser."""
    offenders = [
        f"{template.relative_to(ROOT)}: {match.group(0)!r}"
        for template in sorted((ROOT / "templates").rglob("*.html"))
        for match in INLINE_CODE.finditer(template.read_text())
    ]
    assert offenders == []


def test_json_log_lines_are_one_object_each_with_extra_fields_and_exceptions():
    formatter = JsonFormatter()
    record = logging.LogRecord(
        "holdem.tables", logging.WARNING, __file__, 1, "table %s is %s", (7, "slow"), None
    )
    record.table_id = 7
    line = json.loads(formatter.format(record))
    assert line["level"] == "WARNING" and line["logger"] == "holdem.tables"
    assert line["message"] == "table 7 is slow" and line["table_id"] == 7
    assert line["time"].endswith("+00:00")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        record = logging.LogRecord(
            "x", logging.ERROR, __file__, 1, "failed\nacross lines", None, sys.exc_info()
        )
    text = formatter.format(record)
    assert "\n" not in text  # one line per record, whatever the message holds
    assert "RuntimeError: boom" in json.loads(text)["exception"]


def production_env(**extra):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_SETTINGS_MODULE", "REDIS_URL", "DATABASE_URL"}
    }
    env.update(
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="k" * 20 + "a-long-random-production-secret-for-the-check-9f3c1",
        DJANGO_ALLOWED_HOSTS="poker.example.com",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://poker.example.com",
        DJANGO_LOG_FORMAT="",
        **extra,
    )
    return env


def test_check_deploy_is_clean_with_production_values_and_logs_are_json():
    script = (
        "import django, logging; django.setup(); from django.conf import settings; "
        "from django.core.management import call_command; call_command('check', deploy=True, fail_level='WARNING'); "
        "print(settings.LOG_FORMAT); logging.getLogger('casino.probe').warning('hello')"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**production_env(), "DJANGO_SETTINGS_MODULE": "casino.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "json" in done.stdout.split()
    assert json.loads(done.stderr.strip().splitlines()[-1])["message"] == "hello"


def test_plain_http_cookies_are_a_deliberate_choice_that_check_deploy_flags():
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=production_env(DJANGO_SECURE_COOKIES="false"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "security.W012" in done.stdout + done.stderr  # session cookie not Secure: said out loud


@pytest.mark.django_db
def test_the_error_pages_are_the_sites_own_and_need_no_request(rf):
    """Outside DEBUG Django renders templates/403.html, 404.html and 500.html; the 500 page gets
    no request context at all (the database may be what failed), so it must stand on its own."""
    request = rf.get("/hands/7/")
    request.user = AnonymousUser()
    pages = {
        500: server_error(request).content.decode(),
        404: page_not_found(request, Http404("not one of your hands")).content.decode(),
        403: permission_denied(request, PermissionDenied("no")).content.decode(),
    }
    for code, page in pages.items():
        assert f'<p class="error-code">{code}</p>' in page
        assert 'href="/static/css/site.css"' in page and "Hold'em Casino" in page
        assert not INLINE_CODE.search(page)
    assert "not one of your hands" not in pages[404]  # no hint that the hand exists
