#!/usr/bin/env bash
# `make bench`: seed the bench database if it is missing, start a server on
# it, create API keys, run every scenario (gateway and raw SQL), and write
# bench/results/<UTC time>.json. Everything stays on 127.0.0.1.
#
# Settings (environment; BENCH_DB, BENCH_ADMIN_DB, BENCH_REDIS and
# BENCH_SERVER as in bench/common.sh):
#   BENCH_TXS       transactions to seed   4200000 (about 10.2 M tx_out, ~12 GB, ~8 min)
#   BENCH_MODE      core or consumed       core
#   BENCH_MANIFEST  the seed's manifest    bench/results/manifest-4m.json
#   BENCH_ADDR      server listen address  127.0.0.1:18080
#   BENCH_OUT       results file           bench/results/<UTC time>.json
#   BENCH_FLAGS     bench flags            --duration 10s --concurrency 1,16,64 --raw-sql
#   BENCH_KEYS      API keys the bench takes in turn  256 (each allows 10 000/min, the
#                   schema's most: 256 keep runs of 25 000 req/s clear of 429s)
#   BENCH_PPROF     PPROF_ADDR for the server (e.g. 127.0.0.1:6060)  off
#   BENCH_WIDE      wide address outputs   off. N: when BENCH_MANIFEST names no wide address,
#                   give BENCH_DB one (`bench --add-wide N`: N transactions after the tip, each
#                   paying one output to a new address and stake key and one change output
#                   elsewhere, 50 a block, like a busy deposit address; nothing when the
#                   database already holds it), write BENCH_MANIFEST's copy <name>-wide<N>.json
#                   naming it and run with that copy (scenarios utxos_by_address_wide,
#                   utxos_by_stake_wide, balance_by_address_wide, balance_by_stake_wide).
#                   Core and consumed layouts.
#   BENCH_WIDE_PER_TX     wide outputs a transaction  1 (--wide-per-tx; 200 with
#   BENCH_WIDE_PER_BLOCK  transactions a block        50 (--wide-per-block) 1000000: one block)
#   BENCH_NODE_TXS  off. N: the bench runs a fake cardano-node (node/nodetest) whose mempool
#                   holds N transactions and the server reads it (NODE_SOCKET_MAINNET):
#                   scenarios mempool, tx_status_mempool, utxos_by_address_pending
#   BENCH_WIDE_WORKLOAD   the wide workload           1 (on). 0 leaves it out. Its scenarios
#                   (wide_<endpoint>_uniform, _zipf and _sweep: UTxOs, balance and light history first
#                   page by address, UTxOs and balance by stake address, UTxOs by payment credential, tx by
#                   hash, tx status) run after the others: each request aims at a different target drawn
#                   from up to BENCH_POPULATION of each kind sampled from BENCH_DB at start,
#                   while a follower appends a block to BENCH_DB every BENCH_FOLLOW_EVERY
#                   (it writes to the database: the bench chain's tip moves for good).
#   BENCH_POPULATION      targets sampled of each kind   200000 (--population)
#   BENCH_FOLLOW_EVERY    a block this often          20s (--follow-every; 0: a still tip)
# Extra arguments go to the bench (e.g. `bash bench/run.sh --only tx_hash`).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

BENCH_TXS=${BENCH_TXS:-4200000}
BENCH_MODE=${BENCH_MODE:-core}
BENCH_MANIFEST=${BENCH_MANIFEST:-bench/results/manifest-4m.json}
BENCH_ADDR=${BENCH_ADDR:-127.0.0.1:18080}
BENCH_OUT=${BENCH_OUT:-bench/results/$(date -u +%Y%m%dT%H%M%SZ).json}
BENCH_FLAGS=${BENCH_FLAGS:---duration 10s --concurrency 1,16,64 --raw-sql}
wide_flags=(--population "${BENCH_POPULATION:-200000}" --follow-every "${BENCH_FOLLOW_EVERY:-20s}")
if [ "${BENCH_WIDE_WORKLOAD:-1}" = 0 ]; then
  wide_flags=(--wide-workload=false)
