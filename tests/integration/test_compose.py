"""docker-compose.yml describes the production topology, and Docker Compose itself accepts it.

The structure is read with PyYAML (no Docker needed); `docker compose config -q` runs where a
Compose implementation is installed (no engine is needed for `config`). Without one those tests
skip, except on CI (CI=true), where bin/services installs Debian's docker-compose and a missing
client is a failure.
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
LONG_RUNNING = ("postgres", "redis", "web", "worker", "beat", "nginx")


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
        "redis",
        "migrate",
        "web",
        "worker",
        "beat",
        "nginx",
    }
    assert set(compose["volumes"]) >= {"postgres-data", "static"}


def test_web_scales_out_so_it_has_no_fixed_name_or_host_port(compose):
    web = compose["services"]["web"]
    assert "container_name" not in web and "ports" not in web
    assert "daphne" in command_of(web) and "--proxy-headers" in command_of(web)
    assert "container_name" not in compose["services"]["worker"]
    # nginx is the one published port, and it reaches the replicas by the service name.
    assert compose["services"]["nginx"]["ports"]
    assert "server web:8000 resolve" in (ROOT / "deploy/nginx.conf").read_text()


def test_there_is_exactly_one_celery_beat(compose):
    beats = [
        name
        for name, service in compose["services"].items()
        if re.search(r"\bbeat\b", command_of(service))
    ]
    assert beats == ["beat"]
    assert compose["services"]["beat"].get("deploy", {}).get("replicas", 1) == 1
    assert "worker" in command_of(compose["services"]["worker"])
    assert (
        "-B" not in command_of(compose["services"]["worker"]).split()
    )  # no beat hidden in a worker


def test_every_long_running_service_has_a_health_check(compose):
    services = compose["services"]
    for name in LONG_RUNNING:
        assert "test" in services[name].get("healthcheck", {}), f"{name} has no health check"
    assert "pg_isready" in health_test_of(services["postgres"])
    assert "redis-cli ping" in health_test_of(services["redis"])
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
        assert depends["postgres"]["condition"] == "service_healthy", name
        assert depends["redis"]["condition"] == "service_healthy", name
    # collectstatic writes where nginx reads.
    assert "static:/app/staticfiles" in services["migrate"]["volumes"]
    assert any(v.startswith("static:/srv/static") for v in services["nginx"]["volumes"])
    assert "alias /srv/static/;" in (ROOT / "deploy/nginx.conf").read_text()


def test_redis_never_evicts(compose):
    assert "--maxmemory-policy noeviction" in command_of(compose["services"]["redis"])


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
    example = {
        line.split("=", 1)[0]
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    }
    assert used <= example, f"missing from .env.example: {sorted(used - example)}"
    assert ".env" in (ROOT / ".gitignore").read_text().splitlines()


def test_the_image_runs_as_a_non_root_user():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.startswith("#") and "FROM python:3.11-slim" in dockerfile
    assert "pip install -r requirements.txt" in dockerfile
    users = re.findall(r"^USER\s+(\S+)", dockerfile, re.M)
    assert users and users[-1] not in {"root", "0"}
    assert ".env" in (ROOT / ".dockerignore").read_text().split()


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
