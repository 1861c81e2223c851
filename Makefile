# Pao: one command surface for people and CI.
#   make run    install what changed, build the app, migrate, load demo data, serve :8000
#   make test   every stage below, timed, with a table of the stages' times at the end
#               (scripts/stages.py): install, checks (lint, types, contract, deploy files),
#               backend tests on PostgreSQL (PAO_TEST_DATABASE_URL) and on SQLite (what can
#               differ there; everything when PostgreSQL is not configured: tests/databases.py),
#               the API fuzz run and the smoke test (PostgreSQL only), frontend checks and
#               browser tests
#   make fuzz   schemathesis over the whole OpenAPI against the real app on a fresh
#               PostgreSQL database (~3 min; skipped without PAO_TEST_DATABASE_URL)
#   make smoke  the production topology of docs/deploy.md (nginx + TLS, two pao serve, PostgreSQL,
#               Redis) on this machine, and a smoke test through it (deploy/smoke.sh, < 2 min)
#   make screens the browser tests with their pictures (frontend/test-results/screens/)
#   make bench  benchmarks against same-run baselines (local PostgreSQL + Redis, ~15 min);
#               writes docs/benchmarks.md. Never part of `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
BIN := $(VENV)/bin
UV_VERSION := 0.13.9
# Backend test processes (pytest-xdist); each has its own PostgreSQL database (tests/conftest.py).
PYTEST_WORKERS ?= 2
export UV_PROJECT_ENVIRONMENT := $(abspath $(VENV))
UV := $(BIN)/uv
PAO := $(BIN)/pao
# What the build reads (its plugins and the back office's document too): dist/ is rebuilt when one changes.
FRONTEND_SOURCES := $(shell find frontend/src frontend/public frontend/plugins frontend/index.html frontend/backoffice.html frontend/vite.config.ts -type f 2>/dev/null)
HAS_FRONTEND := $(wildcard frontend/package.json)

.PHONY: help run test install bytecode check contract contract-check backend-test backend-postgres backend-sqlite fuzz frontend-check frontend-e2e screens deploy-tools deploy-check smoke bench bench-tools clean

help:
	@echo "make run   - serve Pao with demo data at http://$${PAO_HOST:-127.0.0.1}:$${PAO_PORT:-8000}"
	@echo "make test  - every check and test (what CI runs)"
	@echo "make smoke - nginx + TLS + two pao serve on PostgreSQL and Redis, smoke-tested"
	@echo "make fuzz  - schemathesis over the whole API on PostgreSQL (PAO_TEST_DATABASE_URL)"
	@echo "make bench - benchmarks against same-run baselines; writes docs/benchmarks.md"

# --- installs (stamp files: a second run reinstalls nothing that did not change) ---------
$(VENV)/.installed: backend/pyproject.toml backend/uv.lock
	@test -x $(BIN)/python || python3 -m venv $(VENV)
	@test -x $(UV) && $(UV) --version | grep -q $(UV_VERSION) || $(BIN)/pip install -q uv==$(UV_VERSION)
	$(UV) sync --frozen --inexact --compile-bytecode --project backend
	@touch $@

# Every Python process (each test worker, each `pao` command, each server the browser tests and
# the fuzz run start) imports the app's ≈ 2,000 modules: from source that is ≈ 4 s of CPU each,
# and nothing writes the compiled files where PYTHONDONTWRITEBYTECODE is set (as on CI's
# machines). So the dependencies are compiled when installed (above), and Pao's own modules
# here, which recompiles only what changed.
bytecode: $(VENV)/.installed
	@$(BIN)/python -m compileall -q -j 0 backend/src >/dev/null

frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

frontend/dist/index.html: frontend/node_modules/.installed $(FRONTEND_SOURCES)
	cd frontend && npm run build

ifneq ($(HAS_FRONTEND),)
SPA := frontend/dist/index.html
endif

# --- run ---------------------------------------------------------------------------------
# The demo's loading prints its own summary (the logins); its log lines (a "site setting
# changed" per setting) would bury them on a newcomer's first screen.
run: $(VENV)/.installed bytecode $(SPA)
	@export PAO_SANDBOX=$${PAO_SANDBOX:-1}; \
	$(PAO) migrate && PAO_LOG_LEVEL=warning $(PAO) demo && \
	echo "Pao is at http://$${PAO_HOST:-127.0.0.1}:$${PAO_PORT:-8000}  (demo login: 0812345678 / demo1234;" \
	  "staff: owner, manager, cashier, support, viewer / staff-demo-1, TOTP secrets above)" && \
	exec $(PAO) serve

# --- checks and tests --------------------------------------------------------------------
check: $(VENV)/.installed
	cd backend && ../$(BIN)/ruff check src tests migrations ../deploy ../scripts && ../$(BIN)/ruff format --check src tests migrations ../deploy ../scripts
	cd backend && ../$(BIN)/mypy src tests ../deploy/smoke.py ../scripts

contract: $(VENV)/.installed
	$(BIN)/python -m pao.contract

contract-check: $(VENV)/.installed
	$(BIN)/python -m pao.contract --check

