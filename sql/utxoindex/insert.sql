-- insert: index the outputs of the transactions in ($1, $2] (H, H'). An
-- output already spent by a tx at or below the horizon $3 is final and
-- left out (on the first build that is nearly every spent output, so each
-- is read once and never written); one spent by a tx in (horizon, H'] is
-- stored marked, so a rollback can unmark it; the rest are live. Any tx_in
-- row counts as a spend, as in the core-mode anti-join.
-- Indexes: unique_txout (tx_id range), sg_tx_in_tx_out_id_index (one probe
-- per output){{if .AddressTable}}, address_pkey{{end}}.
INSERT INTO syncgate_utxo.output (tx_id, index, tx_out_id, {{if .AddressTable}}address_id{{else}}address{{end}}, payment_cred, stake_address_id, spent_by_tx_id)
SELECT o.tx_id, o.index, o.id, {{if .AddressTable}}o.address_id, a.payment_cred{{else}}o.address, o.payment_cred{{end}}, o.stake_address_id,
  CASE WHEN s.tx_in_id <= $2 THEN s.tx_in_id END
FROM tx_out o
{{if .AddressTable}}JOIN address a ON a.id = o.address_id
{{end -}}
CROSS JOIN LATERAL (
  SELECT min(i.tx_in_id) AS tx_in_id FROM tx_in i
  WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index
) s
WHERE o.tx_id > $1 AND o.tx_id <= $2
  AND (s.tx_in_id IS NULL OR s.tx_in_id > $3)
ON CONFLICT (tx_id, index) DO UPDATE SET
  tx_out_id = EXCLUDED.tx_out_id,
  {{if .AddressTable}}address_id = EXCLUDED.address_id{{else}}address = EXCLUDED.address{{end}},
  payment_cred = EXCLUDED.payment_cred,
  stake_address_id = EXCLUDED.stake_address_id,
  spent_by_tx_id = EXCLUDED.spent_by_tx_id
