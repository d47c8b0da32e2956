-- gov_proposal_parameters: the parameters a ParameterChange proposal
-- sets (param_proposal.id $1), as Blockfrost's proposal_parameters names
-- them: lovelace, execution units and the Conway counts and deposits as
-- decimal text, the rest as numbers, NULL where the proposal leaves a
-- parameter alone; the cost models as db-sync stores them.
-- Indexes: param_proposal_pkey; cost_model_pkey.
SELECT (jsonb_build_object(
    'epoch', pp.epoch_no, 'min_fee_a', pp.min_fee_a, 'min_fee_b', pp.min_fee_b,
    'max_block_size', pp.max_block_size, 'max_tx_size', pp.max_tx_size,
    'max_block_header_size', pp.max_bh_size, 'key_deposit', pp.key_deposit::text,
    'pool_deposit', pp.pool_deposit::text, 'e_max', pp.max_epoch, 'n_opt', pp.optimal_pool_count,
    'a0', pp.influence, 'rho', pp.monetary_expand_rate, 'tau', pp.treasury_growth_rate,
    'decentralisation_param', pp.decentralisation, 'extra_entropy', encode(pp.entropy, 'hex'),
    'protocol_major_ver', pp.protocol_major, 'protocol_minor_ver', pp.protocol_minor,
    'min_utxo', COALESCE(pp.coins_per_utxo_size, pp.min_utxo_value)::text,
    'min_pool_cost', pp.min_pool_cost::text, 'cost_models', cm.costs::jsonb,
    'price_mem', pp.price_mem, 'price_step', pp.price_step,
    'max_tx_ex_mem', pp.max_tx_ex_mem::text, 'max_tx_ex_steps', pp.max_tx_ex_steps::text,
    'max_block_ex_mem', pp.max_block_ex_mem::text, 'max_block_ex_steps', pp.max_block_ex_steps::text,
    'max_val_size', pp.max_val_size::text, 'collateral_percent', pp.collateral_percent,
    'max_collateral_inputs', pp.max_collateral_inputs,
    'coins_per_utxo_size', pp.coins_per_utxo_size::text, 'coins_per_utxo_word', pp.coins_per_utxo_size::text)
  || jsonb_build_object(
    'pvt_motion_no_confidence', pp.pvt_motion_no_confidence, 'pvt_committee_normal', pp.pvt_committee_normal,
    'pvt_committee_no_confidence', pp.pvt_committee_no_confidence,
    'pvt_hard_fork_initiation', pp.pvt_hard_fork_initiation,
    'dvt_motion_no_confidence', pp.dvt_motion_no_confidence, 'dvt_committee_normal', pp.dvt_committee_normal,
    'dvt_committee_no_confidence', pp.dvt_committee_no_confidence,
    'dvt_update_to_constitution', pp.dvt_update_to_constitution,
    'dvt_hard_fork_initiation', pp.dvt_hard_fork_initiation, 'dvt_p_p_network_group', pp.dvt_p_p_network_group,
    'dvt_p_p_economic_group', pp.dvt_p_p_economic_group, 'dvt_p_p_technical_group', pp.dvt_p_p_technical_group,
    'dvt_p_p_gov_group', pp.dvt_p_p_gov_group, 'dvt_treasury_withdrawal', pp.dvt_treasury_withdrawal,
    'committee_min_size', pp.committee_min_size::text, 'committee_max_term_length', pp.committee_max_term_length::text,
    'gov_action_lifetime', pp.gov_action_lifetime::text, 'gov_action_deposit', pp.gov_action_deposit::text,
    'drep_deposit', pp.drep_deposit::text, 'drep_activity', pp.drep_activity::text,
    'pvtpp_security_group', pp.pvtpp_security_group, 'pvt_p_p_security_group', pp.pvtpp_security_group,
    'min_fee_ref_script_cost_per_byte', pp.min_fee_ref_script_cost_per_byte))::text AS parameters
FROM param_proposal pp
LEFT JOIN cost_model cm ON cm.id = pp.cost_model_id
WHERE pp.id = $1
