"""All settings, read from the environment (README.md has the table).

Unset REDIS_URL means embedded mode: in-memory channel layer and an in-process clock.
"""

import ipaddress
import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_networks(name: str, default: str) -> list[str]:
    """A comma-separated list of networks (10.0.0.0/8, ::1/128) from the environment; unset, the
    default; set but empty, none. A value that is not a network stops the start."""
    networks = [n.strip() for n in os.environ.get(name, default).split(",") if n.strip()]
    for network in networks:
        try:
            ipaddress.ip_network(network)
        except ValueError as error:
            raise ImproperlyConfigured(f"{name}: {network!r} is not a network ({error})") from None
    return networks


POOL_MODES = ("session", "transaction")


def database_pool_mode() -> str:
    """DATABASE_POOL_MODE: `session` (the default: a direct connection, or a pooler that gives
    each client a server of its own) or `transaction` (PgBouncer's transaction pooling: each
    transaction, and each statement outside one, may run on another server connection)."""
    mode = (os.environ.get("DATABASE_POOL_MODE") or "session").strip().lower()
    if mode not in POOL_MODES:
        raise ImproperlyConfigured(
            f"DATABASE_POOL_MODE must be session or transaction, not {mode!r}"
        )
    return mode


def database_from_url(url: str, pool_mode: str = "session") -> dict:
    """Turn DATABASE_URL (postgres://user:pass@host:port/name or sqlite:///path) into Django's form.

    `pool_mode="transaction"`: the URL is a transaction-mode pooler. A server-side cursor outside
    a transaction is declared WITH HOLD to outlive it, and the next statement may reach another
    server connection, where that cursor does not exist: Django reads such results whole instead
    (docs/decisions.md, Database)."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = unquote(parts.path)
        if path.startswith("//") or path.startswith("/"):  # sqlite:////absolute/path
            path = path[1:]
        return sqlite_database(BASE_DIR / path if path else BASE_DIR / "db.sqlite3")
    if parts.scheme in {"postgres", "postgresql", "pgsql"}:
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.lstrip("/")) or "casino",
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            # Persistent connections: Channels closes and reopens the connection around every
            # database call otherwise (docs/performance.md: half the latency at 10 tables).
            "CONN_MAX_AGE": int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
            # A health check is one more round trip before every database call of a consumer.
            "CONN_HEALTH_CHECKS": env_bool("DJANGO_CONN_HEALTH_CHECKS", True),
            "OPTIONS": postgres_options(dict(parse_qsl(parts.query))),
            "DISABLE_SERVER_SIDE_CURSORS": pool_mode == "transaction",
            "TEST": {"NAME": os.environ.get("DATABASE_TEST_NAME") or None},
        }
    raise ValueError(
        f"DATABASE_URL scheme {parts.scheme!r} is not supported (use postgres:// or sqlite:///)"
    )


def postgres_options(options: dict) -> dict:
    """A lock wait gives up after DJANGO_DB_LOCK_TIMEOUT_MS (3 s; 0: never) with an error, which a
    socket answers as `unavailable` (try again). A process frozen inside a table's transaction
    (SIGSTOP, a long pause) holds that table's lock until it wakes; without a limit, whoever
    waits for it waits as long, and a Daphne server waits on its one database thread, so every
    table it serves stops with the frozen one (docs/reliability.md). `options` in the URL's
    query string replaces this one."""
    lock_timeout = int(os.environ.get("DJANGO_DB_LOCK_TIMEOUT_MS", "3000"))
    if lock_timeout > 0 and "options" not in options:
        options["options"] = f"-c lock_timeout={lock_timeout}"
    return options


def urls_from(value: str) -> list[str]:
    """A comma-separated list of URLs. A Sentinel URL lists its sentinels with commas too
    (sentinel://h1:26379,h2:26379/master), so a new URL starts only where a scheme does."""
    urls: list[str] = []
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        if "://" in part or not urls:
            urls.append(part)
        else:  # host:port of the Sentinel URL before it
            urls[-1] = f"{urls[-1]},{part}"
    return urls


def sqlite_database(path) -> dict:
    # WAL lets readers work beside the one writer; IMMEDIATE takes the write lock at BEGIN, so
    # two transactions never deadlock upgrading a read lock (SQLite ignores select_for_update).
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(path),
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }


