package chaingen

// Pre-Conway protocol parameter updates: the genesis delegates propose
// new parameters in a transaction's update field, one proposal per
// delegate key, and db-sync writes one param_proposal row per key with
// only the proposed parameters set. Here each era change (and the
// decentralisation falling to 0) is proposed in the epoch before it, as on
// mainnet; Conway changes parameters through governance actions instead.

// paramProposalCols: param_proposal's columns, db-sync's order.
var paramProposalCols = []string{"id", "epoch_no", "key", "min_fee_a", "min_fee_b", "max_block_size", "max_tx_size",
	"max_bh_size", "key_deposit", "pool_deposit", "max_epoch", "optimal_pool_count", "influence",
	"monetary_expand_rate", "treasury_growth_rate", "decentralisation", "entropy", "protocol_major", "protocol_minor",
	"min_utxo_value", "min_pool_cost", "cost_model_id", "price_mem", "price_step", "max_tx_ex_mem", "max_tx_ex_steps",
	"max_block_ex_mem", "max_block_ex_steps", "max_val_size", "collateral_percent", "max_collateral_inputs",
	"registered_tx_id", "coins_per_utxo_size", "pvt_motion_no_confidence", "pvt_committee_normal",
	"pvt_committee_no_confidence", "pvt_hard_fork_initiation", "dvt_motion_no_confidence", "dvt_committee_normal",
	"dvt_committee_no_confidence", "dvt_update_to_constitution", "dvt_hard_fork_initiation", "dvt_p_p_network_group",
	"dvt_p_p_economic_group", "dvt_p_p_technical_group", "dvt_p_p_gov_group", "dvt_treasury_withdrawal",
	"committee_min_size", "committee_max_term_length", "gov_action_lifetime", "gov_action_deposit", "drep_deposit",
	"drep_activity", "pvtpp_security_group", "min_fee_ref_script_cost_per_byte"}

// proposedParams is what epoch e's proposal sets for epoch e+1 (the
// values epoch_param then has): the next protocol version, and what the
// new era brings.
func (g *gen) proposedParams(e int) map[string]func(*table) {
	next := e + 1
	maj, mnr := protoOf(next)
	p := map[string]func(*table){
		"protocol_major": func(t *table) { t.int(maj) },
		"protocol_minor": func(t *table) { t.int(mnr) },
	}
	if next == firstShelley+2 {
		p["decentralisation"] = func(t *table) { t.float(0) }
	}
	switch eraOf(next) {
	case eraAlonzo:
		if eraOf(e) != eraAlonzo {
			cm := g.costModel(1)
			p["cost_model_id"] = func(t *table) { t.int(cm) }
			p["price_mem"] = func(t *table) { t.float(0.0577) }
			p["price_step"] = func(t *table) { t.float(0.0000721) }
			p["max_tx_ex_mem"] = func(t *table) { t.uint(14_000_000) }
			p["max_tx_ex_steps"] = func(t *table) { t.uint(10_000_000_000) }
			p["max_block_ex_mem"] = func(t *table) { t.uint(62_000_000) }
			p["max_block_ex_steps"] = func(t *table) { t.uint(20_000_000_000) }
			p["max_val_size"] = func(t *table) { t.uint(5000) }
			p["collateral_percent"] = func(t *table) { t.int(150) }
			p["max_collateral_inputs"] = func(t *table) { t.int(3) }
			p["coins_per_utxo_size"] = func(t *table) { t.uint(34482) }
			p["max_block_size"] = func(t *table) { t.uint(90112) }
			p["min_utxo_value"] = func(t *table) { t.uint(0) }
		}
	case eraBabbage:
		if eraOf(e) != eraBabbage {
			p["coins_per_utxo_size"] = func(t *table) { t.uint(4310) }
		}
	}
	return p
}

// proposeUpdate sends epoch e's update proposal: one param_proposal row
// per genesis delegate key, all naming the transaction.
func (g *gen) proposeUpdate(e int) func() bool {
	return func() bool {
		if g.whale < 0 {
			return false
		}
		params := g.proposedParams(e)
		_, ok := g.pay(payReq{from: g.whale, nCerts: 1, certs: func(txID int64) {
			for _, key := range g.genesisDelegates {
				g.ids.paramProposal++
				t := g.t.paramProposal
				for _, c := range paramProposalCols {
					switch c {
					case "id":
						t.int(g.ids.paramProposal)
					case "epoch_no":
						t.int(int64(e))
					case "key":
						t.bytea(key)
					case "registered_tx_id":
						t.int(txID)
					default:
						if set := params[c]; set != nil {
							set(t)
						} else {
							t.null()
						}
					}
				}
				t.end()
			}
			if g.stats.proposalEpoch == 0 {
				g.stats.proposalEpoch, g.stats.proposalTx, g.stats.proposalHash = e, txID, g.curTxHash
			}
		}})
		return ok
	}
}
