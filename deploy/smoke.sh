#!/usr/bin/env bash
# The production topology of docs/deploy.md on this machine, and a smoke test through it:
# PostgreSQL (a database of this run), Redis, two `pao serve` processes (PAO_ENV=production,
# no sandbox), nginx from Debian with deploy/nginx/pao.conf (ports and paths substituted),
# TLS with a self-signed certificate made now. Then deploy/smoke.py walks it through the proxy.
# Own ports, own database, own data directory; everything is removed on exit, pass or fail.
#
#   make smoke   (installs nginx; or deploy/smoke.sh after `make .venv/.installed`)
# The PostgreSQL server is PAO_TEST_DATABASE_URL's (skipped, exit 0, when that is unset, like
# `make fuzz`): a database pao_smoke_<pid> is created there and dropped. Redis: db 12 of
# PAO_TEST_REDIS_URL's server (127.0.0.1:6379 by default), flushed first: throttle counters of
# an earlier run would refuse this run's logins. PAO_SMOKE_PG_ADMIN / PAO_SMOKE_REDIS_URL
# override both.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=$ROOT/.venv/bin/python
PAO=$ROOT/.venv/bin/pao
if [ -z "${PAO_SMOKE_PG_ADMIN:-}" ] && [ -z "${PAO_TEST_DATABASE_URL:-}" ]; then
  echo "smoke: skipped: PAO_TEST_DATABASE_URL is not set (the smoke run needs PostgreSQL)"
  exit 0
