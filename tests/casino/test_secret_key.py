"""Without DEBUG the site refuses to start on a missing or published secret key."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEVELOPMENT_KEY = "insecure-local-development-key-change-me-in-production"
REAL_KEY = "a-long-random-production-secret-for-this-test-only-7d1e9b0c4f"


PRINT_KEY = ("-c", "from django.conf import settings; print(settings.SECRET_KEY)")


def start(*, debug: str, key: str | None, command=("-c", "import casino.settings")):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_SECRET_KEY", "DJANGO_DEBUG", "DATABASE_URL"}
    }
    env.update(
        DJANGO_DEBUG=debug,
        DJANGO_SETTINGS_MODULE="casino.settings",
        DJANGO_ALLOWED_HOSTS="poker.example.com",
    )
    if key is not None:
        env["DJANGO_SECRET_KEY"] = key
    return subprocess.run(
        [sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "key",
    [None, "", "   ", DEVELOPMENT_KEY, "change-me-to-a-long-random-string"],
    ids=["unset", "empty", "blank", "the-development-fallback", "the-env-example-placeholder"],
)
def test_without_debug_a_missing_or_published_key_stops_the_start(key):
    done = start(debug="false", key=key)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and "DJANGO_SECRET_KEY must be set" in done.stderr


def test_manage_py_fails_with_the_same_sentence():
    done = start(debug="false", key=None, command=("manage.py", "check"))
    assert done.returncode != 0 and "DJANGO_SECRET_KEY must be set" in done.stderr


def test_without_debug_a_real_key_starts():
    done = start(debug="false", key=REAL_KEY, command=PRINT_KEY)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == REAL_KEY


def test_with_debug_the_development_key_is_still_the_default():
    done = start(debug="true", key=None, command=PRINT_KEY)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == DEVELOPMENT_KEY
