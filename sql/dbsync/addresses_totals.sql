-- addresses_totals: what an address (Owner "address"), every address of
-- a payment credential (Owner "credential") or of a stake key (Owner
-- "stake": Blockfrost's /accounts/{s}/addresses/total) ever received and sent, and
-- its transactions: one row of lovelace (NULL policy) with received (every
-- output paid to it), sent (those spent since) and tx_count (the distinct
-- transactions that pay to it or spend from it, as the history engine
-- counts them), then one row per native asset ever received (sent NULL
-- when none of it was spent). One statement, so the three agree.
-- "Spent": core, a tx_in row names the output (a failed transaction's
-- collateral inputs too); consumed, consumed_by_tx_id.
-- $1 address text, bytea payment credential, or bytea[] candidate
-- stake_address.hash_raw values (preferred first)
-- Indexes: sg_tx_out_address_tx_id (address), idx_tx_out_payment_cred
-- (credential) or unique_stake_address, idx_tx_out_stake_address_id (stake); core: sg_tx_in_tx_out_id_index (one probe per output,
-- index-only); idx_ma_tx_out_tx_out_id; multi_asset_pkey.
WITH {{if eq .Owner "stake"}}stake AS MATERIALIZED (
{{template "stake_id"}}
), {{end}}outs AS MATERIALIZED (
  SELECT
    o.id,
    o.tx_id,
    o.value,
{{- if .Consumed}}
    o.consumed_by_tx_id AS spent_by
{{- else}}
    (SELECT i.tx_in_id FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index LIMIT 1) AS spent_by
{{- end}}
  FROM tx_out o
  WHERE {{template "owner_o" .Owner}}
), held AS MATERIALIZED (
  SELECT mto.ident, sum(mto.quantity) AS received, sum(mto.quantity) FILTER (WHERE u.spent_by IS NOT NULL) AS sent
  FROM outs u
  JOIN ma_tx_out mto ON mto.tx_out_id = u.id
  GROUP BY mto.ident
)
SELECT
  NULL::text AS policy,
  NULL::text AS name,
  COALESCE(sum(u.value), 0)::text AS received,
  COALESCE(sum(u.value) FILTER (WHERE u.spent_by IS NOT NULL), 0)::text AS sent,
  (SELECT count(*) FROM (SELECT tx_id FROM outs UNION SELECT spent_by FROM outs WHERE spent_by IS NOT NULL) t) AS tx_count
FROM outs u
UNION ALL
SELECT encode(ma.policy, 'hex'), encode(ma.name, 'hex'), h.received::text, h.sent::text, NULL
FROM multi_asset ma
JOIN held h ON h.ident = ma.id
WHERE ma.id = ANY(ARRAY(SELECT ident FROM held))
