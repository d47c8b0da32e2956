-- checkpoint_prune: keep the checkpoints at or above $1 (the newer of the
-- horizon and the newest tx no rollback can reach) and the newest one
-- below it: a rollback deep enough to need an older one also removes the
-- horizon tx or goes deeper than Cardano allows, and resets the index.
DELETE FROM syncgate_utxo.checkpoint
WHERE tx_id < (SELECT max(tx_id) FROM syncgate_utxo.checkpoint WHERE tx_id <= $1)
