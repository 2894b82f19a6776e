#!/usr/bin/env bash
# Installs PostgreSQL from Debian packages when missing, starts it on 127.0.0.1:5432 and
# creates an empty test database. Sourced by .ci/run; prints nothing but its progress.
# Exports PROGRAMRUN_TEST_DATABASE_URL for the store-postgres suites.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v pg_lsclusters >/dev/null 2>&1 || [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
  echo "ci: installing PostgreSQL from Debian packages"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq postgresql >/dev/null
fi

read -r pg_version pg_cluster pg_port pg_status _ < <(pg_lsclusters -h | head -n 1)
if [ "$pg_status" != online ]; then
  echo "ci: starting PostgreSQL $pg_version/$pg_cluster on 127.0.0.1:$pg_port"
  as_root pg_ctlcluster "$pg_version" "$pg_cluster" start -- -o "-c listen_addresses=127.0.0.1"
fi

pg_password=programrun
as_root su postgres -c "psql -q -p $pg_port -c \"ALTER USER postgres PASSWORD '$pg_password'\""
as_root su postgres -c "psql -q -p $pg_port -c 'DROP DATABASE IF EXISTS programrun_test WITH (FORCE)'"
as_root su postgres -c "psql -q -p $pg_port -c 'CREATE DATABASE programrun_test'"
export PROGRAMRUN_TEST_DATABASE_URL="postgres://postgres:$pg_password@127.0.0.1:$pg_port/programrun_test"
echo "ci: PostgreSQL ready at postgres://postgres:***@127.0.0.1:$pg_port/programrun_test"