# The backend suite: every test on PostgreSQL, then on SQLite only the tests marked `sqlite`
# (tests/databases.py), and the check that SQLite still writes every kind of money movement
# PostgreSQL does. Without PAO_TEST_DATABASE_URL, backend-sqlite runs the whole suite on SQLite.
# Each run names its 15 slowest tests, so that a slow newcomer is seen at once.
ENTRY_KINDS := $(abspath var/test-entry-kinds)
PYTEST := cd backend && PAO_TEST_ENTRY_KINDS=$(ENTRY_KINDS) ../$(BIN)/pytest -p no:cacheprovider -n $(PYTEST_WORKERS) --durations=15

backend-test: contract-check backend-postgres backend-sqlite

ifneq ($(PAO_TEST_DATABASE_URL),)
backend-postgres: $(VENV)/.installed
	rm -rf $(ENTRY_KINDS)
	$(PYTEST) --database=postgres
backend-sqlite: $(VENV)/.installed
	$(PYTEST) --database=sqlite
	cd backend && ../$(BIN)/python -m tests.databases $(ENTRY_KINDS)
else
backend-postgres:
	@echo "backend on PostgreSQL: skipped (PAO_TEST_DATABASE_URL is not set)"
backend-sqlite: $(VENV)/.installed
	$(PYTEST)
endif

# Any 5xx or answer outside the declared responses fails it (backend/tests/fuzz/). The built
# SPA is served too, as in production: its catch-all route decides some wrong-method answers.
fuzz: $(VENV)/.installed $(SPA)
	cd backend && ../$(BIN)/python -m tests.fuzz

chromium:
	@command -v chromium >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-core fonts-thai-tlwg >/dev/null; }

# Debian's nginx (the smoke test's proxy) and prometheus (for promtool), like chromium above.
deploy-tools:
	@command -v nginx >/dev/null && command -v promtool >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	  nginx-light prometheus >/dev/null; }

# The alert rules load and fire as their tests say; the dashboard is valid JSON. That every
# metric they name is exported by the app is a backend test (tests/api/test_deploy_files.py).
deploy-check: deploy-tools
	promtool check rules deploy/prometheus/alerts.yml
	promtool test rules deploy/prometheus/alerts.test.yml
	python3 -m json.tool deploy/grafana/pao.json >/dev/null

# Skipped without PAO_TEST_DATABASE_URL, like fuzz.
smoke: $(VENV)/.installed $(SPA) deploy-tools
	deploy/smoke.sh

# The same checks as `npm run check`, but the bundle budget reads the dist/ that fuzz and the
# browser tests use instead of building it a second time.
frontend-check: frontend/node_modules/.installed frontend/dist/index.html
	cd frontend && npm run check:built

frontend-e2e: $(VENV)/.installed frontend/dist/index.html chromium
	cd frontend && PAO_E2E_RETRIES=$${PAO_E2E_RETRIES:-1} npm run e2e

# The browser tests with their pictures, for a person to look at (frontend/test-results/screens/);
# `make test` skips taking them (e2e/support/fixtures.ts, screenshot).
screens: $(VENV)/.installed frontend/dist/index.html chromium
	cd frontend && PAO_E2E_SCREENS=1 npm run e2e

# Everything the stages need, installed first so that its time is a stage of its own.
install: $(VENV)/.installed bytecode $(SPA) deploy-tools $(if $(HAS_FRONTEND),chromium)

# `make test`'s stages, in order ("name: targets"); scripts/stages.py times each. "&" stages
# run beside the ones after them: the fuzz and the smoke run (one server each, about one core
# busy) start beside the checks (mypy keeps one core busy, 34 s) and go on beside the backend
# suites, which leave about half a core idle (their tests wait on the database and on sockets).
# The frontend checks (type check and lint, one core each) run beside the browser tests, which
# kept 1.7 of 2 cores busy alone (a run on 2026-12-07: 69 s at 1.4 cores, then 479 s at 1.7).
STAGES := "install: install" "&fuzz: fuzz" "&smoke: smoke" \
  "checks: check contract-check deploy-check" \
  "backend on PostgreSQL: backend-postgres" "backend on SQLite: backend-sqlite"
ifneq ($(HAS_FRONTEND),)
STAGES += "&frontend checks: frontend-check" "browser: frontend-e2e"
endif

test:
	@python3 scripts/stages.py $(STAGES)

# --- benchmarks (not part of `make test`; see bench/README.md) ---------------------------
# PAO_BENCH_PG_URL / PAO_BENCH_REDIS_URL choose the bench database (dropped and re-created by
# every run) and Redis db; BENCH_ARGS is passed on (e.g. BENCH_ARGS="--only wallet,read").
$(VENV)/.bench-installed: $(VENV)/.installed
	$(UV) sync --frozen --inexact --project backend --group bench
	@touch $@

bench/node_modules/.installed: bench/package.json bench/package-lock.json
	cd bench && npm ci --no-audit --no-fund
	@touch $@

bench-tools:
	@command -v wrk >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
	@# Debian ships pgbench with the server package (postgresql-15), not the client.
	@command -v pgbench >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }

bench: $(VENV)/.bench-installed bench/node_modules/.installed frontend/node_modules/.installed bench-tools chromium
	ulimit -n $$(ulimit -Hn) && $(BIN)/python -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist var bench/node_modules
