# The two commands a newcomer needs: `make run` and `make test` (`make test-fast` while editing).
# Python 3.13 (docs/decisions.md): the one on PATH when it runs, else pyenv's or Debian's.
PYTHON ?= $(firstword $(shell python3.13 -c 'import sys; print(sys.executable)' 2>/dev/null) \
  $(wildcard $(HOME)/.pyenv/versions/3.13*/bin/python3.13 /root/.pyenv/versions/3.13*/bin/python3.13) \
  /usr/bin/python3.13)
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip

.PHONY: run test test-fast cluster load chaos floor compose-check compose-e2e k8s-check lock bench clean

# Installs read the lock files (every package, direct and indirect, pinned with its hashes);
# requirements*.txt name what we depend on and are the input the locks are made from.
$(VENV)/.runtime: requirements.lock
	$(PY) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 13))' 2>/dev/null || \
	  { rm -rf $(VENV); $(PYTHON) -m venv $(VENV); }
	$(PIP) install -q --disable-pip-version-check --require-hashes -r requirements.lock
	touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.lock
	$(PIP) install -q --disable-pip-version-check --require-hashes -r requirements-dev.lock
	touch $@

## make run: the whole site on http://127.0.0.1:8000 with production settings (embedded mode unless
## REDIS_URL is set; DJANGO_DEBUG=true make run for Django's debug pages). bin/run migrates and seeds.
run: $(VENV)/.runtime
	bin/run

# axe-core for the browser tests' accessibility checks (tests/e2e/axe.py), exactly as locked.
# Without npm (or the registry) the checks skip with the reason, and fail on CI (CI=true).
AXE := tests/e2e/axe/node_modules/axe-core/axe.min.js
$(AXE): tests/e2e/axe/package-lock.json
	@if ! command -v npm >/dev/null; then echo "npm is missing: the accessibility checks will skip"; \
	elif npm ci --prefix tests/e2e/axe --no-audit --no-fund; then touch $@; \
	else echo "npm ci failed: the accessibility checks will skip"; fi

## make test: the static checks (bin/check: ruff, mypy, node --test), then the whole suite
## (PostgreSQL and Redis are used when reachable; on CI they must be)
test: $(VENV)/.dev $(AXE)
	bin/check
	bin/test

## make test-fast: the inner loop: no tests marked slow (tests/integration, tests/e2e) and a 100-hand
## long run instead of 500 (LONG_RUN_HANDS); CI runs the full make test
LONG_RUN_HANDS ?= 100
test-fast: $(VENV)/.dev $(AXE)
	bin/check
	LONG_RUN_HANDS=$(LONG_RUN_HANDS) bin/test -m "not slow"

## make cluster: two Daphne servers, two Celery workers and two beats on local PostgreSQL + Redis
cluster: $(VENV)/.runtime
	bin/cluster

## make load TABLES=10 LOAD_SECONDS=60: bots on the cluster topology; prints figures (docs/performance.md)
TABLES  ?= 10
LOAD_SECONDS ?= 60
THINK ?= 0.1-0.6
LOAD_ARGS ?=
load: $(VENV)/.dev
	$(PY) bench/load.py --tables $(TABLES) --seconds $(LOAD_SECONDS) --think $(THINK) $(LOAD_ARGS)

## make chaos MINUTES=30: bots on the cluster topology while processes are killed, frozen and cut (docs/reliability.md)
MINUTES ?= 30
CHAOS_ARGS ?=
chaos: $(VENV)/.dev
	$(PY) bench/chaos.py --minutes $(MINUTES) $(CHAOS_ARGS)

## make floor TABLES=50: the least a table action costs in this stack (bare consumer, no database)
floor: $(VENV)/.dev
	$(PY) bench/floor.py --tables $(TABLES) --think $(THINK)

## make compose-check: is docker-compose.yml valid? (needs a Compose client, not the engine)
compose-check: $(VENV)/.dev
	$(VENV)/bin/pytest -q tests/integration/test_compose.py

## make k8s-check: do deploy/k8s's overlays render (kubectl kustomize) and pass the offline schema and
## our own checks? (kubectl with kustomize v5: bin/install-kubectl; docs/deploy.md, Kubernetes)
k8s-check: $(VENV)/.dev
	$(VENV)/bin/pytest -q tests/deploy/test_k8s.py

## make compose-e2e: the docker-compose stack built, started, played and scaled for real (installs
## Docker when missing; local stand-ins for the official images; docs/deploy.md). CI runs it.
compose-e2e: $(VENV)/.dev
	bin/compose-e2e

## make lock: pin every package (direct and indirect) with hashes, after an edit of requirements*.txt
lock: $(VENV)/.dev
	$(VENV)/bin/uv pip compile requirements.txt --universal --python-version 3.13 --generate-hashes -o requirements.lock
	$(VENV)/bin/uv pip compile requirements-dev.txt --universal --python-version 3.13 --generate-hashes -c requirements.lock -o requirements-dev.lock

bench: $(VENV)/.dev
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .hypothesis