# The secret key: a fallback for local development only. Without DEBUG a missing key, or one
# that is published (this fallback, .env.example's placeholder), stops the start: sessions,
# password reset links and signed values would be forgeable by anyone who read the source.
DEVELOPMENT_SECRET_KEY = "insecure-local-development-key-change-me-in-production"
PUBLISHED_SECRET_KEYS = {DEVELOPMENT_SECRET_KEY, "change-me-to-a-long-random-string"}
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or DEVELOPMENT_SECRET_KEY
DEBUG = env_bool("DJANGO_DEBUG", True)
if not DEBUG and (not SECRET_KEY.strip() or SECRET_KEY in PUBLISHED_SECRET_KEYS):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set to a long random value when DJANGO_DEBUG is off "
        "(unset, blank or a published example key is refused); e.g. "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

CASINO_STARTING_CHIPS = int(os.environ.get("CASINO_STARTING_CHIPS", "10000"))
# The session reminder's minute, in seconds (docs/rules.md 11): 60, shorter only for the browser
# tests, which cannot wait a quarter of an hour for a reminder.
CASINO_REMINDER_MINUTE_SECONDS = int(os.environ.get("CASINO_REMINDER_MINUTE_SECONDS", "60"))
# The dealer's random source (holdem/services/shuffle.py, docs/fairness.md): a dotted path to a
# function returning a generator with randrange and randbytes. No fallback when it fails.
CASINO_RANDOM_SOURCE = os.environ.get(
    "CASINO_RANDOM_SOURCE", "holdem.services.shuffle.system_random"
)
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
EMBEDDED = not REDIS_URL
# The in-process clock (embedded mode only; Celery beat is the clock when REDIS_URL is set).
CASINO_CLOCK = EMBEDDED and env_bool("CASINO_CLOCK", True)
# How often the pairs of players are scored for chip dumping (docs/integrity.md): Celery beat,
# or the embedded clock in one-process mode.
CASINO_INTEGRITY_SECONDS = int(os.environ.get("CASINO_INTEGRITY_SECONDS", "600"))
# How long a page of the lobby's room list, read once, is served again to the next viewer of the
# same filter and page in this process (holdem/selectors/lobby_page.py); 0: read every time.
CASINO_LOBBY_CACHE_SECONDS = float(os.environ.get("CASINO_LOBBY_CACHE_SECONDS", "1.5"))
# Sign-up addresses in these networks tell no two players apart (the machine itself, a proxy, a
# container or office network): they link no accounts (docs/integrity.md). Comma-separated.
CASINO_UNLINKED_NETWORKS = [
    n.strip()
    for n in os.environ.get(
        "CASINO_UNLINKED_NETWORKS",
        "127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,169.254.0.0/16,"
        "fc00::/7,fe80::/10,100.64.0.0/10",
    ).split(",")
    if n.strip()
]
# GET /metrics (casino/metrics_endpoint.py): allowed with `Authorization: Bearer` and this token,
# if set, or from these networks (Prometheus beside the servers; empty: the token only).
CASINO_METRICS_TOKEN = os.environ.get("CASINO_METRICS_TOKEN", "").strip()
CASINO_METRICS_NETWORKS = env_networks(
    "CASINO_METRICS_NETWORKS",
    "127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,169.254.0.0/16,"
    "fc00::/7,fe80::/10,100.64.0.0/10",
)
# Daphne serves /static/ itself in DEBUG and embedded mode; CASINO_SERVE_STATIC=1 asks for it in
# services mode too (bin/cluster). Behind nginx (docker compose) leave it off: nginx serves them.
CASINO_SERVE_STATIC = env_bool("CASINO_SERVE_STATIC", False)
DATABASE_POOL_MODE = database_pool_mode()
# The table action's statements are prepared once per PostgreSQL connection (holdem/db/rows.py),
# at the protocol level (psycopg's Parse and Close messages, never SQL PREPARE). A direct
# connection keeps them; a transaction-mode pooler keeps them only if it tracks them (PgBouncer
# 1.21 or later with max_prepared_statements above 0), so there they are off unless asked for.
CASINO_PREPARED_STATEMENTS = env_bool(
    "CASINO_PREPARED_STATEMENTS", DATABASE_POOL_MODE != "transaction"
)