fi
# postgresql+asyncpg://user@host:5432/name → postgresql://user@host:5432/postgres
TEST_PG=${PAO_TEST_DATABASE_URL:-}
PG_ADMIN=${PAO_SMOKE_PG_ADMIN:-$(echo "${TEST_PG/+asyncpg/}" | sed -E 's#/[^/?]*(\?.*)?$#/postgres#')}
PG_SERVER=${PG_ADMIN%/*}
TEST_REDIS=${PAO_TEST_REDIS_URL:-redis://127.0.0.1:6379/0}
REDIS_URL=${PAO_SMOKE_REDIS_URL:-${TEST_REDIS%/*}/12}
START=$(date +%s)
for tool in nginx openssl psql; do
  command -v "$tool" >/dev/null || { echo "smoke: $tool is missing (make smoke-tools)" >&2; exit 1; }
done

WORK=$(mktemp -d /tmp/pao-smoke.XXXXXX)
DB=pao_smoke_$$
PIDS=()
cleanup() {
  status=$?
  [ -f "$WORK/nginx.pid" ] && kill -QUIT "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ]; then
    for log in "$WORK"/*.log; do [ -f "$log" ] && { echo "--- $log"; tail -n 40 "$log"; }; done >&2
  fi
  psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$WORK"
  echo "smoke: $([ "$status" -eq 0 ] && echo passed || echo FAILED) in $(( $(date +%s) - START )) s (cleaned up)"
}
trap cleanup EXIT

free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
secret() { openssl rand -hex 24; }
P1=$(free_port); P2=$(free_port); HTTPS=$(free_port); HTTP=$(free_port)

# --- TLS: a self-signed certificate for 127.0.0.1, made for this run ----------------------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null

# --- the deployment's environment (docs/deploy.md: /etc/pao/pao.env) -----------------------
psql "$PG_ADMIN" -qc "CREATE DATABASE $DB" >/dev/null
"$PY" -c 'import redis, sys; redis.Redis.from_url(sys.argv[1]).flushdb()' "$REDIS_URL"
export PAO_ENV=production PAO_SANDBOX=0
export PAO_DATABASE_URL="${PG_SERVER/postgresql:/postgresql+asyncpg:}/$DB"
export PAO_REDIS_URL="$REDIS_URL" PAO_CHAT_PREFIX="smoke$$-"
export PAO_DATA_DIR="$WORK/data" PAO_PUBLIC_BASE_URL="https://127.0.0.1:$HTTPS"
export PAO_METRICS_TOKEN=$(secret) PAO_GAME_PROVIDER_KEY=$(secret)
export PAO_BANK_WEBHOOK_SECRET=$(secret) PAO_GATEWAY_WW_SECRET=$(secret)
export PAO_GATEWAY_PAYTIMZ_SECRET=$(secret) PAO_GATEWAY_PAYONEX_SECRET=$(secret)
export PAO_SHUTDOWN_GRACE_SECONDS=10
export FORWARDED_ALLOW_IPS=127.0.0.1

# --- the first deployment: migrate, then the processes start (as the systemd units run them)
# while the first staff member and the operator settings are added ------------------------
"$PAO" migrate >/dev/null 2>>"$WORK/setup.log"
for port in "$P1" "$P2"; do
  "$PAO" serve --host 127.0.0.1 --port "$port" >"$WORK/pao-$port.log" 2>&1 &
  PIDS+=($!)
done
AGENT_TOTP=$("$PY" -c 'import pyotp; print(pyotp.random_base32())')
AGENT_PASSWORD=$(secret)
"$PAO" ops staff add smoke-agent --role support --password "$AGENT_PASSWORD" \
  --name "Smoke Agent" --totp-secret "$AGENT_TOTP" >/dev/null 2>>"$WORK/setup.log"
"$PAO" ops settings set enableChatWidget true >/dev/null 2>>"$WORK/setup.log"
# No SMS provider in the smoke run: members register without a code.
"$PAO" ops settings set registerOTP false >/dev/null 2>>"$WORK/setup.log"
for port in "$P1" "$P2"; do
  for _ in $(seq 1 900); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null || { echo "smoke: :$port not ready" >&2; exit 1; }
done

# --- nginx with the shipped site config --------------------------------------------------
mkdir -p "$WORK/tmp" && chmod 0777 "$WORK/tmp" && chmod 0755 "$WORK"
sed -e "s/127\.0\.0\.1:8001/127.0.0.1:$P1/; s/127\.0\.0\.1:8002/127.0.0.1:$P2/" \
    -e "s#listen 443 ssl http2;#listen 127.0.0.1:$HTTPS ssl http2;#; /listen \[::\]/d" \
    -e "s#listen 80;#listen 127.0.0.1:$HTTP;#" \
    -e "s#/etc/ssl/pao/fullchain.pem#$WORK/cert.pem#; s#/etc/ssl/pao/privkey.pem#$WORK/key.pem#" \
    deploy/nginx/pao.conf >"$WORK/pao.conf"
cat >"$WORK/nginx.conf" <<CONF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 256; }
http {
    access_log $WORK/nginx-access.log;
    client_body_temp_path $WORK/tmp/body;
    proxy_temp_path $WORK/tmp/proxy;
    fastcgi_temp_path $WORK/tmp/fastcgi;
    uwsgi_temp_path $WORK/tmp/uwsgi;
    scgi_temp_path $WORK/tmp/scgi;
    include $WORK/pao.conf;
}
CONF
nginx -t -q -p "$WORK" -c "$WORK/nginx.conf"
nginx -p "$WORK" -c "$WORK/nginx.conf"

# --- the smoke test through the proxy -----------------------------------------------------
SMOKE_SPA=$([ -f frontend/dist/index.html ] && echo 1 || echo 0) \
SMOKE_BASE="https://127.0.0.1:$HTTPS" SMOKE_CA="$WORK/cert.pem" \
SMOKE_DIRECT="http://127.0.0.1:$P1,http://127.0.0.1:$P2" \
SMOKE_AGENT_LOGIN=smoke-agent SMOKE_AGENT_PASSWORD="$AGENT_PASSWORD" SMOKE_AGENT_TOTP="$AGENT_TOTP" \
  "$PY" deploy/smoke.py
