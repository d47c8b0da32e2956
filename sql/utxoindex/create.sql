-- create: syncgate's unspent-output index beside db-sync, in a schema of
-- its own (db-sync's tables are never written). A template over the
-- db-sync layout: the address-table variant keys outputs by address_id.
-- Format version: utxoindex.formatVersion (meta.version); a mismatch drops
-- and rebuilds the schema. Indexes added since (output_spent_address) do
-- not change it: on an index built without them this file runs again
-- (every statement is IF NOT EXISTS) and adds them in place, and an older
-- build sharing the database keeps maintaining it (PostgreSQL keeps every
-- index of the table current) instead of rebuilding it.
--
-- output: every output of a transaction with id <= H (the newest
--   checkpoint) that is not known to be spent at a safe depth: live rows
--   (spent_by_tx_id NULL) and, for rewinding a rollback, rows spent by a
--   transaction above the horizon (spent_by_tx_id set). Keyed by the
--   output's position, which is also how tx_in names what it spends.
-- checkpoint: one row per step: the high-water tx (H) with its tx and block
--   hashes, so a reader can tell whether db-sync rolled back below it, and
--   the horizon: outputs spent by a tx at or below it are left out or
--   swept; the horizon tx's hashes say whether that is still true.
CREATE SCHEMA IF NOT EXISTS syncgate_utxo;
CREATE TABLE IF NOT EXISTS syncgate_utxo.meta (
  version integer NOT NULL,
  address_table boolean NOT NULL
);
CREATE TABLE IF NOT EXISTS syncgate_utxo.output (
  tx_id bigint NOT NULL,
  index smallint NOT NULL,
  tx_out_id bigint NOT NULL,
  {{if .AddressTable}}address_id bigint NOT NULL{{else}}address varchar NOT NULL{{end}},
  payment_cred bytea,
  stake_address_id bigint,
  spent_by_tx_id bigint,
  PRIMARY KEY (tx_id, index)
);
CREATE INDEX IF NOT EXISTS output_live_address ON syncgate_utxo.output ({{if .AddressTable}}address_id{{else}}address{{end}}, tx_id, index) INCLUDE (tx_out_id) WHERE spent_by_tx_id IS NULL;
CREATE INDEX IF NOT EXISTS output_live_stake ON syncgate_utxo.output (stake_address_id, tx_id, index) INCLUDE (tx_out_id) WHERE spent_by_tx_id IS NULL AND stake_address_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS output_live_payment_cred ON syncgate_utxo.output (payment_cred, tx_id, index) INCLUDE (tx_out_id) WHERE spent_by_tx_id IS NULL AND payment_cred IS NOT NULL;
CREATE INDEX IF NOT EXISTS output_spent_by ON syncgate_utxo.output (spent_by_tx_id) WHERE spent_by_tx_id IS NOT NULL;
-- The marked rows by address and spending tx: an address's spends of the
-- last Keep blocks, newest first, for the newest history pages
-- (dbsync/tx_history_recent.sql), which core mode otherwise finds only by
-- probing tx_in for the address's every output.
CREATE INDEX IF NOT EXISTS output_spent_address ON syncgate_utxo.output ({{if .AddressTable}}address_id{{else}}address{{end}}, spent_by_tx_id) WHERE spent_by_tx_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS syncgate_utxo.checkpoint (
  tx_id bigint PRIMARY KEY,
  tx_hash bytea NOT NULL,
  block_hash bytea NOT NULL,
  horizon_tx_id bigint NOT NULL DEFAULT 0,
  horizon_tx_hash bytea,
  horizon_block_hash bytea,
  created_at timestamptz NOT NULL DEFAULT now()
);