INSTALLED_APPS = [
    "daphne",
    "casino.accounts.admin_app.CasinoAdminConfig",  # django.contrib.admin with the casino's admin site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "casino.accounts",
    "holdem",
    "lobby",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "casino.middleware.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "casino.middleware.DeviceCookieMiddleware",  # before sign-in: it records the device
    "django_otp.middleware.OTPMiddleware",  # request.user.is_verified(): the second factor
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a lockout into the lockout page
]

ROOT_URLCONF = "casino.urls"
ASGI_APPLICATION = "casino.asgi.application"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "home"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "casino.accounts.context_processors.header_wallet",
            ],
        },
    },
]

DATABASES = {
    "default": database_from_url(
        os.environ.get("DATABASE_URL") or "sqlite:///db.sqlite3", DATABASE_POOL_MODE
    )
}
# A read replica (casino/db_routing.py): history, statistics, the leaderboard, the lobby's
# figures and the audits read there, by name; play never does. Without it they read "default".
# It sits behind the same pooler as the primary when there is one (DATABASE_POOL_MODE). In
# tests it mirrors "default": a replica is never a database of its own to create.
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = database_from_url(os.environ["DATABASE_REPLICA_URL"], DATABASE_POOL_MODE)
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    # A replica that does not answer sends its pages to the primary (casino/db_routing.py)
    # after this long, not after the system's TCP timeout of a minute or more.
    if DATABASES["replica"]["ENGINE"].endswith("postgresql"):
        DATABASES["replica"]["OPTIONS"].setdefault("connect_timeout", 3)
# A session connection to the primary, past the pooler, for the long snapshot reads of the
# audits (`manage.py verify_chain --database direct`): server-side cursors stream their rows
# there, where through a transaction-mode pooler Django reads each result whole.
if os.environ.get("DATABASE_DIRECT_URL"):
    DATABASES["direct"] = database_from_url(os.environ["DATABASE_DIRECT_URL"])
    DATABASES["direct"]["TEST"] = {"MIRROR": "default"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Sign-in protection (docs/decisions.md). Failed sign-ins are counted in the database, so every
# web server sees the same count: 5 failures for one username from one address lock that pair out
# for 15 minutes, on the site's sign-in page and the admin's alike. The second factor (TOTP) is
# for staff who may create chips (casino/accounts/admin_site.py).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out pair before any password check
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "casino.accounts.lockout.lockout_page"
AXES_DISABLE_ACCESS_LOG = (
    True  # the throttle needs failures only; a row per sign-in would only grow
)
OTP_TOTP_ISSUER = "Hold'em Casino"
# Wrong codes are counted and limited by casino/accounts/second_factor.py (the sign-in page's
# limit and cool-off); django-otp's own back-off (1 s, 2 s, 4 s...) refused a code typed straight
# after one wrong one as "too many".
OTP_TOTP_THROTTLE_FACTOR = 0
OTP_ADMIN_HIDE_SENSITIVE_DATA = True  # a device's secret is shown once, at enrolment

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
# Who serves /static/: Daphne itself in DEBUG, in embedded mode and with CASINO_SERVE_STATIC
# (casino/asgi.py), finding each file by its source name, so no collectstatic is needed; else
# nginx, from STATIC_ROOT, where collectstatic (the compose `migrate` service) writes the files
# under content-hashed names (casino/storage.py) that nginx caches for a year.
DAPHNE_SERVES_STATIC = DEBUG or EMBEDDED or CASINO_SERVE_STATIC
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DAPHNE_SERVES_STATIC
        else "casino.storage.HashedStaticFilesStorage"
    },
}


