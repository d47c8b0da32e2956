#!/usr/bin/env bash
# `make bench-limit`: how far N instances sharing one Redis let a key past
# its rate limit. Starts BENCH_INSTANCES `serve` processes on one db-sync
# database, one admin database and one Redis, issues one API key at
# BENCH_LIMIT a minute, drives every instance with it at once
# (`bench --limit-check`: 4 workers each, a request every 5 ms per worker,
# far above the limit) and prints what was allowed against the exact GCRA
# allowance (burst + limit × minutes) and the busiest 60 s after the burst.
#
# Settings (environment; BENCH_DB, BENCH_ADMIN_DB, BENCH_REDIS and
# BENCH_SERVER as in bench/common.sh):
#   BENCH_INSTANCES  instances                          4
#   BENCH_LIMIT      the key's limit a minute           600
#   BENCH_DURATION   how long to drive them             2m
#   BENCH_PORT       the first instance's port          18081 (then +1 each)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh
BENCH_INSTANCES=${BENCH_INSTANCES:-4}
BENCH_LIMIT=${BENCH_LIMIT:-600}
BENCH_DURATION=${BENCH_DURATION:-2m}
BENCH_PORT=${BENCH_PORT:-18081}
bench_prepare limit
"$work/bench" --setup --admin-db "$BENCH_ADMIN_DB" --key-file "$work/keys.txt" --keys 1 --rate-limit "$BENCH_LIMIT"

urls=()
for i in $(seq 0 $((BENCH_INSTANCES - 1))); do
  addr="127.0.0.1:$((BENCH_PORT + i))"
  DBSYNC_MAINNET_URL="$BENCH_DB" ADMIN_DATABASE_URL="$BENCH_ADMIN_DB" REDIS_URL="$BENCH_REDIS" \
    RATE_LIMIT_INSTANCES="$BENCH_INSTANCES" LISTEN_ADDR="$addr" "$BENCH_SERVER" serve >"$work/server$i.log" 2>&1 &
  servers+=($!)
  urls+=("http://$addr")
done
for i in "${!urls[@]}"; do
  bench_wait "${urls[$i]}" "${servers[$i]}" "$work/server$i.log"
done

"$work/bench" --limit-check "$BENCH_LIMIT" --url "$(IFS=,; echo "${urls[*]}")" --key "$(head -1 "$work/keys.txt")" \
  --duration "$BENCH_DURATION"
