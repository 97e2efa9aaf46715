#!/usr/bin/env bash
# A throw-away PostgreSQL cluster on a free loopback port, for the tests that run the store on
# PostgreSQL (issue 11). Installs Debian's `postgresql` package when no server is there, runs the
# cluster as an ordinary user (`postgres`, created by that package, when called as root), with
# password authentication over TCP, and removes it on stop.
#
#   source scripts/postgres.sh; pg_start; …; pg_stop      (scripts/test.sh does this)
#   eval "$(scripts/postgres.sh start)"; …; scripts/postgres.sh stop "$OPENSTORE_PG_DIR"
#
# pg_start exports OPENSTORE_TEST_POSTGRES_URL (postgres://openstore:…@127.0.0.1:PORT/openstore),
# OPENSTORE_PG_DIR (the cluster's folder), OPENSTORE_PG_BIN and OPENSTORE_PG_PORT.

pg__as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg__bin() {
  { ls -d /usr/lib/postgresql/*/bin 2>/dev/null || true; } | sort -V | tail -1
}

pg_start() {
  local bin
  bin="$(pg__bin)"
  if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
    if declare -F apt_install >/dev/null; then apt_install postgresql; else
      DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql
    fi
    bin="$(pg__bin)"
  fi
  if [[ $(id -u) -eq 0 ]] && ! id postgres >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
  fi
  local dir port password
  dir="$(mktemp -d /tmp/pgcluster.XXXXXX)"
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  password="$(python3 -c 'import secrets; print(secrets.token_hex(12))')"
  printf '%s\n' "$password" >"$dir/pwfile"
  if [[ $(id -u) -eq 0 ]]; then chown -R postgres "$dir"; fi
  pg__as_owner "$bin/initdb" -D "$dir/data" -U openstore --pwfile="$dir/pwfile" --auth-local=trust \
    --auth-host=scram-sha-256 -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; return 1; }
  # A throw-away cluster for tests need not survive a power cut: with OPENSTORE_PG_NO_FSYNC=1
  # (scripts/test.sh) it never fsyncs, so a restart after the outage test's immediate stop does not
  # first sync every file of the hundreds of test databases (minutes on a loaded machine). Process
  # crashes, which the tests cause, lose nothing either way. Benchmarks leave it on.
  if [[ "${OPENSTORE_PG_NO_FSYNC:-0}" == "1" ]]; then
    printf 'fsync = off\nsynchronous_commit = on\n' | pg__as_owner tee -a "$dir/data/postgresql.conf" >/dev/null
  fi
  # Parallel tests each open a store (5 connections): room for all of the engine tests at once.
  pg__as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=1000" start >/dev/null \
    || { cat "$dir/server.log" >&2; return 1; }
  PGPASSWORD="$password" "$bin/psql" -q -h 127.0.0.1 -p "$port" -U openstore -d postgres -c "CREATE DATABASE openstore" >/dev/null
  export OPENSTORE_PG_DIR="$dir" OPENSTORE_PG_BIN="$bin" OPENSTORE_PG_PORT="$port"
  export OPENSTORE_TEST_POSTGRES_URL="postgres://openstore:$password@127.0.0.1:$port/openstore"
}

# pg_ctl_cluster stop|start: stops or restarts the running cluster (the fault tests use it).
pg_ctl_cluster() {
  local dir="${OPENSTORE_PG_DIR:?no cluster}" bin="${OPENSTORE_PG_BIN:?no cluster}" port="${OPENSTORE_PG_PORT:?no cluster}"
  case "$1" in
    # immediate: the database goes away as in a crash (no shutdown checkpoint, which on a loaded
    # machine with many test databases took minutes); start replays the WAL.
    stop) pg__as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 120 stop >/dev/null ;;
    start) pg__as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 300 \
             -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=1000" start >/dev/null ;;
  esac
}

pg_stop() {
  local dir="${1:-${OPENSTORE_PG_DIR:-}}"
  [[ -n "$dir" && -d "$dir" ]] || return 0
  local bin="${OPENSTORE_PG_BIN:-$(pg__bin)}"
  if [[ -f "$dir/data/postmaster.pid" ]]; then pg__as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$dir"
  unset OPENSTORE_TEST_POSTGRES_URL OPENSTORE_PG_DIR OPENSTORE_PG_PORT
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
  case "${1:-}" in
    start)
      pg_start
      printf 'export OPENSTORE_TEST_POSTGRES_URL=%q OPENSTORE_PG_DIR=%q OPENSTORE_PG_BIN=%q OPENSTORE_PG_PORT=%q\n' \
        "$OPENSTORE_TEST_POSTGRES_URL" "$OPENSTORE_PG_DIR" "$OPENSTORE_PG_BIN" "$OPENSTORE_PG_PORT" ;;
    stop) pg_stop "${2:-}" ;;
    cluster) pg_ctl_cluster "$2" ;;
    *) echo "usage: $0 start | stop DIR | cluster stop|start" >&2; exit 2 ;;
  esac
fi
