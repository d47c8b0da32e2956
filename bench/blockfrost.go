package main

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// The Blockfrost dialect's hot routes (/api/v0, the project_id header),
// each beside the /v1 scenario that reads the same facts, so the two can
// be run in turn and compared:
//
//	bf_address_utxos(_whale)          utxos_by_address(_whale)
//	bf_address(_whale)                balance_by_address(_whale)
//	bf_address_total(_whale)          balance_by_address(_whale) (no shared store call)
//	bf_tx, bf_tx_utxos                tx_hash
//	bf_blocks_latest                  epochs_latest (the tip, no shared store call)
//	bf_epochs_latest_parameters       epoch_params_latest
//	bf_address_transactions_p1        tx_history_whale
//	bf_address_transactions_p1000     tx_history_whale_p1000
//
// They have no raw run: what they are measured against is the /v1
// gateway, and several read through stores /v1 does not call.

// bfPageCount is the page size of the history scenarios: Blockfrost's
// most and default, /v1's light-history default.
const bfPageCount = 100

// bfDeepPage is the history page asked deep in the whale's history.
const bfDeepPage = 1000

// scenarioSpec is a scenario's name and how its targets are made.
type scenarioSpec struct {
	name    string
	targets func() ([]target, error)
}

// bfWhalePage is the deep page asked of the whale: page 1,000 at 100 a
// page, or its last page when its history is shorter.
func bfWhalePage(m *chaingen.Manifest) int {
	last := int((m.Whale.TxCount + bfPageCount - 1) / bfPageCount)
	return max(1, min(bfDeepPage, last))
}

// blockfrostSpecs are the dialect's scenarios and the /v1 counterparts
// the other scenarios lack (the whale's history page at the same depth).
// mixed are the ordinary addresses the /v1 UTxO and balance scenarios ask.
func blockfrostSpecs(m *chaingen.Manifest, p prepared, b *builder, mixed []string) []scenarioSpec {
	whale := []string{m.Whale.Address}
	deep := bfWhalePage(m)
	addr := func(sub string, addrs []string) func() ([]target, error) {
		return func() ([]target, error) { return b.bfAddress(sub, addrs) }
	}
	txs := func(sub string) func() ([]target, error) {
		return func() ([]target, error) { return bfPaths("/txs/", sub, p.TxHashes), nil }
	}
	one := func(path string) func() ([]target, error) {
		return func() ([]target, error) { return []target{{path: "/api/v0" + path}}, nil }
	}
	page := func(n int) func() ([]target, error) {
		return func() ([]target, error) {
			q := url.Values{"count": {strconv.Itoa(bfPageCount)}, "page": {strconv.Itoa(n)}, "order": {"desc"}}
			ts, err := b.bfAddress("/transactions", whale)
			for i := range ts {
				ts[i].path += "?" + q.Encode()
			}
			return ts, err
		}
	}
	return []scenarioSpec{
		{"bf_address_utxos", addr("/utxos", mixed)},
		{"bf_address_utxos_whale", addr("/utxos", whale)},
		{"bf_address", addr("", mixed)},
		{"bf_address_whale", addr("", whale)},
		{"bf_address_total", addr("/total", mixed)},
		{"bf_address_total_whale", addr("/total", whale)},
		{"bf_tx", txs("")},
		{"bf_tx_utxos", txs("/utxos")},
		{"bf_blocks_latest", one("/blocks/latest")},
		{"bf_epochs_latest_parameters", one("/epochs/latest/parameters")},
		{"bf_address_transactions_p1", page(1)},
		{"bf_address_transactions_p1000", page(deep)},
		// /v1's light history of the whale at the same depth, newest first.
		{"tx_history_whale_p1000", func() ([]target, error) {
			return b.history(false, []historyArgs{{addr: m.Whale.Address, limit: bfPageCount, offset: (deep - 1) * bfPageCount}})
		}},
	}
}

// bfAddress makes /api/v0/addresses/{a}<sub> targets; the addresses are
// parsed as the dialect's handler parses them.
func (b *builder) bfAddress(sub string, addrs []string) ([]target, error) {
	as, err := b.addresses(addrs)
	if err != nil {
		return nil, err
	}
	ts := make([]target, len(as))
	for i, a := range as {
		ts[i] = target{path: "/api/v0/addresses/" + url.PathEscape(a.String()) + sub}
	}
	return ts, nil
}

// bfPaths makes /api/v0<route>{id}<sub> targets.
func bfPaths(route, sub string, ids []string) []target {
	ts := make([]target, len(ids))
	for i, id := range ids {
		ts[i] = target{path: "/api/v0" + route + url.PathEscape(id) + sub}
	}
	return ts
}

// bfNote says which whale page the deep history scenarios ask.
func bfNote(m *chaingen.Manifest) string {
	if d := bfWhalePage(m); d < bfDeepPage {
		return fmt.Sprintf("bf_address_transactions_p1000 and tx_history_whale_p1000 ask the whale's last page, %d (%d transactions, %d a page)",
			d, m.Whale.TxCount, bfPageCount)
	}
	return ""
}
