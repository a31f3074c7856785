# The site's one image: Daphne (web), Celery worker and Celery beat all run from it
# (docker-compose.yml chooses the command). Static files are collected at start by the one-shot
# `migrate` service into a volume nginx serves.
#
# The base is Python 3.13 on Debian 13 (trixie); a rebuild takes that line's latest patch release.
# It is a build argument only so that a machine that cannot pull from Docker Hub can build on a
# local image with the same contract (bin/compose-e2e's stand-ins, docs/deploy.md): leave it.
ARG PYTHON_IMAGE=python:3.13-slim-trixie
FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_STATIC_ROOT=/app/staticfiles

WORKDIR /app

# Dependencies first: this layer is rebuilt only when the lock changes. Every package, direct or
# indirect, is pinned in requirements.lock with its hashes, and pip refuses any other file.
COPY requirements.lock .
RUN pip install --require-hashes -r requirements.lock

RUN groupadd --system --gid 10001 casino \
    && useradd --system --uid 10001 --gid casino --home-dir /app --no-create-home --shell /usr/sbin/nologin casino

COPY --chown=casino:casino . .
# The static volume takes this directory's owner the first time it is mounted, so the non-root
# `migrate` container may write into it.
RUN mkdir -p /app/staticfiles && chown casino:casino /app/staticfiles

USER casino
EXPOSE 8000
# Overridden per service in docker-compose.yml; this default is the web server, started through
# bin/daphne-serve for the site's websocket limits and pings.
CMD ["/app/bin/daphne-serve", "--bind", "0.0.0.0", "--port", "8000", "--proxy-headers", "--access-log", "/dev/null", "casino.asgi:application"]
