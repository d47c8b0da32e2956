package main

import (
	"fmt"
	"strings"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// blockfrostRouteSpecs ask each of the staking, portfolio and governance
// routes the list rows (blockfrost_chain.go) leave out, once per
// scenario, so every route of the family has its own p99: bf_r_<route>.
// Each names its manifest entity; a route whose entity an older manifest
// lacks is skipped.
func blockfrostRouteSpecs(m *chaingen.Manifest) []scenarioSpec {
	one := func(path string) func() ([]target, error) {
		return func() ([]target, error) {
			if strings.Contains(path, "//") || strings.HasSuffix(strings.SplitN(path, "?", 2)[0], "/") {
				return nil, nil
			}
			return []target{{path: "/api/v0" + path}}, nil
		}
	}
	paged := func(path string) func() ([]target, error) {
		return func() ([]target, error) {
			if strings.Contains(path, "//") || strings.HasSuffix(path, "/") {
				return nil, nil
			}
			return []target{bfPaged(path, 1, "asc")}, nil
		}
	}
	acct := "/accounts/" + m.Accounts.Busiest
	asset := "/assets/" + strings.ReplaceAll(m.Extras.MostHeldAsset.Unit, ".", "")
	pool := "/pools/" + m.Pools.Biggest.ID
	meta := "/pools/" + m.Pools.WithMetadata.ID
	g := m.Governance
	drep := "/governance/dreps/" + g.DRep.ID
	active := "/governance/proposals/" + g.ActiveProposal.ID
	byIndex := fmt.Sprintf("/governance/proposals/%s/%d", g.ActiveProposal.TxHash, g.ActiveProposal.CertIndex)
	var params, withdrawal string
	for _, p := range g.Proposals {
		switch p.Type {
		case "ParameterChange":
			params = "/governance/proposals/" + p.ID
		case "TreasuryWithdrawals":
			withdrawal = "/governance/proposals/" + p.ID
		}
	}
	return []scenarioSpec{
		{"bf_r_account_delegations", paged(acct + "/delegations")},
		{"bf_r_account_registrations", paged(acct + "/registrations")},
		{"bf_r_account_withdrawals", paged(acct + "/withdrawals")},
		{"bf_r_account_mirs", paged(acct + "/mirs")},
		{"bf_r_account_addresses", paged(acct + "/addresses")},
		{"bf_r_account_addresses_assets", paged(acct + "/addresses/assets")},
		{"bf_r_account_addresses_total", one(acct + "/addresses/total")},
		{"bf_r_account_utxos", paged(acct + "/utxos")},
		{"bf_r_asset_history", paged(asset + "/history")},
		{"bf_r_asset_txs", paged(asset + "/txs")},
		{"bf_r_asset_transactions", paged(asset + "/transactions")},
		{"bf_r_asset_utxos", paged(asset + "/utxos")},
		{"bf_r_metadata_label_cbor", paged(fmt.Sprintf("/metadata/txs/labels/%d/cbor", m.Extras.MetadataLabel.Label))},
		{"bf_r_pools_retired", paged("/pools/retired")},
		{"bf_r_pools_retiring", paged("/pools/retiring")},
		{"bf_r_pool_history", paged(pool + "/history")},
		{"bf_r_pool_metadata", one(meta + "/metadata")},
		{"bf_r_pool_relays", one(pool + "/relays")},
		{"bf_r_pool_blocks", paged(pool + "/blocks")},
		{"bf_r_pool_updates", paged(pool + "/updates")},
		{"bf_r_pool_votes", paged(pool + "/votes")},
		{"bf_r_drep_metadata", one(drep + "/metadata")},
		{"bf_r_drep_updates", paged(drep + "/updates")},
		{"bf_r_drep_votes", paged(drep + "/votes")},
		{"bf_r_proposal", one(active)},
		{"bf_r_proposal_by_index", one(byIndex)},
		{"bf_r_proposal_metadata", one(active + "/metadata")},
		{"bf_r_proposal_parameters", one(params + "/parameters")},
		{"bf_r_proposal_votes", paged(active + "/votes")},
		{"bf_r_proposal_withdrawals", paged(withdrawal + "/withdrawals")},
		{"bf_r_committee", one("/governance/committee")},
		{"bf_r_committee_votes", paged("/governance/committee/votes")},
		{"bf_r_committee_member_votes", paged("/governance/committee/" + g.CommitteeMember.HotID + "/votes")},
	}
}
