package main

import (
	"context"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/account"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// pageLimit is the page size of the cursor and offset scenarios, whale and
// ordinary alike, so their costs compare page for page. It is the detailed
// history's default; ordinary manifest addresses (3 to 60 transactions)
// have no second page at the light history's default of 100.
const pageLimit = 20

// whaleOffsetSpan: offset pages of the whale are drawn from its newest
// whaleOffsetSpan transactions (pages 1 to 500 at pageLimit). Offsets cost
// what they skip; deeper walks are what the cursor is for (DECISIONS).
const whaleOffsetSpan = 10_000

// loadManifest reads the generator's manifest (`syncgate seed --manifest`).
func loadManifest(path string) (*chaingen.Manifest, error) {
	m, err := chaingen.ReadManifest(path)
	if err != nil {
		return nil, err
	}
	if m.Whale.Address == "" || len(m.Addresses) == 0 {
		return nil, fmt.Errorf("manifest %s names no whale or no ordinary addresses", path)
	}
	if m.Network == "" {
		m.Network = "mainnet"
	}
	return m, nil
}

// pageCursor is a fromSlot a client would hold: the next_cursor of a page
// of Address's history walked in one direction at pageLimit.
type pageCursor struct {
	Address  string
	FromSlot int64
	Asc      bool
}

// prepared is what the scenarios need beyond the manifest, found at start
// by walking history pages (through the API, or the store with --db).
type prepared struct {
	WhaleCursors    []pageCursor
	OrdinaryCursors []pageCursor
	TxHashes        []string
	// Node: a (fake) node serves the server's mempool (--fake-node),
	// holding MempoolTxs.
	Node       bool
	MempoolTxs []string
	// Notes says what could not be walked (and so is not in the mix).
	Notes []string
	// Big: the big entities the manifest names (bench --add-big), nil
	// when none.
	Big *bigRefs
}

// pageArgs selects one light-history page.
type pageArgs struct {
	limit, offset int
	fromSlot      *int64
	asc           bool
}

// historyPager fetches one history page: the transactions' hashes and
// the page's next_cursor (nil on the last page).
type historyPager func(ctx context.Context, addr string, a pageArgs) (hashes []string, next *int64, err error)

// walkTimeout bounds one page fetched while preparing.
const walkTimeout = 30 * time.Second

// prepare collects the cursors a client walking a history would hold:
// for the whale, the newest pages and pages at a quarter, half and three
// quarters of its history (reached with one offset page each, as a client
// resuming a long walk would be), and its oldest pages; for each ordinary
// address every page both ways. It keeps up to maxHashes transaction
// hashes seen on the way. A walk that fails (a page that does not answer
// in walkTimeout) is left out and noted.
func prepare(ctx context.Context, m *chaingen.Manifest, pager historyPager, pagesPerWalk, maxHashes int) (prepared, error) {
	var p prepared
	seen := map[string]bool{}
	addHash := func(h string) {
		if h != "" && !seen[h] && len(p.TxHashes) < maxHashes {
			seen[h] = true
			p.TxHashes = append(p.TxHashes, h)
		}
	}
	for _, t := range []chaingen.TxRef{m.Txs.Ordinary, m.Txs.MultiAsset, m.Txs.Failed, m.Txs.CIP68DatumUpdate} {
		addHash(t.Hash)
	}
	page := func(addr string, a pageArgs) ([]string, *int64, error) {
		ctx, cancel := context.WithTimeout(ctx, walkTimeout)
		defer cancel()
		hashes, next, err := pager(ctx, addr, a)
		if err != nil {
			return nil, nil, fmt.Errorf("history of %s (%+v): %w", addr, a, err)
		}
		for _, h := range hashes {
			addHash(h)
		}
		return hashes, next, nil
	}
	// walk follows next_cursor from start for up to pages pages.
	walk := func(addr string, start *int64, asc bool, pages int) ([]pageCursor, error) {
		var out []pageCursor
		from := start
		if from != nil {
			out = append(out, pageCursor{Address: addr, FromSlot: *from, Asc: asc})
		}
		for len(out) < pages {
			_, next, err := page(addr, pageArgs{limit: pageLimit, fromSlot: from, asc: asc})
			if err != nil {
				return out, err
			}
			if next == nil {
				break
			}
			out = append(out, pageCursor{Address: addr, FromSlot: *next, Asc: asc})
			from = next
		}
		return out, nil
	}
	note := func(err error) { p.Notes = append(p.Notes, err.Error()) }

	whale := m.Whale.Address
	cs, err := walk(whale, nil, false, pagesPerWalk)
	if err != nil {
		return p, err // the newest pages must work: everything else builds on them
	}
	p.WhaleCursors = append(p.WhaleCursors, cs...)
	for _, frac := range []int64{1, 2, 3} {
		off := int(frac * m.Whale.TxCount / 4 / pageLimit * pageLimit)
		if off == 0 {
			continue
		}
		_, next, err := page(whale, pageArgs{limit: pageLimit, offset: off})
		if err != nil {
			note(err)
			continue
		}
		if next == nil {
			continue
		}
		cs, err := walk(whale, next, false, pagesPerWalk)
		if err != nil {
			note(err)
		}
		p.WhaleCursors = append(p.WhaleCursors, cs...)
	}
	cs, err = walk(whale, nil, true, pagesPerWalk)
	if err != nil {
		note(err)
	}
	p.WhaleCursors = append(p.WhaleCursors, cs...)

	for _, a := range m.Addresses {
		for _, asc := range []bool{false, true} {
			cs, err := walk(a.Address, nil, asc, pagesPerWalk)
			if err != nil {
				return p, err
			}
			p.OrdinaryCursors = append(p.OrdinaryCursors, cs...)
		}
	}
	if len(p.WhaleCursors) == 0 {
		return p, fmt.Errorf("the whale %s has a single history page; is this the manifest of this database?", whale)
	}
	return p, nil
}

// storePager pages through the store (the same method the light history
// handler calls).
func storePager(db *dbsync.DB) historyPager {
	return func(ctx context.Context, addr string, pa pageArgs) ([]string, *int64, error) {
		a, err := cardano.ParseAddress(addr, db.Network.Mainnet)
		if err != nil {
			return nil, nil, err
		}
		q := dbsync.HistoryQuery{Limit: pa.limit, Offset: pa.offset, FromSlot: pa.fromSlot, Ascending: pa.asc}
		page, err := db.TxHistory(ctx, a, q, noTotal)
		if err != nil {
			return nil, nil, err
		}
		hashes := make([]string, len(page.Items))
		for i, t := range page.Items {
			hashes[i] = t.Hash
		}
		return hashes, page.NextCursor, nil
	}
}

// target is one request of a scenario: its path for the gateway and the
// store call the handler makes for the raw run.
type target struct {
	path string
	raw  func(ctx context.Context) error
}

// buildScenarios turns the manifest and the prepared cursors into one
// scenario per endpoint and kind of identifier, and names those a small
// chain has nothing for (no ordinary address with a second page). Without
// raw, scenarios have no Raw function. POST /v1/tx/submit is left out: it
// needs a cardano-node that validates.
func buildScenarios(m *chaingen.Manifest, p prepared, raw *rawRunner) (_ []Scenario, skipped []string, _ error) {
	n, ok := cardano.NetworkByName(m.Network)
	if !ok {
		return nil, nil, fmt.Errorf("unknown network %q", m.Network)
	}
	b := &builder{mainnet: n.Mainnet, raw: raw}

	ordinary := []string{}
	for _, a := range m.Addresses {
		ordinary = append(ordinary, a.Address)
	}
	// The UTxO and balance mix also holds a script address, as real clients
	// send. The address holding many assets has thousands of outputs in its
	// history (costly in core mode, where unspent means "no tx_in row" for
	// every one of them), so it gets scenarios of its own.
	mixed := append([]string{}, ordinary...)
	if m.ScriptAddress.Address != "" {
		mixed = append(mixed, m.ScriptAddress.Address)
	}
	var assetRich []string
	if m.AssetAddress.Address != "" {
		assetRich = append(assetRich, m.AssetAddress.Address)
	}
	// The generator's Byron address is a whale of another kind: tens of
	// thousands of unspent outputs (the whale has few, but half a million
	// spent ones), so it gets scenarios of its own.
	var large []string
	if m.ByronAddress.Address != "" {
		large = append(large, m.ByronAddress.Address)
	}
	// The manifest's ordinary stake keys can include the whale's (few
	// UTxOs, but every one of its half million outputs to check): it gets
	// scenarios of its own.
	stakeKeys := []string{}
	for _, k := range m.StakeKeys {
		if k.StakeAddress != m.Whale.StakeAddress {
			stakeKeys = append(stakeKeys, k.StakeAddress)
		}
	}
	var whaleStake []string
	if m.Whale.StakeAddress != "" {
		whaleStake = append(whaleStake, m.Whale.StakeAddress)
	}
	// The account with the most reward rows and withdrawals (the "whale
	// account") and the stake key with the most live UTxOs.
	var busyAccounts []string
	for _, a := range []string{m.Accounts.Busiest, m.BusiestStakeKey.StakeAddress} {
		if a != "" && !slices.Contains(busyAccounts, a) {
			busyAccounts = append(busyAccounts, a)
		}
	}
	whale := []string{m.Whale.Address}
	busySlot := int64(m.BusySlot.Slot)

	var offsets, whaleOffsets []historyArgs
	for _, a := range m.Addresses {
		for off := 0; off < int(a.TxCount); off += pageLimit {
			offsets = append(offsets, historyArgs{addr: a.Address, limit: pageLimit, offset: off})
		}
	}
	for off := 0; off < min(int(m.Whale.TxCount), whaleOffsetSpan); off += pageLimit {
		whaleOffsets = append(whaleOffsets, historyArgs{addr: m.Whale.Address, limit: pageLimit, offset: off})
	}
	cursorArgs := func(cs []pageCursor) []historyArgs {
		out := make([]historyArgs, len(cs))
		for i, c := range cs {
			out[i] = historyArgs{addr: c.Address, limit: pageLimit, fromSlot: &c.FromSlot, asc: c.Asc}
		}
		return out
	}
	firstPages := func(addrs []string) []historyArgs {
		out := make([]historyArgs, len(addrs))
		for i, a := range addrs {
			out[i] = historyArgs{addr: a}
		}
		return out
	}
	busy := []historyArgs{{addr: m.BusySlot.Address, fromSlot: &busySlot}}
	// The same whale page at fixed depths: its cost must not grow with the
	// offset (history anchors). Depths past the whale's history are skipped.
	whaleAt := func(offset int) func() ([]target, error) {
		return func() ([]target, error) {
			if offset >= int(m.Whale.TxCount) {
				return nil, nil
			}
			return b.history(false, []historyArgs{{addr: m.Whale.Address, limit: pageLimit, offset: offset}})
		}
	}

	type spec struct {
		name    string
		targets func() ([]target, error)
	}
	specs := []spec{
		{"utxos_by_address", func() ([]target, error) { return b.utxosByAddress(mixed) }},
		{"utxos_by_address_whale", func() ([]target, error) { return b.utxosByAddress(whale) }},
		{"utxos_by_address_large", func() ([]target, error) { return b.utxosByAddress(large) }},
		{"utxos_by_address_assets", func() ([]target, error) { return b.utxosByAddress(assetRich) }},
		{"utxos_by_stake", func() ([]target, error) { return b.utxosByStake(stakeKeys) }},
		{"utxos_by_stake_whale", func() ([]target, error) { return b.utxosByStake(whaleStake) }},
		{"utxos_by_stake_busy", func() ([]target, error) { return b.utxosByStake([]string{m.BusiestStakeKey.StakeAddress}) }},
		{"balance_by_address", func() ([]target, error) { return b.balanceByAddress(mixed) }},
		{"balance_by_address_whale", func() ([]target, error) { return b.balanceByAddress(whale) }},
		{"balance_by_address_large", func() ([]target, error) { return b.balanceByAddress(large) }},
		{"balance_by_address_assets", func() ([]target, error) { return b.balanceByAddress(assetRich) }},
		{"balance_by_stake", func() ([]target, error) { return b.balanceByStake(stakeKeys) }},
		{"balance_by_stake_whale", func() ([]target, error) { return b.balanceByStake(whaleStake) }},
		{"balance_by_stake_busy", func() ([]target, error) { return b.balanceByStake([]string{m.BusiestStakeKey.StakeAddress}) }},
		{"tx_history", func() ([]target, error) { return b.history(false, firstPages(ordinary)) }},
		{"tx_history_whale", func() ([]target, error) { return b.history(false, firstPages(whale)) }},
		{"tx_history_cursor", func() ([]target, error) { return b.history(false, cursorArgs(p.OrdinaryCursors)) }},
		{"tx_history_whale_cursor", func() ([]target, error) { return b.history(false, cursorArgs(p.WhaleCursors)) }},
		{"tx_history_offset", func() ([]target, error) { return b.history(false, offsets) }},
		{"tx_history_whale_offset", func() ([]target, error) { return b.history(false, whaleOffsets) }},
		{"tx_history_busy_slot", func() ([]target, error) { return b.history(false, busy) }},
		{"tx_history_assets", func() ([]target, error) { return b.history(false, firstPages(assetRich)) }},
		{"tx_history_whale_at_0", whaleAt(0)},
		{"tx_history_whale_at_10k", whaleAt(10_000)},
		{"tx_history_whale_at_100k", whaleAt(100_000)},
		{"tx_history_whale_at_500k", whaleAt(500_000)},
		{"tx_address", func() ([]target, error) { return b.history(true, firstPages(ordinary)) }},
		{"tx_address_whale", func() ([]target, error) { return b.history(true, firstPages(whale)) }},
		{"tx_address_whale_cursor", func() ([]target, error) { return b.history(true, cursorArgs(p.WhaleCursors)) }},
		{"tx_address_busy_slot", func() ([]target, error) { return b.history(true, busy) }},
		{"tx_address_assets", func() ([]target, error) { return b.history(true, firstPages(assetRich)) }},
		{"tx_hash", func() ([]target, error) { return b.txByHash(p.TxHashes) }},
		{"epochs_latest", func() ([]target, error) { return b.epochsLatest() }},
		{"epoch_params_latest", func() ([]target, error) { return b.epochParams(nil) }},
		{"epoch_params", func() ([]target, error) { return b.epochParams(shelleyEpochs(m)) }},
		{"asset_info_popular", func() ([]target, error) { return b.assetInfo([]string{m.Assets.Hosky.Unit}) }},
		{"asset_info_rare", func() ([]target, error) { return b.assetInfo(rareAssets(m)) }},
		{"asset_holders_popular", func() ([]target, error) { return b.assetHolders([]string{m.Assets.Hosky.Unit}) }},
		{"asset_holders_rare", func() ([]target, error) { return b.assetHolders(rareAssets(m)) }},
		{"pool_info_big", func() ([]target, error) { return b.poolInfo([]string{m.Pools.Biggest.ID}) }},
		{"pool_info", func() ([]target, error) { return b.poolInfo(smallPools(m)) }},
		{"pool_delegators_big", func() ([]target, error) { return b.poolDelegators(bigPoolPages(m)) }},
		{"pool_delegators", func() ([]target, error) { return b.poolDelegators(firstPoolPages(smallPools(m))) }},
		{"account", func() ([]target, error) { return b.account("", stakeKeys) }},
		{"account_whale", func() ([]target, error) { return b.account("", whaleStake) }},
		{"account_busy", func() ([]target, error) { return b.account("", busyAccounts) }},
		{"account_rewards", func() ([]target, error) { return b.account("rewards", stakeKeys) }},
		{"account_rewards_busy", func() ([]target, error) { return b.account("rewards", busyAccounts) }},
		{"account_delegations", func() ([]target, error) { return b.account("delegations", stakeKeys) }},
		{"account_registrations", func() ([]target, error) { return b.account("registrations", stakeKeys) }},
		{"account_withdrawals", func() ([]target, error) { return b.account("withdrawals", stakeKeys) }},
		{"account_withdrawals_busy", func() ([]target, error) { return b.account("withdrawals", busyAccounts) }},
		{"account_addresses", func() ([]target, error) { return b.account("addresses", stakeKeys) }},
		{"account_addresses_whale", func() ([]target, error) { return b.account("addresses", whaleStake) }},
		{"account_assets", func() ([]target, error) { return b.account("assets", stakeKeys) }},
		{"account_assets_whale", func() ([]target, error) { return b.account("assets", whaleStake) }},
		{"pool_metadata", func() ([]target, error) { return b.poolSub("metadata", allPools(m)) }},
		{"pool_delegator_count", func() ([]target, error) { return b.poolSub("delegators", allPools(m)) }},
		{"pool_blocks", func() ([]target, error) { return b.poolSub("blocks", allPools(m)) }},
		{"utxos_by_credential", func() ([]target, error) { return b.credential("/v1/utxos/credential/", credentials(m)) }},
		{"balance_by_credential", func() ([]target, error) {
			return b.credential("/v1/assets/balance/credential/", credentials(m))
		}},
	}
	for _, s := range slices.Concat(blockfrostSpecs(m, p, b, mixed), blockfrostChainSpecs(m), blockfrostRouteSpecs(m), bigSpecs(p.Big)) {
		specs = append(specs, spec(s))
	}
	// Transaction status: hashes in blocks (the ones the history walks
	// met) and hashes no one has seen; without a node the server answers
	// mempool "unavailable" at once.
	specs = append(specs,
		spec{"tx_status", func() ([]target, error) { return b.txStatus(p.TxHashes) }},
		spec{"tx_status_unknown", func() ([]target, error) { return b.txStatus(unknownHashes(64)) }})
	// The node's mempool, read through the server (--fake-node).
	if p.Node {
		specs = append(specs,
			spec{"tx_status_mempool", func() ([]target, error) { return b.txStatus(p.MempoolTxs) }},
			spec{"mempool", func() ([]target, error) { return []target{{path: "/v1/mempool"}}, nil }},
			spec{"utxos_by_address_pending", func() ([]target, error) { return b.pending(b.utxosByAddress(mixed)) }})
	}
	// The wide address and stake key (`bench --add-wide`): tens of
	// thousands of unspent outputs, scenarios only where the manifest
	// names them.
	if w := m.WideAddress; w != nil && w.Address != "" {
		specs = append(specs,
			spec{"utxos_by_address_wide", func() ([]target, error) { return b.utxosByAddress([]string{w.Address}) }},
			spec{"balance_by_address_wide", func() ([]target, error) { return b.balanceByAddress([]string{w.Address}) }})
	}
	if w := m.WideStakeKey; w != nil && w.StakeAddress != "" {
		specs = append(specs,
			spec{"utxos_by_stake_wide", func() ([]target, error) { return b.utxosByStake([]string{w.StakeAddress}) }},
			spec{"balance_by_stake_wide", func() ([]target, error) { return b.balanceByStake([]string{w.StakeAddress}) }})
	}
	var out []Scenario
	for _, s := range specs {
		ts, err := s.targets()
		if err != nil {
			return nil, nil, fmt.Errorf("scenario %s: %w", s.name, err)
		}
		if len(ts) == 0 {
			skipped = append(skipped, s.name)
			continue
		}
		withRaw := raw != nil
		for _, t := range ts {
			withRaw = withRaw && t.raw != nil
		}
		out = append(out, scenarioOf(s.name, ts, withRaw))
	}
	return out, skipped, nil
}

// scenarioOf draws a target uniformly for every request.
func scenarioOf(name string, ts []target, withRaw bool) Scenario {
	s := Scenario{Name: name, Paths: make([]string, len(ts))}
	for i, t := range ts {
		s.Paths[i] = t.path
	}
	s.Next = func(r *rand.Rand) Request { return Request{Method: "GET", Path: pick(r, ts).path} }
	if withRaw {
		s.Raw = func(ctx context.Context, r *rand.Rand) error { return pick(r, ts).raw(ctx) }
		s.RawAt = func(ctx context.Context, i int) error { return ts[i].raw(ctx) }
	}
	return s
}

// builder makes targets: it parses each identifier once, as the handler
// would, and pairs the path with the store call.
type builder struct {
	mainnet bool
	raw     *rawRunner
}

func (b *builder) addresses(addrs []string) ([]cardano.Address, error) {
	out := make([]cardano.Address, len(addrs))
	for i, s := range addrs {
		a, err := cardano.ParseAddress(s, b.mainnet)
		if err != nil {
			return nil, fmt.Errorf("address %q: %w", s, err)
		}
		out[i] = a
	}
	return out, nil
}

func (b *builder) stakeKeys(keys []string) ([]cardano.StakeKey, error) {
	out := make([]cardano.StakeKey, len(keys))
	for i, s := range keys {
		k, err := cardano.ParseStakeKey(s, b.mainnet)
		if err != nil {
			return nil, fmt.Errorf("stake key %q: %w", s, err)
		}
		out[i] = k
	}
	return out, nil
}

// db is the raw store, or nil (targets then carry no raw call).
func (b *builder) db() *dbsync.DB {
	if b.raw == nil {
		return nil
	}
	return b.raw.db
}

func (b *builder) utxosByAddress(addrs []string) ([]target, error) {
	as, err := b.addresses(addrs)
	if err != nil {
		return nil, err
	}
	ts := make([]target, len(as))
	for i, a := range as {
		ts[i] = target{path: "/v1/utxos/address/" + url.PathEscape(a.String())}
		if db := b.db(); db != nil {
			ts[i].raw = func(ctx context.Context) error { _, err := db.UTxOsByAddress(ctx, a); return err }
		}
	}
	return ts, nil
}

func (b *builder) utxosByStake(keys []string) ([]target, error) {
	ks, err := b.stakeKeys(keys)
	if err != nil {
		return nil, err
	}
	ts := make([]target, len(ks))
	for i, k := range ks {
		ts[i] = target{path: "/v1/utxos/stake/" + url.PathEscape(keys[i])}
		if db := b.db(); db != nil {
			ts[i].raw = func(ctx context.Context) error { _, err := db.UTxOsByStake(ctx, k); return err }
		}
	}
	return ts, nil
}

func (b *builder) balanceByAddress(addrs []string) ([]target, error) {
	as, err := b.addresses(addrs)
	if err != nil {
		return nil, err
	}
	ts := make([]target, len(as))
	for i, a := range as {
		ts[i] = target{path: "/v1/assets/balance/address/" + url.PathEscape(a.String())}
		if db := b.db(); db != nil {
			ts[i].raw = func(ctx context.Context) error { _, err := db.BalanceByAddress(ctx, a); return err }
		}
	}
	return ts, nil
}

func (b *builder) balanceByStake(keys []string) ([]target, error) {
	ks, err := b.stakeKeys(keys)
	if err != nil {
		return nil, err
	}
	ts := make([]target, len(ks))
	for i, k := range ks {
		ts[i] = target{path: "/v1/assets/balance/stake/" + url.PathEscape(keys[i])}
		if db := b.db(); db != nil {
			ts[i].raw = func(ctx context.Context) error { _, err := db.BalanceByStake(ctx, k); return err }
		}
	}
	return ts, nil
}

// account makes GET /v1/accounts/:stakeAddress targets, or with list one
// of its lists' first page at the default limit and order.
func (b *builder) account(list string, keys []string) ([]target, error) {
	ks, err := b.stakeKeys(keys)
	if err != nil {
		return nil, err
	}
	ts := make([]target, len(ks))
	q := dbsync.AccountQuery{Limit: 100, Ascending: true}
	for i, k := range ks {
		ts[i] = target{path: "/v1/accounts/" + url.PathEscape(keys[i])}
		if list != "" {
			ts[i].path += "/" + list
		}
		db := b.db()
		if db == nil {
			continue
		}
		read := map[string]func(ctx context.Context) error{
			"":              func(ctx context.Context) error { _, err := account.Read(ctx, db, k); return err },
			"rewards":       func(ctx context.Context) error { _, err := account.Rewards(ctx, db, k, q); return err },
			"delegations":   func(ctx context.Context) error { _, err := account.Delegations(ctx, db, k, q); return err },
			"registrations": func(ctx context.Context) error { _, err := account.Registrations(ctx, db, k, q); return err },
			"withdrawals":   func(ctx context.Context) error { _, err := account.Withdrawals(ctx, db, k, q); return err },
			"addresses":     func(ctx context.Context) error { _, err := account.Addresses(ctx, db, k, q); return err },
			"assets":        func(ctx context.Context) error { _, err := account.Assets(ctx, db, k, q); return err },
		}[list]
		if read == nil {
			return nil, fmt.Errorf("no account list %q", list)
		}
		ts[i].raw = read
	}
	return ts, nil
}

// historyArgs is one history request; zero limit means the endpoint's
// default (100 light, 20 detailed), as a client that sends none gets.
type historyArgs struct {
	addr     string
	limit    int
	offset   int
	fromSlot *int64
	asc      bool
}

// history makes light (/v1/tx/history) or detailed (/v1/tx/address)
// history targets.
func (b *builder) history(detailed bool, args []historyArgs) ([]target, error) {
	ts := make([]target, len(args))
	for i, h := range args {
		a, err := cardano.ParseAddress(h.addr, b.mainnet)
		if err != nil {
			return nil, fmt.Errorf("address %q: %w", h.addr, err)
		}
		route, limit := "/v1/tx/history/", 100
		if detailed {
			route, limit = "/v1/tx/address/", 20
		}
		q := url.Values{}
		if h.limit > 0 {
			q.Set("limit", strconv.Itoa(h.limit))
			limit = h.limit
		}
		if h.offset > 0 {
			q.Set("offset", strconv.Itoa(h.offset))
		}
		if h.fromSlot != nil {
			q.Set("fromSlot", strconv.FormatInt(*h.fromSlot, 10))
		}
		if h.asc {
			q.Set("order", "asc")
		}
		ts[i] = target{path: route + url.PathEscape(a.String())}
		if len(q) > 0 {
			ts[i].path += "?" + q.Encode()
		}
		db := b.db()
		if db == nil {
			continue
		}
		hq := dbsync.HistoryQuery{Limit: limit, Offset: h.offset, FromSlot: h.fromSlot, Ascending: h.asc}
		counter := b.raw.counter(a.String())
		if detailed {
			ts[i].raw = func(ctx context.Context) error { _, err := db.TxsByAddress(ctx, a, hq, counter); return err }
		} else {
			ts[i].raw = func(ctx context.Context) error { _, err := db.TxHistory(ctx, a, hq, counter); return err }
		}
	}
	return ts, nil
}

func (b *builder) txByHash(hashes []string) ([]target, error) {
	ts := make([]target, len(hashes))
	for i, s := range hashes {
		h, err := cardano.ParseTxHash(s)
		if err != nil {
			return nil, fmt.Errorf("tx hash %q: %w", s, err)
		}
		ts[i] = target{path: "/v1/tx/hash/" + h.String()}
		if db := b.db(); db != nil {
			ts[i].raw = func(ctx context.Context) error { _, err := db.TxByHash(ctx, h); return err }
		}
	}
	return ts, nil
}

// txStatus aims GET /v1/tx/status at hashes; raw is db-sync's part of the
// answer (the block and the tip, one statement).
func (b *builder) txStatus(hashes []string) ([]target, error) {
	ts := make([]target, len(hashes))
	for i, s := range hashes {
		h, err := cardano.ParseTxHash(s)
		if err != nil {
			return nil, fmt.Errorf("tx hash %q: %w", s, err)
		}
		ts[i] = target{path: "/v1/tx/status/" + h.String()}
		if db := b.db(); db != nil {
			ts[i].raw = func(ctx context.Context) error { _, _, err := db.TxInChain(ctx, h); return err }
		}
	}
	return ts, nil
}

// unknownHashes are n transaction hashes no chain holds (fixed, so runs
// compare).
func unknownHashes(n int) []string {
	r := rand.New(rand.NewPCG(7, 7))
	out := make([]string, n)
	for i := range out {
		var h cardano.TxHash
		for j := range h {
			h[j] = byte(r.UintN(256))
		}
		out[i] = h.String()
	}
	return out
}

// pending is ts asked with ?pending=true (the raw side unchanged: the
// confirmed list is the database's part of the answer).
func (b *builder) pending(ts []target, err error) ([]target, error) {
	for i := range ts {
		ts[i].path += "?pending=true"
	}
	return ts, err
}

// rareAssets are the manifest's one-off tokens: NFTs (CIP-25 v1 and v2,
// chunked image, empty name), CIP-68 user tokens, the 2^64-1 and
// mint-and-burn tokens. (HOSKY, the popular one, sits in 800k outputs.)
func rareAssets(m *chaingen.Manifest) []string {
	a := m.Assets
	units := []string{a.CIP25V1.Unit, a.CIP25V2.Unit, a.CIP25V2Empty.Unit, a.CIP25Chunked.Unit, a.BigQuantity.Unit, a.MintBurn.Unit}
	for _, c := range a.CIP68All {
		units = append(units, c.UserUnit)
	}
	out := units[:0]
	for _, u := range units {
		if u != "" {
			out = append(out, u)
		}
	}
	return out
}

// smallPools are the manifest's pools other than the biggest that still
// have delegators (the retired one answers from its last registration).
func smallPools(m *chaingen.Manifest) []string {
	var out []string
	for _, p := range []chaingen.PoolRef{m.Pools.Small, m.Pools.Ordinary, m.Pools.Retiring, m.Pools.ReRegistered, m.Pools.CancelledRetirement} {
		if p.ID != "" {
			out = append(out, p.ID)
		}
	}
	return out
}

// allPools are the manifest's pools, the biggest (with off-chain
// metadata) first.
func allPools(m *chaingen.Manifest) []string {
	out := []string{}
	for _, id := range append([]string{m.Pools.Biggest.ID, m.Pools.WithMetadata.ID}, smallPools(m)...) {
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// credentials are the manifest's payment credentials (key hash used by
// base, enterprise and pointer addresses; script hash) in each form a
// client may send.
func credentials(m *chaingen.Manifest) []string {
	var out []string
	for _, c := range []chaingen.CredentialRef{m.Credentials.Payment, m.Credentials.Script} {
		if c.Hex != "" {
			out = append(out, c.Hex, c.Bech32)
		}
	}
	return out
}

// delegatorPage is one delegator-list request.
type delegatorPage struct {
	pool   string
	offset int
}

// bigPoolPages walks the biggest pool's delegators from the start, up to
// 100 pages of the default 100.
func bigPoolPages(m *chaingen.Manifest) []delegatorPage {
	var out []delegatorPage
	for off := 0; off < min(m.Pools.Biggest.Delegators, 100*100); off += 100 {
		out = append(out, delegatorPage{pool: m.Pools.Biggest.ID, offset: off})
	}
	return out
}

func firstPoolPages(pools []string) []delegatorPage {
	out := make([]delegatorPage, len(pools))
	for i, p := range pools {
		out[i] = delegatorPage{pool: p}
	}
	return out
}

func (b *builder) assetInfo(units []string) ([]target, error) {
	ts := make([]target, 0, len(units))
	for _, u := range units {
		if u == "" {
			continue
		}
		id, err := cardano.ParseAssetID(u)
		if err != nil {
			return nil, fmt.Errorf("asset %q: %w", u, err)
		}
		t := target{path: "/v1/assets/" + url.PathEscape(u)}
		if db := b.db(); db != nil {
			t.raw = func(ctx context.Context) error { _, err := db.AssetInfo(ctx, id, dbsync.SourceAuto); return err }
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// assetHolders: the first page of each asset's holders.
func (b *builder) assetHolders(units []string) ([]target, error) {
	ts := make([]target, 0, len(units))
	for _, u := range units {
		id, err := cardano.ParseAssetID(u)
		if err != nil {
			return nil, fmt.Errorf("asset %q: %w", u, err)
		}
		t := target{path: "/v1/assets/" + url.PathEscape(u) + "/holders"}
		if db := b.db(); db != nil {
			q := dbsync.AccountQuery{Limit: 100}
			t.raw = func(ctx context.Context) error { _, err := db.AssetHolders(ctx, id, q); return err }
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// rawPools is true when the raw runner can read the stored pool stake.
func (b *builder) rawPools() bool { return b.raw != nil && b.raw.stats != nil }

func (b *builder) poolInfo(ids []string) ([]target, error) {
	ts := make([]target, len(ids))
	for i, s := range ids {
		id, err := cardano.ParsePoolID(s)
		if err != nil {
			return nil, fmt.Errorf("pool %q: %w", s, err)
		}
		ts[i] = target{path: "/v1/pools/" + s}
		if b.rawPools() {
			ts[i].raw = func(ctx context.Context) error { return b.raw.poolInfo(ctx, id) }
		}
	}
	return ts, nil
}

// epochsLatest makes the GET /v1/epochs/latest target (the client SDK asks
// it before every transaction it builds). The handler reads
// RecentPosition, a per-server memo at most a second old; the raw call
// reads what that memo wraps, LatestPosition, one statement every call.
func (b *builder) epochsLatest() ([]target, error) {
	t := target{path: "/v1/epochs/latest"}
	if db := b.db(); db != nil {
		t.raw = func(ctx context.Context) error { _, err := db.LatestPosition(ctx); return err }
	}
	return []target{t}, nil
}

// epochParams makes GET /v1/epochs/:epoch/parameters targets, or the
// /latest one for no epochs (what the client SDK would ask for its fee
// and min-UTxO parameters). The handler answers from the per-epoch cache
// after the first call; the raw call reads the row every call.
func (b *builder) epochParams(epochs []int64) ([]target, error) {
	if len(epochs) == 0 {
		t := target{path: "/v1/epochs/latest/parameters"}
		if db := b.db(); db != nil {
			t.raw = func(ctx context.Context) error {
				pos, err := db.LatestPosition(ctx)
				if err != nil || pos.EpochNo == nil {
					return err
				}
				_, err = db.EpochParamsAtOrBefore(ctx, *pos.EpochNo)
				return err
			}
		}
		return []target{t}, nil
	}
	ts := make([]target, len(epochs))
	for i, e := range epochs {
		ts[i] = target{path: "/v1/epochs/" + strconv.FormatInt(e, 10) + "/parameters"}
		if db := b.db(); db != nil {
			ts[i].raw = func(ctx context.Context) error { _, err := db.EpochParamsAtOrBefore(ctx, e); return err }
		}
	}
	return ts, nil
}

// shelleyEpochs are the manifest's epochs that have parameters, from the
// first Shelley epoch to the tip's.
func shelleyEpochs(m *chaingen.Manifest) []int64 {
	var out []int64
	for e := int64(m.Layout.FirstShelleyEpoch); e <= int64(m.Tip.Epoch); e++ {
		out = append(out, e)
	}
	return out
}

// poolSub makes GET /v1/pools/:poolId/<sub> targets (metadata,
// delegators, blocks).
func (b *builder) poolSub(sub string, ids []string) ([]target, error) {
	ts := make([]target, len(ids))
	for i, s := range ids {
		id, err := cardano.ParsePoolID(s)
		if err != nil {
			return nil, fmt.Errorf("pool %q: %w", s, err)
		}
		ts[i] = target{path: "/v1/pools/" + s + "/" + sub}
		switch {
		case sub == "metadata" && b.raw != nil:
			ts[i].raw = func(ctx context.Context) error { return b.raw.poolMetadata(ctx, id) }
		case sub != "metadata" && b.rawPools():
			ts[i].raw = func(ctx context.Context) error { return b.raw.poolRecord(ctx, id) }
		}
	}
	return ts, nil
}

// credential makes UTxO or balance targets by payment credential.
func (b *builder) credential(route string, creds []string) ([]target, error) {
	ts := make([]target, len(creds))
	for i, s := range creds {
		cred, err := cardano.ParsePaymentCredential(s)
		if err != nil {
			return nil, fmt.Errorf("credential %q: %w", s, err)
		}
		ts[i] = target{path: route + url.PathEscape(s)}
		db := b.db()
		switch {
		case db == nil:
		case route == "/v1/utxos/credential/":
			ts[i].raw = func(ctx context.Context) error { _, err := db.UTxOsByCredential(ctx, cred); return err }
		default:
			ts[i].raw = func(ctx context.Context) error { _, err := db.BalanceByCredential(ctx, cred); return err }
		}
	}
	return ts, nil
}

func (b *builder) poolDelegators(pages []delegatorPage) ([]target, error) {
	ts := make([]target, len(pages))
	for i, pg := range pages {
		id, err := cardano.ParsePoolID(pg.pool)
		if err != nil {
			return nil, fmt.Errorf("pool %q: %w", pg.pool, err)
		}
		ts[i] = target{path: "/v1/pools/" + pg.pool + "/delegators/list"}
		if pg.offset > 0 {
			ts[i].path += "?offset=" + strconv.Itoa(pg.offset)
		}
		if b.rawPools() {
			ts[i].raw = func(ctx context.Context) error { return b.raw.poolDelegators(ctx, id, 100, pg.offset) }
		}
	}
	return ts, nil
}
