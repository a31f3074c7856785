"""docker-compose.yml describes the production topology, and Docker Compose itself accepts it.

The structure is read with PyYAML (no Docker needed); `docker compose config -q` runs where a
Compose implementation is installed (no engine is needed for `config`). Without one those tests
skip, except on CI (CI=true), where bin/services installs Debian's docker-compose and a missing
client is a failure. The stack itself is built, started and played by `make compose-e2e`
(bin/compose-e2e); the install locks the image and `make` read are checked here too.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import service_missing

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
SECRETS = ("DJANGO_SECRET_KEY", "POSTGRES_PASSWORD", "REDIS_PASSWORD", "DJANGO_ALLOWED_HOSTS")
APP_SERVICES = ("migrate", "web", "worker", "beat")
LONG_RUNNING = (
    "postgres",
    "postgres-replica",
    "pgbouncer",
    "redis",
    "redis-layer-1",
    "redis-layer-2",
    "web",
    "worker",
    "beat",
    "nginx",
    "prometheus",
)
REDIS_SERVICES = ("redis", "redis-layer-1", "redis-layer-2")
# service -> (the variable naming its image, the image it defaults to)
IMAGES = {
    "postgres": ("POSTGRES_IMAGE", "postgres:17-alpine"),
    "postgres-replica": ("POSTGRES_IMAGE", "postgres:17-alpine"),
    "redis": ("REDIS_IMAGE", "redis:8-alpine"),
    "redis-layer-1": ("REDIS_IMAGE", "redis:8-alpine"),
    "redis-layer-2": ("REDIS_IMAGE", "redis:8-alpine"),
    "nginx": ("NGINX_IMAGE", "nginx:1.28-alpine"),
    "pgbouncer": ("PGBOUNCER_IMAGE", "edoburu/pgbouncer:v1.25.2-p0"),
    "prometheus": ("PROMETHEUS_IMAGE", "prom/prometheus:v3.5.0"),
}
# bin/standins' name for the stand-in of each image variable.
STANDINS = {
    "PYTHON_IMAGE": "python",
    "POSTGRES_IMAGE": "postgres",
    "REDIS_IMAGE": "redis",
    "NGINX_IMAGE": "nginx",
    "PGBOUNCER_IMAGE": "pgbouncer",
    "PROMETHEUS_IMAGE": "prometheus",
}
PYTHON_IMAGE = "python:3.13-slim-trixie"


@pytest.fixture(scope="module")
def compose():
    return yaml.safe_load(COMPOSE_FILE.read_text())


def command_of(service) -> str:
    command = service.get("command", "")
    return " ".join(command) if isinstance(command, list) else command


def health_test_of(service) -> str:
    test = service["healthcheck"]["test"]
    return " ".join(test) if isinstance(test, list) else test


def test_the_stack_has_every_service(compose):
    assert set(compose["services"]) == {
        "postgres",
        "postgres-replica",
        "pgbouncer",
        "redis",
        "redis-layer-1",
        "redis-layer-2",
        "migrate",
        "web",
        "worker",
        "beat",
        "nginx",
        "prometheus",
    }
    assert set(compose["volumes"]) >= {
        "postgres-data",
        "postgres-replica-data",
        "prometheus-data",
        "static",
    }


def test_only_prometheus_is_optional(compose):
    """`docker compose up -d` starts the whole site; Prometheus only with --profile monitoring."""
    profiles = {name: s["profiles"] for name, s in compose["services"].items() if "profiles" in s}
    assert profiles == {"prometheus": ["monitoring"]}


def test_web_scales_out_so_it_has_no_fixed_name_or_host_port(compose):
    web = compose["services"]["web"]
    assert "container_name" not in web and "ports" not in web
    assert "daphne" in command_of(web) and "--proxy-headers" in command_of(web)
    assert "container_name" not in compose["services"]["worker"]
    # nginx is the one published port, and it reaches the replicas by the service name.
    assert compose["services"]["nginx"]["ports"]
    # nginx looks `web` up while serving (Docker's DNS names every replica), not once at start.
    nginx_conf = (ROOT / "deploy/nginx.conf").read_text()
    assert "resolver 127.0.0.11" in nginx_conf and "set $casino_web web:8000;" in nginx_conf
    assert nginx_conf.count("proxy_pass http://$casino_web;") == 2


def test_beat_runs_two_replicas_of_which_the_lock_holder_ticks(compose):
    beats = [
        name
        for name, service in compose["services"].items()
        if re.search(r"\bbeat\b", command_of(service))
    ]
    assert beats == ["beat"]
    assert compose["services"]["beat"]["deploy"]["replicas"] == 2
    assert "--scale beat=2" in (ROOT / "bin/compose-e2e").read_text()
    assert "worker" in command_of(compose["services"]["worker"])
    assert (
        "-B" not in command_of(compose["services"]["worker"]).split()
    )  # no beat hidden in a worker


def test_every_long_running_service_has_a_health_check(compose):
    services = compose["services"]
    for name in LONG_RUNNING:
        assert "test" in services[name].get("healthcheck", {}), f"{name} has no health check"
    assert "pg_isready" in health_test_of(services["postgres"])
    assert "pg_isready" in health_test_of(services["postgres-replica"])
    assert "--port=6432" in health_test_of(services["pgbouncer"])
    for name in REDIS_SERVICES:
        assert "redis-cli ping" in health_test_of(services[name])
    assert "/-/ready" in health_test_of(services["prometheus"])
    assert "/healthz" in health_test_of(services["web"])
    assert "inspect ping" in health_test_of(services["worker"])
    assert "beat" in health_test_of(services["beat"])


def test_migrations_and_static_files_run_once_before_the_app_starts(compose):
    services = compose["services"]
    assert "migrate" in command_of(services["migrate"]) and "collectstatic" in command_of(
        services["migrate"]
    )
    assert services["migrate"].get("restart") == "no"
    for name in ("web", "worker", "beat"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
        for server in ("postgres", "pgbouncer", "postgres-replica", *REDIS_SERVICES):
            assert depends[server]["condition"] == "service_healthy", (name, server)
    # collectstatic writes where nginx reads, and where the web servers find the manifest of
    # hashed names that every page's links come from.
    assert "static:/app/staticfiles" in services["migrate"]["volumes"]
    assert "static:/app/staticfiles:ro" in services["web"]["volumes"]
    assert any(v.startswith("static:/srv/static") for v in services["nginx"]["volumes"])
    assert re.search(r"location /static/ \{\s*root /srv;", (ROOT / "deploy/nginx.conf").read_text())


def test_redis_never_evicts(compose):
    for name in REDIS_SERVICES:
        assert "--maxmemory-policy noeviction" in command_of(compose["services"][name])


def test_the_app_goes_through_pgbouncer_reads_the_replica_and_shards_the_channel_layer(compose):
    services = compose["services"]
    for name in ("web", "worker", "beat"):
        environment = services[name]["environment"]
        assert "@pgbouncer:6432/casino" in environment["DATABASE_URL"]
        assert environment["DATABASE_POOL_MODE"] == "transaction"
        assert environment["CASINO_PREPARED_STATEMENTS"] == "true"
        assert "@postgres-replica:5432/casino" in environment["DATABASE_REPLICA_URL"]
        assert "@redis:6379/" in environment["REDIS_URL"]
        shards = environment["CHANNEL_LAYER_URLS"].split(",")
        assert [re.sub(r".*@", "", url) for url in shards] == [
            "redis-layer-1:6379/0",
            "redis-layer-2:6379/0",
        ]
        assert all("${REDIS_PASSWORD" in url for url in shards)
    # Migrations run on the primary itself, in a session of their own.
    migrate = services["migrate"]["environment"]
    assert "@postgres:5432/casino" in migrate["DATABASE_URL"]
    assert migrate["DATABASE_POOL_MODE"] == "session"


def test_pgbouncer_pools_transactions_for_the_primary(compose):
    pgbouncer = compose["services"]["pgbouncer"]
    assert pgbouncer["entrypoint"] == ["/deploy/pgbouncer/start.sh"]
    assert "./deploy/pgbouncer:/deploy/pgbouncer:ro" in pgbouncer["volumes"]
    assert pgbouncer["depends_on"]["postgres"]["condition"] == "service_healthy"
    start = (ROOT / "deploy/pgbouncer/start.sh").read_text()
    assert "pool_mode = transaction" in start
    assert "listen_port = 6432" in start
    assert "auth_type = scram-sha-256" in start
    # Prepared statements survive the pooling, and the site's lock_timeout reaches the server.
    assert "max_prepared_statements = 200" in start
    assert "connect_query='SET lock_timeout = " in start
    assert "${POSTGRES_PASSWORD" in pgbouncer["environment"]["POSTGRES_PASSWORD"]


def test_the_replica_streams_from_the_primary_through_a_slot(compose):
    services = compose["services"]
    primary = command_of(services["postgres"])
    assert "wal_level=replica" in primary and "max_slot_wal_keep_size=" in primary
    assert (
        "./deploy/postgres/primary-init.sh:/docker-entrypoint-initdb.d/10-replication.sh:ro"
        in services["postgres"]["volumes"]
    )
    init = (ROOT / "deploy/postgres/primary-init.sh").read_text()
    assert "WITH REPLICATION LOGIN" in init and "pg_create_physical_replication_slot" in init
    assert "host replication replicator all scram-sha-256" in init
    replica = services["postgres-replica"]
    assert replica["command"] == ["/deploy/postgres/replica.sh"]
    assert replica["user"] == "postgres"
    assert "postgres-replica-data:/var/lib/postgresql/data" in replica["volumes"]
    script = (ROOT / "deploy/postgres/replica.sh").read_text()
    assert "pg_basebackup" in script and "--write-recovery-conf" in script
    assert "--slot=replica" in script and "hot_standby=on" in script


def test_prometheus_finds_every_web_replica_and_nginx_refuses_metrics(compose):
    prometheus = compose["services"]["prometheus"]
    assert "--config.file=/etc/prometheus/compose.yml" in prometheus["command"]
    assert "ports" not in prometheus
    config = yaml.safe_load((ROOT / "deploy/prometheus/compose.yml").read_text())
    (job,) = config["scrape_configs"]
    assert job["job_name"] == "casino-web" and job["metrics_path"] == "/metrics"
    assert job["dns_sd_configs"] == [
        {"names": ["web"], "type": "A", "port": 8000, "refresh_interval": "10s"}
    ]
    nginx_conf = (ROOT / "deploy/nginx.conf").read_text()
    assert re.search(r"location (=|\^~) /metrics \{[^}]*(deny all|return 40[34]);", nginx_conf)


def test_app_services_run_in_production_mode_with_secrets_from_the_env_file(compose):
    for name in APP_SERVICES:
        environment = compose["services"][name]["environment"]
        assert environment["DJANGO_DEBUG"] == "false"
        assert environment["DJANGO_LOG_FORMAT"] == "json"
        for key in (
            "DJANGO_SECRET_KEY",
            "DJANGO_ALLOWED_HOSTS",
            "DJANGO_CSRF_TRUSTED_ORIGINS",
            "CASINO_STARTING_CHIPS",
            "DATABASE_URL",
            "REDIS_URL",
            "CASINO_CHANNEL_LAYER",
        ):
            assert key in environment, f"{name} lacks {key}"
        # Secrets are interpolated from .env, never written into the file.
        assert environment["DJANGO_SECRET_KEY"].startswith("${DJANGO_SECRET_KEY:?")
        assert "${POSTGRES_PASSWORD" in environment["DATABASE_URL"]
        assert "${REDIS_PASSWORD" in environment["REDIS_URL"]


def test_env_example_names_every_variable_the_compose_file_reads():
    used = set(re.findall(r"\$\{([A-Z_]+)", COMPOSE_FILE.read_text()))
    # A variable is named as a setting (NAME=value) or, when its default is best left alone
    # (the image names), as a commented-out one (# NAME=value).
    example = {
        match.group(1)
        for line in (ROOT / ".env.example").read_text().splitlines()
        if (match := re.match(r"(?:# )?([A-Z][A-Z0-9_]*)=", line))
    }
    assert used <= example, f"missing from .env.example: {sorted(used - example)}"
    assert ".env" in (ROOT / ".gitignore").read_text().splitlines()


def test_the_image_runs_as_a_non_root_user():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.startswith("#")
    users = re.findall(r"^USER\s+(\S+)", dockerfile, re.M)
    assert users and users[-1] not in {"root", "0"}
    assert ".env" in (ROOT / ".dockerignore").read_text().split()


def test_the_image_is_python_3_13_on_trixie_and_installs_only_the_locked_files(compose):
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert f"ARG PYTHON_IMAGE={PYTHON_IMAGE}\nFROM ${{PYTHON_IMAGE}}\n" in dockerfile
    # The compose file passes the same default, so `docker compose build` and `docker build .`
    # make the same image.
    build = compose["services"]["web"]["build"]
    assert build["args"]["PYTHON_IMAGE"] == f"${{PYTHON_IMAGE:-{PYTHON_IMAGE}}}"
    assert "COPY requirements.lock ." in dockerfile
    assert "pip install --require-hashes -r requirements.lock" in dockerfile
    assert "requirements-dev" not in dockerfile and "requirements-bench" not in dockerfile


def test_every_image_is_the_official_one_unless_a_variable_names_a_stand_in(compose):
    for service, (variable, official) in IMAGES.items():
        assert compose["services"][service]["image"] == f"${{{variable}:-{official}}}"
    # bin/standins builds one stand-in for each variable, from deploy/standins/<name>.
    standins = (ROOT / "bin/standins").read_text()
    for variable, name in STANDINS.items():
        assert (ROOT / "deploy/standins" / name / "Dockerfile").is_file(), name
        assert f"[{name}]={variable}" in standins


def test_every_container_log_is_rotated(compose):
    for name, service in compose["services"].items():
        logging = service.get("logging", {})
        assert logging.get("driver") == "json-file", name
        assert logging["options"]["max-size"] and logging["options"]["max-file"], name


def locked(path: Path) -> dict[str, set[str]]:
    """A lock file's packages: name -> the versions pinned (one per environment marker)."""
    text = path.read_text()
    pins: dict[str, set[str]] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2]):
        requirement = block.split("\\", 1)[0].strip()
        match = re.fullmatch(
            r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[a-z,]+\])?==(\S+)(?: ;.*)?", requirement
        )
        assert match, f"{path.name}: not an exact pin: {requirement!r}"
        assert "--hash=sha256:" in block, f"{path.name}: {requirement} has no hash"
        pins.setdefault(normalised(match.group(1)), set()).add(match.group(2))
    return pins


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def direct_pins(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text().splitlines():
        if match := re.fullmatch(
            r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[a-z,]+\])?==(\S+)", line.strip()
        ):
            pins[normalised(match.group(1))] = match.group(2)
    return pins


