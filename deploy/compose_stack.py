"""The compose project a run of `make compose-e2e` drives (deploy/compose_e2e.py): its commands,
its containers and which of them serves a socket; and the run's log lines and checks."""

import socket
import subprocess
import time
from dataclasses import dataclass

DAPHNE_PORT = 8000
STARTED = time.monotonic()


def step(message: str) -> None:
    print(f"compose-e2e: [{time.monotonic() - STARTED:5.1f} s] {message}", flush=True)


class Failure(Exception):
    """A check of the scenario that did not hold."""


def check(condition, message: str) -> None:
    if not condition:
        raise Failure(message)


# --- the containers -----------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Container:
    id: str
    name: str


class Stack:
    """The compose project: its commands and what Docker knows about its containers."""

    def __init__(self, compose: list[str], project: str):
        self.compose_command = compose
        self.project = project

    def compose(self, *args: str, timeout: float = 180) -> str:
        done = subprocess.run(
            [*self.compose_command, *args], capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            raise Failure(f"{' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
        return done.stdout

    def exec_bytes(self, service: str, *command: str, stdin: bytes = b"") -> bytes:
        """A command in the service's running container, its output as bytes (pg_dump)."""
        done = subprocess.run(
            [*self.compose_command, "exec", "-T", service, *command],
            input=stdin,
            capture_output=True,
            timeout=120,
        )
        if done.returncode != 0:
            raise Failure(
                f"{' '.join(command)} failed: {done.stderr.decode(errors='replace')[-1500:]}"
            )
        return done.stdout

    def manage(self, *args: str, environment: dict[str, str] | None = None) -> str:
        """manage.py in a one-off container of the site's image, as docs/deploy.md tells operators."""
        settings = [arg for item in (environment or {}).items() for arg in ("-e", "=".join(item))]
        return self.compose(
            "run", "--rm", "--no-deps", "-T", *settings, "migrate", "python", "manage.py", *args
        )

    @staticmethod
    def docker(*args: str) -> str:
        done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise Failure(f"docker {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def containers(self, service: str) -> list[Container]:
        listing = self.docker(
            "ps",
            "--filter",
            f"label=com.docker.compose.project={self.project}",
            "--filter",
            f"label=com.docker.compose.service={service}",
            "--format",
            "{{.ID}} {{.Names}}",
        )
        return sorted(Container(*line.split()) for line in listing.splitlines() if line.strip())

    def address(self, container: Container) -> str:
        return self.docker(
            "inspect",
            "--format",
            "{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}",
            container.id,
        ).split()[0]

    def proxied_sockets(self, web: Container, nginx_address: str) -> set[int]:
        """The open connections from nginx to this web container's Daphne, by nginx's port, read
        from the container's own TCP table. Each is a websocket: nginx keeps no idle connection
        to Daphne, and the container's health checks come from inside it."""
        table = self.docker("exec", web.id, "cat", "/proc/net/tcp")
        ports = set()
        for line in table.splitlines()[1:]:
            fields = line.split()
            local, remote, state = fields[1], fields[2], fields[3]
            if state != "01":  # ESTABLISHED
                continue
            if int(local.rsplit(":", 1)[1], 16) != DAPHNE_PORT:
                continue
            remote_ip, remote_port = remote.rsplit(":", 1)
            if socket.inet_ntoa(bytes.fromhex(remote_ip)[::-1]) == nginx_address:
                ports.add(int(remote_port, 16))
        return ports

    def proxied(self) -> set[tuple[Container, int]]:
        """Every websocket nginx holds open to a web container: (container, nginx's port)."""
        nginx_address = self.address(self.containers("nginx")[0])
        return {
            (web, port)
            for web in self.containers("web")
            for port in self.proxied_sockets(web, nginx_address)
        }
