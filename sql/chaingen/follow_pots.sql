-- follow_pots: what the ledger's pots at the start of epoch $1 are made of:
-- the previous epoch's pots, and what epoch $1 - 1 changed (fees, deposits,
-- withdrawals, rewards and instant rewards now spendable), with the UTxO
-- total now. Rendered per layout by dbsync.Render.
WITH prev AS (
  SELECT treasury, rewards, deposits_stake FROM ada_pots WHERE epoch_no < $1 ORDER BY epoch_no DESC LIMIT 1
), ep AS (
  SELECT COALESCE(sum(t.fee), 0) AS fees, COALESCE(sum(t.deposit), 0) AS deposits
  FROM tx t JOIN block b ON b.id = t.block_id WHERE b.epoch_no = $1 - 1
), wd AS (
  SELECT COALESCE(sum(w.amount), 0) AS amount
  FROM withdrawal w JOIN tx t ON t.id = w.tx_id JOIN block b ON b.id = t.block_id WHERE b.epoch_no = $1 - 1
), rw AS (
  SELECT (SELECT COALESCE(sum(amount), 0) FROM reward WHERE spendable_epoch = $1)
       + (SELECT COALESCE(sum(amount), 0) FROM reward_rest WHERE spendable_epoch = $1) AS amount
)
SELECT COALESCE((SELECT treasury FROM prev), 0)::text,
       GREATEST(COALESCE((SELECT rewards FROM prev), 0) + rw.amount - wd.amount, 0)::text,
       GREATEST(COALESCE((SELECT deposits_stake FROM prev), 0) + ep.deposits, 0)::text,
       ep.fees::text,
       (SELECT COALESCE(sum(o.value), 0) FROM tx_out o WHERE {{unspent "o"}})::text
FROM ep, wd, rw