def test_installs_are_locked_with_hashes_and_the_locks_agree_with_the_requirements():
    runtime, dev = locked(ROOT / "requirements.lock"), locked(ROOT / "requirements-dev.lock")
    for source, lock in (("requirements.txt", runtime), ("requirements-dev.txt", dev)):
        for name, version in direct_pins(ROOT / source).items():
            assert lock.get(name) == {version}, (
                f"{source} pins {name}=={version}; lock: {lock.get(name)}"
            )
    # The test environment runs what production runs, plus the tools.
    for name, versions in runtime.items():
        assert dev.get(name) == versions, (
            f"{name}: {versions} in production, {dev.get(name)} in dev"
        )
    # Benchmark references stay out of the image, and in the dev install.
    bench = direct_pins(ROOT / "requirements-bench.txt")
    assert set(bench) == {"treys", "pokerkit"}
    assert not set(bench) & set(runtime)
    assert all(dev.get(name) == {version} for name, version in bench.items())
    assert "-r requirements-bench.txt" in (ROOT / "requirements-dev.txt").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert "--require-hashes -r requirements.lock" in makefile
    assert "--require-hashes -r requirements-dev.lock" in makefile


def compose_command() -> list[str]:
    """`docker compose` (v2 plugin) if present, else the standalone `docker-compose`."""
    if shutil.which("docker"):
        probe = subprocess.run(["docker", "compose", "version"], capture_output=True, text=True)
        if probe.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    service_missing("no Docker Compose here (neither the docker compose plugin nor docker-compose)")


def write_env(directory: Path, **values) -> Path:
    path = directory / "test.env"
    path.write_text("".join(f"{key}={value}\n" for key, value in values.items()))
    return path


def test_docker_compose_accepts_the_file(tmp_path):
    command = compose_command()
    env_file = write_env(tmp_path, **dict.fromkeys(SECRETS, "dummy-value-for-config"))
    done = subprocess.run(
        [*command, "--file", str(COMPOSE_FILE), "--env-file", str(env_file), "config", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_docker_compose_refuses_to_start_without_the_secrets(tmp_path):
    command = compose_command()
    env_file = write_env(tmp_path, DJANGO_ALLOWED_HOSTS="poker.example.com")
    done = subprocess.run(
        [*command, "--file", str(COMPOSE_FILE), "--env-file", str(env_file), "config", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY" in done.stderr or "POSTGRES_PASSWORD" in done.stderr
