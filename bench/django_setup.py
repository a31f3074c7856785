"""Django for a benchmark that runs the site's code in its own process, on a database of its own:
the settings pointed at it before anything of Django loads, as the servers run (bin/cluster:
DEBUG off, so no query log; the pub/sub channel layer), then the database made and migrated.
A benchmark imports Django's modules only after `setup_django` has run."""

import os

import psycopg

ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def setup_django(database: str, redis_url: str, *, port: int = 5432, fresh: bool = False) -> None:
    """Point the settings at `database` (on 127.0.0.1, through `port`: a pooler's, or
    PostgreSQL's own) and `redis_url`, make the database (again, if `fresh`), set Django up and
    migrate."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("DJANGO_DEBUG", "false")
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{port}/{database}"
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-0123456789abcdef0123456789abcdef0123456789")
    os.environ["REDIS_URL"] = redis_url
    os.environ["CASINO_CHANNEL_LAYER"] = "pubsub"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        if fresh:
            admin.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database])
        if not exists.fetchone():
            admin.execute(f"CREATE DATABASE {database}")
    import django  # the settings are read when Django sets up: only now

    django.setup()
    from django.core.management import call_command  # needs the apps set up

    call_command("migrate", verbosity=0)
