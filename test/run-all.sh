#!/usr/bin/env bash
# The whole test suite: type-check, lint, unit and e2e tests on SQLite, and the e2e suite again on
# PostgreSQL. PostgreSQL comes from TEST_DATABASE_URL, or else from a throwaway cluster made
# with the local PostgreSQL binaries (Debian's `postgresql` package); without either it is
# skipped with a notice, unless REQUIRE_POSTGRES=1 (CI), which makes that an error.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_OPTIONS=--experimental-vm-modules

# The checks and the build, in two lanes side by side: each step is one single-threaded process,
# so on two cores a lane of its own each takes about as long as the longer lane alone; the steps
# are split so that the lanes take about as long as each other (measured in CPU seconds: tsc
# about 30, the build 20, Prettier 25, ESLint 70, the web page's tsc 6, Redocly 2). A lane's
# output is held in a file and printed once both are done, so the two are not interleaved.
check_types_format_and_build() {
  echo "== type-check (tsconfig.json: src, test, bench)"
  npx tsc -p tsconfig.json --noEmit
  echo "== formatting (Prettier, .prettierrc.json; npm run format fixes it)"
  npm run --silent format:check
  # dist/ for the specs that start the built server or CLI (crash-durability, telegram-crash, start-up, api-keys) (incremental: fast when unchanged).
  [ -f dist/src/main.js ] || rm -f dist/.tsbuildinfo
  npm run --silent build -- --incremental --tsBuildInfoFile dist/.tsbuildinfo
}
check_lint() {
  echo "== lint: the layering of src/ and a few TypeScript rules (eslint.config.js, docs/architecture.md)"
  npm run --silent lint
  echo "== type-check of the web page's ES modules with their JSDoc types (web/tsconfig.json: strict)"
  npx tsc -p web/tsconfig.json
  echo "== OpenAPI lint of docs/openapi.json (redocly.yaml; its staleness is checked by test/e2e/http/openapi.e2e-spec.ts)"
  npm run --silent openapi:lint
}
lane_a=$(mktemp /tmp/chat-memory-checks.XXXXXX)
lane_b=$(mktemp /tmp/chat-memory-checks.XXXXXX)
(set -e; check_types_format_and_build) >"$lane_a" 2>&1 &
types_pid=$!
(set -e; check_lint) >"$lane_b" 2>&1 &
lint_pid=$!
types_rc=0 lint_rc=0
wait "$types_pid" || types_rc=$?
wait "$lint_pid" || lint_rc=$?
cat "$lane_a" "$lane_b"
rm -f "$lane_a" "$lane_b"
if [ $types_rc != 0 ] || [ $lint_rc != 0 ]; then
  echo "== checks FAILED (type-check, formatting and build: $types_rc; lint, web type-check and OpenAPI lint: $lint_rc)" >&2
  exit 1
fi
checks_done=$SECONDS
echo "== checks done in ${checks_done} s"
jest_args=("$@")
# Two Jest workers: each runs one test file at a time, in a process replaced once it grows past
# jest.config.js's workerIdleMemoryLimit. TEST_SERIAL=1 runs one file at a time.
workers=2
[ -n "${TEST_SERIAL:-}" ] && workers=1
run_sqlite() {
  echo "== unit and e2e tests on SQLite"
  TEST_DATABASE_URL= TEST_POSTGRES_PASS_URL= npx jest --maxWorkers=$workers "${jest_args[@]}"
  echo "== tests done in $((SECONDS - checks_done)) s"
}
# Both passes in one Jest run (jest.config.js: a project per database, sharing the workers, so
# the two end together): the SQLite pass runs every unit and e2e test; the PostgreSQL pass runs
# the e2e tests but those of test/e2e/web, the browser specs, which test the page's JavaScript
# against the HTTP API and run in the SQLite pass only (the API under them is tested on both
# databases by the other e2e folders). Jest tags each file with its pass (sqlite, postgres).
run_both() {
  echo "== unit and e2e tests on SQLite, e2e tests on PostgreSQL"
  local rc=0
  TEST_DATABASE_URL= TEST_POSTGRES_PASS_URL="$1" npx jest --maxWorkers=$workers "${jest_args[@]}" || rc=$?
  echo "== tests done in $((SECONDS - checks_done)) s"
  return $rc
}

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  run_both "$TEST_DATABASE_URL"
  exit $?
fi

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] && command -v pg_config >/dev/null; then bindir=$(pg_config --bindir); fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  if [ -n "${REQUIRE_POSTGRES:-}" ]; then
    echo "PostgreSQL binaries not found, and REQUIRE_POSTGRES is set" >&2
    exit 1
  fi
  run_sqlite
  echo "PostgreSQL not found: the e2e suite ran on SQLite only. Install postgresql or set TEST_DATABASE_URL to run it on PostgreSQL as well."
  exit 0
fi

# A throwaway cluster on a free port, removed on exit. initdb refuses to run as root. Two test
# files may run against it at once, each with apps of their own pools: room for 400 connections.
pgdir=$(mktemp -d /tmp/chat-memory-pg.XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$pgdir"
  as_pg=(runuser -u postgres --)
fi
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
cleanup() {
  "${as_pg[@]}" "$bindir/pg_ctl" -D "$pgdir/data" stop -m immediate >/dev/null 2>&1 || true
  rm -rf "$pgdir"
}
trap cleanup EXIT
"${as_pg[@]}" "$bindir/initdb" -D "$pgdir/data" -U postgres --auth=trust --no-sync >/dev/null
"${as_pg[@]}" "$bindir/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w \
  -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400" start >/dev/null
"$bindir/psql" -q -h 127.0.0.1 -p "$port" -U postgres -c 'CREATE DATABASE chat_test' >/dev/null
run_both "postgres://postgres@127.0.0.1:$port/chat_test"
