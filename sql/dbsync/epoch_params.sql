-- epoch_params: the protocol parameters in force in an epoch, with their
-- Plutus cost models (GET /v1/epochs/:epoch/parameters and /latest).
-- $1 epoch number. Returns the newest epoch_param row at or before $1
-- (db-sync writes one per epoch from the first Shelley epoch on, at the
-- epoch's first block): a caller asking for exactly $1 checks epoch_no.
-- No row when there is none (Byron epochs, ledger: disable).
-- Amounts and word64 figures as text (exact), hashes as hex, the cost
-- models as db-sync stores them (jsonb, or text under
-- remove_jsonb_from_schema: read as text either way).
-- Indexes: none on epoch_param.epoch_no in db-sync, and none needed: the
-- table has one row per epoch (a few hundred on mainnet, never a big
-- table); cost_model_pkey for the cost models.
SELECT
  ep.epoch_no,
  ep.min_fee_a,
  ep.min_fee_b,
  ep.max_block_size,
  ep.max_tx_size,
  ep.max_bh_size,
  ep.key_deposit::text AS key_deposit,
  ep.pool_deposit::text AS pool_deposit,
  ep.max_epoch,
  ep.optimal_pool_count,
  ep.influence,
  ep.monetary_expand_rate,
  ep.treasury_growth_rate,
  ep.decentralisation,
  encode(ep.extra_entropy, 'hex') AS extra_entropy,
  ep.protocol_major,
  ep.protocol_minor,
  ep.min_utxo_value::text AS min_utxo_value,
  ep.min_pool_cost::text AS min_pool_cost,
  encode(ep.nonce, 'hex') AS nonce,
  cm.costs::text AS cost_models,
  ep.price_mem,
  ep.price_step,
  ep.max_tx_ex_mem::text AS max_tx_ex_mem,
  ep.max_tx_ex_steps::text AS max_tx_ex_steps,
  ep.max_block_ex_mem::text AS max_block_ex_mem,
  ep.max_block_ex_steps::text AS max_block_ex_steps,
  ep.max_val_size::text AS max_val_size,
  ep.collateral_percent,
  ep.max_collateral_inputs,
  ep.coins_per_utxo_size::text AS coins_per_utxo_size,
  ep.pvt_motion_no_confidence,
  ep.pvt_committee_normal,
  ep.pvt_committee_no_confidence,
  ep.pvt_hard_fork_initiation,
  ep.pvtpp_security_group,
  ep.dvt_motion_no_confidence,
  ep.dvt_committee_normal,
  ep.dvt_committee_no_confidence,
  ep.dvt_update_to_constitution,
  ep.dvt_hard_fork_initiation,
  ep.dvt_p_p_network_group,
  ep.dvt_p_p_economic_group,
  ep.dvt_p_p_technical_group,
  ep.dvt_p_p_gov_group,
  ep.dvt_treasury_withdrawal,
  ep.committee_min_size::text AS committee_min_size,
  ep.committee_max_term_length::text AS committee_max_term_length,
  ep.gov_action_lifetime::text AS gov_action_lifetime,
  ep.gov_action_deposit::text AS gov_action_deposit,
  ep.drep_deposit::text AS drep_deposit,
  ep.drep_activity::text AS drep_activity,
  ep.min_fee_ref_script_cost_per_byte
FROM epoch_param ep
LEFT JOIN cost_model cm ON cm.id = ep.cost_model_id
WHERE ep.epoch_no <= $1
ORDER BY ep.epoch_no DESC, ep.id DESC
LIMIT 1
