#!/usr/bin/env bash
# `make bench-pgcost`: how many instructions PostgreSQL spends on each of
# the cold path's one-statement reads, counted by callgrind in a
# single-user postgres over BENCH_DB: the same count to a few hundredths of
# a percent on every run, where timings on a shared VM move by 10-30 %.
# Each statement is rendered by `syncgate sql` (so BENCH_SERVER's build is
# what is counted), prepared with the server's session settings (generic
# plan, JIT off) and executed for PGCOST_N sampled targets; the figure is
# the count with the executions less the count without them, divided by
# PGCOST_N.
#
# It STOPS the PostgreSQL cluster while it counts (a single-user postgres
# needs the data directory to itself) and starts it again on exit: run it
# on a bench machine, nothing else using that cluster.
#
# Settings (environment; BENCH_DB and BENCH_SERVER as in bench/common.sh):
#   PGCOST_LAYOUT   layout, as `syncgate sql --layout` takes it   core+utxoindex
#   PGCOST_N        executions counted per statement              300
#   PGCOST_CLUSTER  "VERSION NAME" of the cluster (pg_ctlcluster)  the one in /etc/postgresql
# Arguments: statements (default: utxos_by_address balance_by_address
# tx_history_first tx_by_hash).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

PGCOST_LAYOUT=${PGCOST_LAYOUT:-core+utxoindex}
PGCOST_N=${PGCOST_N:-300}
read -r pg_version pg_name <<<"${PGCOST_CLUSTER:-$(ls /etc/postgresql) main}"
pg_data=$(pg_lsclusters -h "$pg_version" "$pg_name" | awk '{print $6}')
pg_bin=/usr/lib/postgresql/$pg_version/bin/postgres
pg_conf=/etc/postgresql/$pg_version/$pg_name/postgresql.conf
db_name=$(basename "${BENCH_DB%%\?*}")
statements=("$@")
[ ${#statements[@]} -gt 0 ] || statements=(utxos_by_address balance_by_address tx_history_first tx_by_hash)
command -v valgrind >/dev/null || { echo "pgcost: needs valgrind (apt-get install valgrind)" >&2; exit 1; }

bench_prepare pgcost
scripts=$(mktemp -d "${TMPDIR:-/tmp}/syncgate-pgcost-scripts.XXXXXX")
chmod 1777 "$scripts" # the callgrind output is written by the cluster's owner
restart() {
  pg_ctlcluster --skip-systemctl-redirect "$pg_version" "$pg_name" start 2>/dev/null || true
  rm -rf "$scripts"
  bench_cleanup
}
trap restart EXIT

# Targets as the wide workload draws them: ordinary addresses (at most
# 10,000 outputs; spread over the whole set by a page sample) and
# transactions, in a fixed order for a fixed database.
psql -XAtq "$BENCH_DB" -c "
  WITH a AS (SELECT DISTINCT address FROM tx_out TABLESAMPLE SYSTEM (1) REPEATABLE (11))
  SELECT address FROM a
  WHERE (SELECT count(*) FROM (SELECT 1 FROM tx_out o WHERE o.address = a.address LIMIT 10001) x) <= 10000
  ORDER BY md5(address) LIMIT $PGCOST_N" >"$scripts/addresses"
psql -XAtq "$BENCH_DB" -c "
  SELECT encode(hash, 'hex') FROM tx TABLESAMPLE SYSTEM (1) REPEATABLE (5)
  ORDER BY md5(hash::text) LIMIT $PGCOST_N" >"$scripts/hashes"

# script NAME N: the single-user input for statement NAME executed N times
# (-j: a command ends at a semicolon and an empty line).
script() {
  local types args targets
  case $1 in
    utxos_by_address) types='(text, bigint, integer, integer)' args="'%s', -1, -1, 1000" targets=addresses ;;
    balance_by_address) types='(text)' args="'%s'" targets=addresses ;;
    tx_history_first) types='(text, bigint, bigint, bigint, boolean)' args="'%s', 1000, 0, 101, false" targets=addresses ;;
    tx_by_hash) types='(bytea)' args="decode('%s', 'hex')" targets=hashes ;;
    *) echo "pgcost: no parameters known for $1" >&2; exit 1 ;;
  esac
  # The server's session settings (dbsync/engine sessionOptions).
  printf 'SET plan_cache_mode = force_generic_plan;\n\nSET jit = off;\n\nSET max_parallel_workers_per_gather = 0;\n\n'
  printf 'PREPARE s%s AS\n' "$types"
  "$BENCH_SERVER" sql --layout "$PGCOST_LAYOUT" "sql/dbsync/$1.sql"
  printf ';\n\n'
  head -n "$2" "$scripts/$targets" | while read -r t; do printf "EXECUTE s($args);\n\n" "$t"; done
}

# count FILE: instructions of a single-user postgres reading FILE.
count() {
  chmod 644 "$1"
  runuser -u postgres -- valgrind --tool=callgrind --callgrind-out-file="$scripts/out" \
    "$pg_bin" --single -j -D "$pg_data" -c config_file="$pg_conf" "$db_name" <"$1" >"$scripts/log" 2>&1
  if grep -q 'ERROR' "$scripts/log"; then grep -m 3 'ERROR' "$scripts/log" >&2; exit 1; fi
  awk '/^(summary|totals):/ {print $2; exit}' "$scripts/out"
}

for s in "${statements[@]}"; do
  script "$s" 0 >"$scripts/$s-0.sql"
  script "$s" "$PGCOST_N" >"$scripts/$s-n.sql"
done
pg_ctlcluster --skip-systemctl-redirect "$pg_version" "$pg_name" stop
printf '%-22s %14s\n' statement 'instructions'
for s in "${statements[@]}"; do
  base=$(count "$scripts/$s-0.sql")
  all=$(count "$scripts/$s-n.sql")
  printf '%-22s %14d\n' "$s" $(((all - base) / PGCOST_N))
done
