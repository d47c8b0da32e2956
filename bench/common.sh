# Sourced by bench/run.sh and bench/limitcheck.sh (from the repository
# root): the databases and Redis both use, a work directory that goes on
# exit together with the servers started into it and the API keys issued
# into it, the binaries built from this tree, and waiting for a server.
#
#   BENCH_DB        db-sync database       postgres://postgres@127.0.0.1:5432/sg_bench_4m?sslmode=disable
#   BENCH_ADMIN_DB  admin schema database  postgres://postgres@127.0.0.1:5432/sg_bench_admin?sslmode=disable
#   BENCH_REDIS     Redis                  redis://127.0.0.1:6379/0
#   BENCH_SERVER    server binary to run   built from this tree (set it to compare builds)
BENCH_DB=${BENCH_DB:-postgres://postgres@127.0.0.1:5432/sg_bench_4m?sslmode=disable}
BENCH_ADMIN_DB=${BENCH_ADMIN_DB:-postgres://postgres@127.0.0.1:5432/sg_bench_admin?sslmode=disable}
BENCH_REDIS=${BENCH_REDIS:-redis://127.0.0.1:6379/0}

# servers: the pids of the servers started, stopped on exit.
servers=()

bench_cleanup() {
  for pid in "${servers[@]}"; do
    kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  done
  # Revoke this run's keys (setup wrote them and their ids under $work).
  if [ -s "$work/keys.txt.ids" ]; then
    "$work/bench" --teardown --admin-db "$BENCH_ADMIN_DB" --key-file "$work/keys.txt" || true
  fi
  rm -rf "$work"
}

# bench_prepare NAME: makes $work (syncgate-NAME.XXXXXX, removed on exit)
# and builds $work/syncgate and $work/bench.
bench_prepare() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/syncgate-$1.XXXXXX")
  trap bench_cleanup EXIT
  go build -o "$work/syncgate" .
  go build -o "$work/bench" ./bench
  BENCH_SERVER=${BENCH_SERVER:-$work/syncgate}
}

# bench_wait URL PID LOG: waits up to 60 s for the server PID to answer
# URL/v1/health; prints its LOG and exits when it stopped instead.
bench_wait() {
  for _ in $(seq 1 60); do
    curl -fsS "$1/v1/health" >/dev/null 2>&1 && return 0
    kill -0 "$2" 2>/dev/null || { cat "$3" >&2; exit 1; }
    sleep 1
  done
}
