package main

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// The dialect's staking, portfolio and governance lists (accounts,
// assets, metadata, pools, DReps), each at page 1 and at a deep page: the
// page of the list's last items oldest first (so its cost is the deep
// page's, not a short one's), from the sizes the manifest names. They
// have no /v1 counterpart sharing a store call and no raw run.

// deepPage is the last full-count page of a list of n items (1 when n
// fits one page).
func deepPage(n int) int { return max(1, n/bfPageCount) }

// bfPaged is /api/v0<path> at count 100, the page and order given.
func bfPaged(path string, page int, order string) target {
	q := url.Values{"count": {"100"}, "page": {fmt.Sprint(page)}, "order": {order}}
	return target{path: "/api/v0" + path + "?" + q.Encode()}
}

// blockfrostChainSpecs are the part of the dialect a staking or
// governance screen reads (skipped where an older manifest names no such
// entity).
func blockfrostChainSpecs(m *chaingen.Manifest) []scenarioSpec {
	one := func(ts ...target) func() ([]target, error) {
		return func() ([]target, error) {
			for _, t := range ts {
				if strings.Contains(t.path, "//") || strings.HasSuffix(strings.SplitN(t.path, "?", 2)[0], "/") {
					return nil, nil // the manifest names no such entity: skipped
				}
			}
			return ts, nil
		}
	}
	stake := m.BusiestStakeKey.StakeAddress
	pool := m.Pools.Biggest
	drep := m.Governance.DRep
	held := m.Extras.MostHeldAsset
	label := m.Extras.MetadataLabel
	policy := m.Extras.BigPolicy
	labelPath := fmt.Sprintf("/metadata/txs/labels/%d", label.Label)
	return []scenarioSpec{
		{"bf_account", one(target{path: "/api/v0/accounts/" + stake})},
		{"bf_account_rewards_p1", one(bfPaged("/accounts/"+stake+"/rewards", 1, "desc"))},
		{"bf_account_history_p1", one(bfPaged("/accounts/"+stake+"/history", 1, "desc"))},
		{"bf_account_txs_p1", one(bfPaged("/accounts/"+stake+"/transactions", 1, "desc"))},
		{"bf_account_txs_deep", one(bfPaged("/accounts/"+stake+"/transactions", 50, "asc"))},
		{"bf_asset", one(target{path: "/api/v0/assets/" + strings.ReplaceAll(held.Unit, ".", "")})},
		{"bf_asset_addresses_p1", one(bfPaged("/assets/"+strings.ReplaceAll(held.Unit, ".", "")+"/addresses", 1, "asc"))},
		{"bf_asset_addresses_deep", one(bfPaged("/assets/"+strings.ReplaceAll(held.Unit, ".", "")+"/addresses", deepPage(held.Holders), "asc"))},
		{"bf_assets_policy_p1", one(bfPaged("/assets/policy/"+policy.Policy, 1, "asc"))},
		{"bf_assets_p1", one(bfPaged("/assets", 1, "asc"))},
		{"bf_metadata_label_p1", one(bfPaged(labelPath, 1, "desc"))},
		{"bf_metadata_label_deep", one(bfPaged(labelPath, deepPage(label.Txs), "asc"))},
		{"bf_metadata_labels", one(bfPaged("/metadata/txs/labels", 1, "asc"))},
		{"bf_pools_p1", one(bfPaged("/pools", 1, "asc"))},
		{"bf_pools_extended_p1", one(bfPaged("/pools/extended", 1, "asc"))},
		{"bf_pool", one(target{path: "/api/v0/pools/" + pool.ID})},
		{"bf_pool_delegators_p1", one(bfPaged("/pools/"+pool.ID+"/delegators", 1, "asc"))},
		{"bf_pool_delegators_deep", one(bfPaged("/pools/"+pool.ID+"/delegators", deepPage(pool.Delegators), "asc"))},
		{"bf_dreps_p1", one(bfPaged("/governance/dreps", 1, "asc"))},
		{"bf_drep", one(target{path: "/api/v0/governance/dreps/" + drep.ID})},
		{"bf_drep_delegators_p1", one(bfPaged("/governance/dreps/"+drep.ID+"/delegators", 1, "asc"))},
		{"bf_drep_delegators_deep", one(bfPaged("/governance/dreps/"+drep.ID+"/delegators", deepPage(drep.Delegators), "asc"))},
		{"bf_proposals_p1", one(bfPaged("/governance/proposals", 1, "desc"))},
	}
}

// bigSpecs are the lists of the big entities (bench --add-big: a policy
// of 100,000 assets, its airdropped asset held by 50,001 addresses, an
// account with 500 reward rows, a DRep with 50,000 delegators), each at
// page 1 and at its last full page oldest first; none without them.
func bigSpecs(big *bigRefs) []scenarioSpec {
	if big == nil {
		return nil
	}
	one := func(t target) func() ([]target, error) { return func() ([]target, error) { return []target{t}, nil } }
	policy := "/assets/policy/" + big.Policy
	holders := "/assets/" + big.HeldAsset + "/addresses"
	rewards := "/accounts/" + big.RewardAccount + "/rewards"
	delegators := "/governance/dreps/" + big.DRep + "/delegators"
	return []scenarioSpec{
		{"bf_big_policy_p1", one(bfPaged(policy, 1, "asc"))},
		{"bf_big_policy_deep", one(bfPaged(policy, deepPage(big.Assets), "asc"))},
		{"bf_big_asset_addresses_p1", one(bfPaged(holders, 1, "asc"))},
		{"bf_big_asset_addresses_deep", one(bfPaged(holders, deepPage(big.Holders), "asc"))},
		{"bf_big_rewards_p1", one(bfPaged(rewards, 1, "asc"))},
		{"bf_big_rewards_deep", one(bfPaged(rewards, deepPage(big.Rewards), "asc"))},
		{"bf_big_drep_delegators_p1", one(bfPaged(delegators, 1, "asc"))},
		{"bf_big_drep_delegators_deep", one(bfPaged(delegators, deepPage(big.Delegators), "asc"))},
	}
}
