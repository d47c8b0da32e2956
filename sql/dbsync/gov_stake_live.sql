-- gov_stake_live: the stake addresses $1 (bigint[] of stake_address.id, at
-- most a page) with their live stake, in the array's order: unspent
-- outputs + rewards and instantaneous rewards spendable by epoch $2 -
-- withdrawals (as pool_stake.sql). "Unspent" per layout: see
-- utxos_by_address.sql.
-- Indexes: stake_address_pkey; idx_tx_out_stake_address_id (core: and
-- idx_tx_in_tx_out_id; consumed: sg_tx_out_unspent_stake); idx_reward_addr_id;
-- sg_reward_rest_addr_id; idx_withdrawal_addr_id.
SELECT sa.view AS address,
  ((SELECT COALESCE(sum(o.value), 0) FROM tx_out o
    WHERE o.stake_address_id = a.id AND {{unspent "o"}})
   + (SELECT COALESCE(sum(r.amount), 0) FROM reward r
      WHERE r.addr_id = a.id AND r.spendable_epoch <= $2)
   + (SELECT COALESCE(sum(r.amount), 0) FROM reward_rest r
      WHERE r.addr_id = a.id AND r.spendable_epoch <= $2)
   - (SELECT COALESCE(sum(w.amount), 0) FROM withdrawal w
      WHERE w.addr_id = a.id))::text AS amount
FROM unnest($1::bigint[]) WITH ORDINALITY a(id, n)
JOIN stake_address sa ON sa.id = a.id
ORDER BY a.n
