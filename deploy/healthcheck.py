"""Container health checks that start fast (standard library only, no Django import).

python deploy/healthcheck.py http [URL]   GET URL (default: this container's /healthz); healthy on 200
python deploy/healthcheck.py process WORD ...   healthy while a process whose command line holds
                                                every WORD runs (for celery beat)
"""

import os
import sys
import urllib.error
import urllib.request
from pathlib import Path

DEFAULT_URL = "http://127.0.0.1:8000/healthz"


def allowed_host() -> str:
    """A Host header Django accepts: the first concrete name in DJANGO_ALLOWED_HOSTS."""
    for host in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(","):
        host = host.strip().lstrip(".")
        if host and host != "*":
            return host
    return "localhost"


def check_http(url: str) -> int:
    # Asked from inside the container: present ourselves as the proxy would, with an allowed
    # Host and https, so neither host validation nor the https redirect gets in the way.
    request = urllib.request.Request(
        url, headers={"Host": allowed_host(), "X-Forwarded-Proto": "https"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            body = response.read(2000).decode(errors="replace")
            status = response.status
    except urllib.error.HTTPError as error:
        body, status = error.read(2000).decode(errors="replace"), error.code
    except OSError as error:
        print(f"unhealthy: {url}: {error}")
        return 1
    print(f"{status} {body}")
    return 0 if status == 200 else 1


def check_process(words: list[str]) -> int:
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            argv = cmdline.read_bytes().split(b"\0")
        except OSError:  # the process ended while we looked
            continue
        text = b" ".join(argv).decode(errors="replace")
        if all(word in text for word in words) and cmdline.parent.name != str(os.getpid()):
            print(f"running: pid {cmdline.parent.name}: {text.strip()}")
            return 0
    print(f"unhealthy: no process with {' '.join(words)!r}")
    return 1


def main(argv: list[str]) -> int:
    if len(argv) >= 1 and argv[0] == "http":
        return check_http(argv[1] if len(argv) > 1 else DEFAULT_URL)
    if len(argv) >= 2 and argv[0] == "process":
        return check_process(argv[1:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