# Real time: Redis carries table events between processes; embedded mode keeps them in memory.
# The channel layer may spread over several Redis servers (CHANNEL_LAYER_URLS, comma-separated:
# redis:// or sentinel:// URLs, casino/redis_shards.py): channels-redis hashes each group and
# channel to one of them. Every process of a site must list the same servers in the same order,
# so changing them is a full restart (docs/scale.md).
CHANNEL_LAYER_URLS = urls_from(os.environ.get("CHANNEL_LAYER_URLS", "")) or (
    [REDIS_URL] if REDIS_URL else []
)
if not REDIS_URL and (CHANNEL_LAYER_URLS or os.environ.get("CELERY_BROKER_URL", "").strip()):
    raise ImproperlyConfigured(
        "CHANNEL_LAYER_URLS and CELERY_BROKER_URL need REDIS_URL as well: without it the site "
        "runs embedded, with its channel layer and clock in the one process"
    )


def redis_channel_layer(urls: str | list[str], kind: str = "core") -> dict:
    """The channel layer on Redis (one URL or a list of shards, casino/layers.py). `core` is
    channels-redis's default (lists with capacity and expiry: four round trips per group message,
    polling receivers); `pubsub` publishes each group message once and fans it out inside each
    process. With bots at 50 tables pubsub played 3x the hands with a quarter of the latency
    (docs/performance.md), so docker-compose.yml and bin/cluster choose it
    (CASINO_CHANNEL_LAYER=pubsub). Every process of a site must use the same kind. Both deliver at
    most once; clients resync on a gap."""
    # redis-py 8 reads with a 5 s socket timeout by default, the same 5 s that channels-redis
    # blocks in BZPOPMIN while a process has nothing to receive: the client gave up first and the
    # consumer died (close 1011) after 5 quiet seconds. Reads may now outlast the blocking pop; a
    # dead server is still noticed. redis-py's pool also raises (not waits) past 100 connections:
    # a burst of sockets joining groups at once lost broadcasts at 50 tables.
    config = {
        "urls": [urls] if isinstance(urls, str) else list(urls),
        "connection": {"socket_timeout": 30, "socket_connect_timeout": 5, "max_connections": 1000},
    }
    if kind == "pubsub":
        return {"BACKEND": "casino.layers.PubSubLayer", "CONFIG": config}
    if kind != "core":
        raise ValueError(f"CASINO_CHANNEL_LAYER must be core or pubsub, not {kind!r}")
    return {
        "BACKEND": "casino.layers.CoreLayer",
        "CONFIG": {**config, "capacity": 1500, "expiry": 30},
    }


