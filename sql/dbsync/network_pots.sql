-- network_pots: the newest ada_pots row (db-sync's ledger pots, taken at each
-- epoch's first block): its epoch and pots in lovelace (exact, text). No row
-- when db-sync keeps none (ledger disabled, or no Shelley epoch yet).
-- ada_pots has a row an epoch: small, no index needed.
SELECT p.epoch_no::bigint AS epoch, p.treasury::text AS treasury, p.reserves::text AS reserves,
  p.rewards::text AS rewards, p.utxo::text AS utxo
FROM ada_pots p
ORDER BY p.epoch_no DESC, p.id DESC
LIMIT 1
