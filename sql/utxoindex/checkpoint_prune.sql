-- checkpoint_prune: keep the checkpoints at or above the horizon $1 and
-- the newest one below it: a rollback deep enough to need an older one
-- also removes the horizon tx, which resets the index anyway.
DELETE FROM syncgate_utxo.checkpoint
WHERE tx_id < (SELECT max(tx_id) FROM syncgate_utxo.checkpoint WHERE tx_id <= $1)