if CHANNEL_LAYER_URLS:
    CHANNEL_LAYERS = {
        "default": redis_channel_layer(
            CHANNEL_LAYER_URLS, os.environ.get("CASINO_CHANNEL_LAYER") or "core"
        )
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Celery: the broker is REDIS_URL unless CELERY_BROKER_URL names its own (a redis:// URL, or
# kombu's sentinel://host:port;sentinel://host:port with CELERY_BROKER_MASTER_NAME); beat fires
# due deadlines every second (style.md 7, 10).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "").strip() or REDIS_URL or "memory://"
CELERY_BROKER_MASTER_NAME = os.environ.get("CELERY_BROKER_MASTER_NAME", "").strip()
if CELERY_BROKER_MASTER_NAME:
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {"master_name": CELERY_BROKER_MASTER_NAME}
    if os.environ.get("CELERY_BROKER_SENTINEL_PASSWORD"):
        CELERY_BROKER_TRANSPORT_OPTIONS["sentinel_kwargs"] = {
            "password": os.environ["CELERY_BROKER_SENTINEL_PASSWORD"]
        }
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# The chunks of due tables (holdem/services/clock.py) have a queue of their own, which every
# worker also takes from (a worker started without -Q consumes all of CELERY_TASK_QUEUES). A
# worker takes from its queues in turn, so beat's next tick, in the default queue, never waits
# behind a second's worth of chunks; and a worker reserves one message at a time, so no chunk
# waits behind another in a busy worker's hand while a free worker has nothing.
CELERY_TASK_QUEUES = (Queue("celery"), Queue("deadlines"))
CELERY_TASK_ROUTES = {"holdem.tasks.fire_deadline_chunk": {"queue": "deadlines"}}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery closes the database connection before and after every task unless told how many tasks
# may reuse one: then casino/celery.py closes it only when broken or older than CONN_MAX_AGE.
CELERY_DB_REUSE_MAX = 1_000_000
CELERY_BEAT_SCHEDULE = {
    # A tick not taken within 5 s is dropped, not queued: with the workers down, ticks do not
    # pile up in Redis to fire all at once when they come back.
    "fire-due-deadlines": {
        "task": "holdem.tasks.fire_due_deadlines",
        "schedule": 1.0,
        "options": {"expires": 5},
    },
    # The staff's chip-dumping and collusion queue (docs/integrity.md). A run missed while the
    # workers are down is dropped: the next one reads the same window.
    "score-pairs": {
        "task": "holdem.tasks.score_pairs",
        "schedule": CASINO_INTEGRITY_SECONDS,
        "options": {"expires": CASINO_INTEGRITY_SECONDS / 2},
    },
}
if REDIS_URL:
    # Beat keeps its schedule in Redis and holds a lock there (celery-redbeat), so that two or
    # more beat processes can run: one ticks, renewing the lock at every tick (at most a second
    # apart); the others wait for it and take over once a dead beat's lock has run out.
    # docs/decisions.md, Clock and deadlines.
    CELERY_BEAT_SCHEDULER = "casino.beat.ClockScheduler"
    CELERY_REDBEAT_REDIS_URL = os.environ.get("CELERY_BEAT_REDIS_URL", "").strip() or (
        CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else REDIS_URL
    )
    CELERY_REDBEAT_KEY_PREFIX = "casino:beat:"
    # A beat that stopped renewing the lock (killed, frozen, cut off) is replaced after this
    # long: the clock is silent meanwhile, so it stays under /healthz's 15 s, and the turns that
    # ran out in the gap get a fresh clock as after any silence over DOWNTIME_SECONDS.
    CELERY_REDBEAT_LOCK_TIMEOUT = 10
    # Beat sleeps at most this long between passes: the waiting beats try the lock every second,
    # and the one-second tick is never overslept.
    CELERY_BEAT_MAX_LOOP_INTERVAL = 1

# Security: strict by default whenever DEBUG is off (production).
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# casino/middleware.py; report-only lets an operator try a stricter page without breaking it.
CASINO_CSP_REPORT_ONLY = env_bool("CASINO_CSP_REPORT_ONLY", False)
# Load balancers and container health checks may ask over plain http.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^livez$", r"^readyz$"]
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    # DJANGO_SECURE_COOKIES=false only for a production-like run over plain http on localhost
    # (bin/cluster): browsers do not send Secure cookies over http, so signing in would fail.
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# One JSON object per line (casino/logging.py) in production, or whenever DJANGO_LOG_FORMAT=json.
LOG_FORMAT = os.environ.get("DJANGO_LOG_FORMAT", "").strip().lower() or (
    "plain" if DEBUG else "json"
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "casino.logging.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "plain",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    # Sign-in protection: failed sign-ins and lockouts are warnings; axes' four lines of INFO per
    # successful sign-in are noise.
    "loggers": {
        "axes": {"level": "WARNING"},
        # The one-second deadline tick would log three lines a second between beat and the
        # workers (sent, received, succeeded); a tick that fails is still logged, as an error.
        "celery.beat": {"level": "WARNING"},
        "celery.worker.strategy": {"level": "WARNING"},
        "celery.app.trace": {"level": "WARNING"},
    },
}
# Celery's own log format would replace ours in workers: keep the site's handlers there too.
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT != "json"