fi

case "$BENCH_ADDR" in
  127.0.0.1:*|localhost:*) ;;
  *) echo "bench: BENCH_ADDR must be on 127.0.0.1" >&2; exit 1 ;;
esac

bench_prepare bench
mkdir -p "$(dirname "$BENCH_MANIFEST")" "$(dirname "$BENCH_OUT")"

if [ ! -s "$BENCH_MANIFEST" ]; then
  echo "bench: seeding $BENCH_TXS transactions ($BENCH_MODE mode); this takes a while" >&2
  start=$(date +%s)
  "$work/syncgate" seed --db "$BENCH_DB" --txs "$BENCH_TXS" --mode "$BENCH_MODE" --manifest "$BENCH_MANIFEST"
  echo "bench: seeded in $(( $(date +%s) - start )) s" >&2
fi

if [ -n "${BENCH_WIDE:-}" ] && ! grep -q '"wide_address"' "$BENCH_MANIFEST"; then
  wide_manifest="${BENCH_MANIFEST%.json}-wide${BENCH_WIDE}.json"
  "$work/bench" --add-wide "$BENCH_WIDE" --wide-per-tx "${BENCH_WIDE_PER_TX:-1}" --wide-per-block "${BENCH_WIDE_PER_BLOCK:-50}" \
    --db "$BENCH_DB" --manifest "$BENCH_MANIFEST" --wide-manifest "$wide_manifest"
  BENCH_MANIFEST=$wide_manifest
fi

"$work/bench" --setup --admin-db "$BENCH_ADMIN_DB" --key-file "$work/keys.txt" --keys "${BENCH_KEYS:-256}"

# The server as deployed: Redis for auth, rate limits and the history-total
# cache; JSON access log at info level (to a file, as a log shipper reads it).
node_socket=
node_flags=()
if [ -n "${BENCH_NODE_TXS:-}" ]; then
  node_socket="$work/node.socket"
  node_flags=(--fake-node "$node_socket" --fake-node-txs "$BENCH_NODE_TXS")
fi
DBSYNC_MAINNET_URL="$BENCH_DB" ADMIN_DATABASE_URL="$BENCH_ADMIN_DB" REDIS_URL="$BENCH_REDIS" NODE_SOCKET_MAINNET="$node_socket" \
  LISTEN_ADDR="$BENCH_ADDR" PPROF_ADDR="${BENCH_PPROF:-}" "$BENCH_SERVER" serve >"$work/server.log" 2>&1 &
server=$!
servers+=("$server")
bench_wait "http://$BENCH_ADDR" "$server" "$work/server.log"

# The pool endpoints read a stake distribution the server computes in the
# background; its first pass (a minute or more at 4 M transactions) must be
# stored before the pool scenarios mean anything. Later runs find it stored.
for _ in $(seq 1 600); do
  grep -q '"pool stake refreshed"\|"another instance is refreshing"' "$work/server.log" && break
  psql -XAtq "$BENCH_ADMIN_DB" -c "SELECT 1 FROM syncgate.pool_stake_refresh LIMIT 1" 2>/dev/null | grep -q 1 && break
  sleep 1
done

# shellcheck disable=SC2086 # BENCH_FLAGS is a list of flags
"$work/bench" --url "http://$BENCH_ADDR" --key-file "$work/keys.txt" --db "$BENCH_DB" --admin-db "$BENCH_ADMIN_DB" \
  --manifest "$BENCH_MANIFEST" --server-pid "$server" --json "$BENCH_OUT" "${node_flags[@]}" "${wide_flags[@]}" $BENCH_FLAGS "$@"
echo "bench: server peak RSS $(grep VmHWM /proc/$server/status | awk '{print $2/1024 " MB"}'); results in $BENCH_OUT" >&2
