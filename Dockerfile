# The site's one image: Daphne (web), Celery worker and Celery beat all run from it
# (docker-compose.yml chooses the command). Static files are collected at start by the one-shot
# `migrate` service into a volume nginx serves.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_STATIC_ROOT=/app/staticfiles

WORKDIR /app

# Dependencies first: this layer is rebuilt only when requirements.txt changes.
COPY requirements.txt .
RUN pip install -r requirements.txt

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
