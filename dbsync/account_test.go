package dbsync_test

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/account"
)

// acctWant is a stake account as the tests work it out from the raw
// tables, each rule of docs/DECISIONS.md "Stake accounts" applied in Go, not in SQL.
type acctWant struct {
	id            int64
	view          string
	epoch         int64 // the current epoch
	summary       account.State
	rewards       []account.Reward
	delegations   []account.Delegation
	registrations []account.Registration
	withdrawals   []account.Withdrawal
	addresses     []string
	assets        []account.Asset
}

// certPos orders certificates: chain order is tx id, then index in the tx.
type certPos struct {
	Tx   int64 `db:"tx_id"`
	Cert int   `db:"cert_index"`
}

func (a certPos) compare(b certPos) int {
	return cmp.Or(cmp.Compare(a.Tx, b.Tx), cmp.Compare(a.Cert, b.Cert))
}

func mustSelect(t *testing.T, c *chain, dest any, query string, args ...any) {
	t.Helper()
	if err := c.raw.Select(dest, query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func bigOf(t *testing.T, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("not an integer: %q", s)
	}
	return n
}

// rewardTypeRank is db-sync's rewardtype order with proposal refunds
// reported as refunds.
var rewardTypeRank = map[string]int{"leader": 0, "member": 1, "reserves": 2, "treasury": 3, "refund": 4}

// wantAccount reads the account's raw rows and derives every answer.
func wantAccount(t *testing.T, c *chain, view string) acctWant {
	t.Helper()
	w := acctWant{view: view}
	if err := c.raw.Get(&w.id, `SELECT id FROM stake_address WHERE view = $1`, view); err != nil {
		t.Fatalf("stake address %s: %v", view, err)
	}
	// The current epoch: the newest block's (by id, not slot: a second road).
	if err := c.raw.Get(&w.epoch, `SELECT epoch_no FROM block WHERE epoch_no IS NOT NULL ORDER BY id DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}

	// Registrations and deregistrations, merged in Go.
	type certRow struct {
		certPos
		Epoch int64  `db:"epoch_no"`
		Hash  string `db:"hash"`
	}
	var regs, deregs []certRow
	mustSelect(t, c, &regs, `SELECT r.tx_id, r.cert_index, r.epoch_no, encode(t.hash, 'hex') AS hash
		FROM stake_registration r, tx t WHERE t.id = r.tx_id AND r.addr_id = $1`, w.id)
	mustSelect(t, c, &deregs, `SELECT d.tx_id, d.cert_index, d.epoch_no, encode(t.hash, 'hex') AS hash
		FROM stake_deregistration d, tx t WHERE t.id = d.tx_id AND d.addr_id = $1`, w.id)
	type event struct {
		certRow
		action string
	}
	var events []event
	for _, r := range regs {
		events = append(events, event{r, "registered"})
	}
	for _, d := range deregs {
		events = append(events, event{d, "deregistered"})
	}
	slices.SortFunc(events, func(a, b event) int { return a.compare(b.certPos) })
	for _, e := range events {
		w.registrations = append(w.registrations, account.Registration{TxHash: e.Hash, Action: e.action, Epoch: e.Epoch})
	}
	s := account.State{StakeAddress: view}
	var activeSince certPos
	if n := len(events); n > 0 && events[n-1].action == "registered" {
		s.Active, activeSince = true, events[n-1].certPos
		epoch := events[n-1].Epoch
		s.ActiveEpoch = &epoch
	}

	// Pool delegations; the current pool is the latest at or after the
	// registration that made the account active.
	type delegRow struct {
		certPos
		ActiveEpoch int64  `db:"active_epoch_no"`
		Pool        string `db:"view"`
		Hash        string `db:"hash"`
	}
	var delegs []delegRow
	mustSelect(t, c, &delegs, `SELECT d.tx_id, d.cert_index, d.active_epoch_no, p.view, encode(t.hash, 'hex') AS hash
		FROM delegation d, pool_hash p, tx t WHERE p.id = d.pool_hash_id AND t.id = d.tx_id AND d.addr_id = $1`, w.id)
	slices.SortFunc(delegs, func(a, b delegRow) int { return a.compare(b.certPos) })
	for _, d := range delegs {
		w.delegations = append(w.delegations, account.Delegation{ActiveEpoch: d.ActiveEpoch, PoolID: d.Pool, TxHash: d.Hash, CertIndex: d.Cert})
		if s.Active && d.compare(activeSince) >= 0 {
			pool := d.Pool
			s.PoolID = &pool
		}
	}
	type voteRow struct {
		certPos
		DRep string `db:"view"`
	}
	var votes []voteRow
	mustSelect(t, c, &votes, `SELECT v.tx_id, v.cert_index, h.view
		FROM delegation_vote v, drep_hash h WHERE h.id = v.drep_hash_id AND v.addr_id = $1`, w.id)
	slices.SortFunc(votes, func(a, b voteRow) int { return a.compare(b.certPos) })
	for _, v := range votes {
		if s.Active && v.compare(activeSince) >= 0 {
			drep := v.DRep
			s.DRepID = &drep
		}
	}

	// Rewards of both tables, filtered and ordered in Go.
	type rewardRow struct {
		Type      string  `db:"type"`
		Amount    string  `db:"amount"`
		Spendable int64   `db:"spendable_epoch"`
		Earned    int64   `db:"earned_epoch"`
		Pool      *string `db:"pool"`
	}
	var rewards, rest []rewardRow
	mustSelect(t, c, &rewards, `SELECT r.type::text AS type, r.amount::text AS amount, r.spendable_epoch, r.earned_epoch, p.view AS pool
		FROM reward r LEFT JOIN pool_hash p ON p.id = r.pool_id WHERE r.addr_id = $1`, w.id)
	mustSelect(t, c, &rest, `SELECT type::text AS type, amount::text AS amount, spendable_epoch, earned_epoch, NULL AS pool
		FROM reward_rest WHERE addr_id = $1`, w.id)
	rewardsSum := new(big.Int)
	for _, r := range append(rewards, rest...) {
		if r.Spendable > w.epoch {
			continue
		}
		rewardsSum.Add(rewardsSum, bigOf(t, r.Amount))
		typ := r.Type
		if typ == "proposal_refund" {
			typ = "refund"
		}
		w.rewards = append(w.rewards, account.Reward{Epoch: r.Earned, Amount: r.Amount, PoolID: r.Pool, Type: typ})
	}
	slices.SortFunc(w.rewards, func(a, b account.Reward) int {
		pool := 0
		switch {
		case a.PoolID == nil && b.PoolID != nil:
			pool = 1
		case a.PoolID != nil && b.PoolID == nil:
			pool = -1
		case a.PoolID != nil:
			pool = cmp.Compare(*a.PoolID, *b.PoolID)
		}
		return cmp.Or(cmp.Compare(a.Epoch, b.Epoch), cmp.Compare(rewardTypeRank[a.Type], rewardTypeRank[b.Type]),
			pool, bigOf(t, a.Amount).Cmp(bigOf(t, b.Amount)))
	})

	// Withdrawals: valid transactions only, chain order.
	type wdRow struct {
		Tx    int64     `db:"tx_id"`
		ID    int64     `db:"id"`
		Hash  string    `db:"hash"`
		Amt   string    `db:"amount"`
		Time  time.Time `db:"time"`
		Valid bool      `db:"valid_contract"`
	}
	var wds []wdRow
	mustSelect(t, c, &wds, `SELECT w.tx_id, w.id, encode(t.hash, 'hex') AS hash, w.amount::text AS amount, b.time, t.valid_contract
		FROM withdrawal w, tx t, block b WHERE t.id = w.tx_id AND b.id = t.block_id AND w.addr_id = $1`, w.id)
	slices.SortFunc(wds, func(a, b wdRow) int { return cmp.Or(cmp.Compare(a.Tx, b.Tx), cmp.Compare(a.ID, b.ID)) })
	withdrawn := new(big.Int)
	for _, r := range wds {
		if !r.Valid {
			continue
		}
		withdrawn.Add(withdrawn, bigOf(t, r.Amt))
		w.withdrawals = append(w.withdrawals, account.Withdrawal{TxHash: r.Hash, Amount: r.Amt, BlockTime: dbsync.AsUTC(r.Time)})
	}

	var stakes []string
	mustSelect(t, c, &stakes, `SELECT amount::text FROM epoch_stake WHERE addr_id = $1 AND epoch_no = $2`, w.id, w.epoch)
	activeStake := new(big.Int)
	for _, a := range stakes {
		activeStake.Add(activeStake, bigOf(t, a))
	}
	available := new(big.Int).Sub(rewardsSum, withdrawn)
	if available.Sign() < 0 {
		available.SetInt64(0)
	}
	s.ActiveStake, s.RewardsSum, s.WithdrawnRewards, s.AvailableRewards = activeStake.String(), rewardsSum.String(), withdrawn.String(), available.String()
	w.summary = s

	// Addresses: every output carrying the credential, first appearance wins.
	type outRow struct {
		ID      int64  `db:"id"`
		Address string `db:"address"`
	}
	var outs []outRow
	mustSelect(t, c, &outs, `SELECT id, address FROM tx_out WHERE stake_address_id = $1`, w.id)
	slices.SortFunc(outs, func(a, b outRow) int { return cmp.Compare(a.ID, b.ID) })
	seen := map[string]bool{}
	for _, o := range outs {
		if !seen[o.Address] {
			seen[o.Address] = true
			w.addresses = append(w.addresses, o.Address)
		}
	}

	// Assets of the unspent outputs, summed in Go.
	type assetRow struct {
		Unit string `db:"unit"`
		Qty  string `db:"qty"`
	}
	var held []assetRow
	mustSelect(t, c, &held, `SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') AS unit, m.quantity::text AS qty
		FROM tx_out o JOIN ma_tx_out m ON m.tx_out_id = o.id JOIN multi_asset ma ON ma.id = m.ident
		WHERE o.stake_address_id = $1 AND `+unspentFilter(c), w.id)
	sums := map[string]*big.Int{}
	for _, h := range held {
		if sums[h.Unit] == nil {
			sums[h.Unit] = new(big.Int)
		}
		sums[h.Unit].Add(sums[h.Unit], bigOf(t, h.Qty))
	}
	for unit, q := range sums {
		w.assets = append(w.assets, account.Asset{Unit: unit, Quantity: q.String()})
	}
	slices.SortFunc(w.assets, func(a, b account.Asset) int { return cmp.Compare(a.Unit, b.Unit) })
	return w
}

// sampleAccounts are the stake accounts the tests walk: the generator's
// named accounts when it names them, and by plain SQL the busiest (most
// rewards and withdrawals), every deregistered one, and a spread.
func sampleAccounts(t *testing.T, c *chain) []string {
	t.Helper()
	var views []string
	views = append(views, manifestAccounts(c)...)
	var found []string
	mustSelect(t, c, &found, `(SELECT sa.view FROM stake_address sa
		  ORDER BY (SELECT count(*) FROM reward r WHERE r.addr_id = sa.id)
		         + (SELECT count(*) FROM withdrawal w WHERE w.addr_id = sa.id) DESC, sa.id LIMIT 3)
		UNION ALL (SELECT sa.view FROM stake_address sa WHERE EXISTS (SELECT 1 FROM stake_deregistration d WHERE d.addr_id = sa.id) ORDER BY sa.id LIMIT 10)
		UNION ALL (SELECT sa.view FROM stake_address sa WHERE EXISTS (SELECT 1 FROM reward_rest r WHERE r.addr_id = sa.id) ORDER BY sa.id LIMIT 5)
		UNION ALL (SELECT sa.view FROM stake_address sa WHERE EXISTS (SELECT 1 FROM withdrawal w WHERE w.addr_id = sa.id) ORDER BY sa.id LIMIT 5)
		UNION ALL (SELECT sa.view FROM stake_address sa ORDER BY md5(sa.view) LIMIT 12)
		UNION ALL (SELECT sa.view FROM stake_address sa JOIN delegation d ON d.addr_id = sa.id GROUP BY sa.id ORDER BY count(*) DESC, sa.id LIMIT 1)
		UNION ALL (SELECT sa.view FROM stake_address sa JOIN withdrawal w ON w.addr_id = sa.id GROUP BY sa.id ORDER BY count(*) DESC, sa.id LIMIT 1)
		UNION ALL (SELECT sa.view FROM stake_address sa JOIN tx_out o ON o.stake_address_id = sa.id GROUP BY sa.id ORDER BY count(DISTINCT o.address) DESC, sa.id LIMIT 1)`)
	for _, v := range found {
		if !slices.Contains(views, v) {
			views = append(views, v)
		}
	}
	return views
}

func mustStakeKey(t *testing.T, s string) cardano.StakeKey {
	t.Helper()
	k, err := cardano.ParseStakeKey(s, true)
	if err != nil {
		t.Fatalf("stake key %q: %v", s, err)
	}
	return k
}

// walk pages through a list with the given limit and order, checking
// every page's total and tip, and returns the items in answer order.
func walk[T any](t *testing.T, c *chain, what string, limit int, asc bool, total int,
	read func(q dbsync.AccountQuery) (dbsync.AccountPage[T], error)) []T {
	t.Helper()
	var all []T
	for offset := 0; ; offset += limit {
		page, err := read(dbsync.AccountQuery{Limit: limit, Offset: offset, Ascending: asc})
		if err != nil {
			t.Fatalf("%s limit %d offset %d: %v", what, limit, offset, err)
		}
		if page.Total != int64(total) {
			t.Errorf("%s limit %d offset %d: total %d, want %d", what, limit, offset, page.Total, total)
		}
		if page.Tip.BlockHash != c.manifest.Tip.BlockHash {
			t.Errorf("%s: tip %s, want %s", what, page.Tip.BlockHash, c.manifest.Tip.BlockHash)
		}
		if page.Items == nil {
			t.Fatalf("%s: nil items", what)
		}
		all = append(all, page.Items...)
		if len(page.Items) < limit {
			if offset+len(page.Items) != total && total > 0 {
				t.Errorf("%s: walk ended at %d of %d", what, offset+len(page.Items), total)
			}
			return all
		}
	}
}

// checkList walks a list at several page sizes, in both orders when it
// has them, and compares it with want.
func checkList[T any](t *testing.T, c *chain, what string, want []T, ordered bool,
	read func(q dbsync.AccountQuery) (dbsync.AccountPage[T], error)) {
	t.Helper()
	orders := []bool{true}
	if ordered {
		orders = append(orders, false)
	}
	for _, asc := range orders {
		exp := slices.Clone(want)
		if !asc {
			slices.Reverse(exp)
		}
		for _, limit := range []int{1, 3, 100} {
			got := walk(t, c, what, limit, asc, len(want), read)
			if render(got) != render(exp) {
				t.Errorf("%s asc=%v limit %d:\n got %s\nwant %s", what, asc, limit, render(got), render(exp))
			}
		}
		// Past the end: nothing, the total still known.
		page, err := read(dbsync.AccountQuery{Limit: 5, Offset: len(want) + 7, Ascending: asc})
		if err != nil || len(page.Items) != 0 || page.Total != int64(len(want)) {
			t.Errorf("%s past the end: %d items, total %d, %v", what, len(page.Items), page.Total, err)
		}
	}
}

func TestAccounts(t *testing.T) {
	t.Parallel() // reads the shared chains, changes nothing shared
	needChains(t)
	ctx := t.Context()
	forEachChain(t, func(t *testing.T, c *chain) {
		kinds := map[string]bool{}
		for _, view := range sampleAccounts(t, c) {
			w := wantAccount(t, c, view)
			key := mustStakeKey(t, view)
			got, err := account.Read(ctx, c.db, key)
			if err != nil {
				t.Fatalf("%s: %v", view, err)
			}
			if render(got) != render(w.summary) {
				t.Errorf("%s:\n got %s\nwant %s", view, render(got), render(w.summary))
			}
			kinds[fmt.Sprintf("active=%v", got.Active)] = true
			kinds[fmt.Sprintf("pool=%v", got.PoolID != nil)] = true
			kinds[fmt.Sprintf("rewards=%v", len(w.rewards) > 0)] = true
			kinds[fmt.Sprintf("withdrawals=%v", len(w.withdrawals) > 0)] = true
			checkList(t, c, view+" rewards", w.rewards, true, func(q dbsync.AccountQuery) (dbsync.AccountPage[account.Reward], error) {
				return account.Rewards(ctx, c.db, key, q)
			})
			checkList(t, c, view+" delegations", w.delegations, true, func(q dbsync.AccountQuery) (dbsync.AccountPage[account.Delegation], error) {
				return account.Delegations(ctx, c.db, key, q)
			})
			checkList(t, c, view+" registrations", w.registrations, true, func(q dbsync.AccountQuery) (dbsync.AccountPage[account.Registration], error) {
				return account.Registrations(ctx, c.db, key, q)
			})
			checkList(t, c, view+" withdrawals", w.withdrawals, true, func(q dbsync.AccountQuery) (dbsync.AccountPage[account.Withdrawal], error) {
				return account.Withdrawals(ctx, c.db, key, q)
			})
			checkList(t, c, view+" addresses", w.addresses, false, func(q dbsync.AccountQuery) (dbsync.AccountPage[string], error) {
				return account.Addresses(ctx, c.db, key, q)
			})
			checkList(t, c, view+" assets", w.assets, false, func(q dbsync.AccountQuery) (dbsync.AccountPage[account.Asset], error) {
				return account.Assets(ctx, c.db, key, q)
			})
		}
		// The samples must reach both sides of every rule checked above.
		for _, k := range []string{"active=true", "active=false", "pool=true", "pool=false", "rewards=true", "withdrawals=true"} {
			if !kinds[k] {
				t.Errorf("no sample account with %s", k)
			}
		}
	})
}

// A bare 56-hex credential finds the same account as its bech32 stake
// address, which the answer names.
func TestAccountByHexCredential(t *testing.T) {
	needChains(t)
	forEachChain(t, func(t *testing.T, c *chain) {
		view := sampleAccounts(t, c)[0]
		var raw []byte
		if err := c.raw.Get(&raw, `SELECT hash_raw FROM stake_address WHERE view = $1`, view); err != nil {
			t.Fatal(err)
		}
		byView, err := account.Read(t.Context(), c.db, mustStakeKey(t, view))
		if err != nil {
			t.Fatal(err)
		}
		byHex, err := account.Read(t.Context(), c.db, mustStakeKey(t, hex.EncodeToString(raw[1:])))
		if err != nil {
			t.Fatal(err)
		}
		if render(byHex) != render(byView) || byHex.StakeAddress != view {
			t.Errorf("hex: %s\nbech32: %s", render(byHex), render(byView))
		}
	})
}

// A stake address never seen on chain is the empty account and empty
// lists, in the current tip's snapshot; never an error.
func TestAccountNeverSeen(t *testing.T) {
	needChains(t)
	ctx := t.Context()
	cred := make([]byte, 28)
	if _, err := rand.Read(cred); err != nil {
		t.Fatal(err)
	}
	forEachChain(t, func(t *testing.T, c *chain) {
		key := mustStakeKey(t, hex.EncodeToString(cred))
		var n int
		if err := c.raw.Get(&n, `SELECT count(*) FROM stake_address WHERE substring(hash_raw FROM 2) = $1`, cred); err != nil || n != 0 {
			t.Fatalf("random credential exists (%d, %v)", n, err)
		}
		a, err := account.Read(ctx, c.db, key)
		if err != nil {
			t.Fatal(err)
		}
		want := account.State{StakeAddress: key.Bech32(), ActiveStake: "0", RewardsSum: "0", WithdrawnRewards: "0", AvailableRewards: "0"}
		if render(a) != render(want) {
			t.Errorf("got %s, want %s", render(a), render(want))
		}
		// The bech32 form names the key credential and parses back to it.
		back := mustStakeKey(t, a.StakeAddress)
		if hex.EncodeToString(back.Candidates()[0]) != "e1"+hex.EncodeToString(cred) {
			t.Errorf("stake address %s is %x", a.StakeAddress, back.Candidates()[0])
		}
		q := dbsync.AccountQuery{Limit: 10, Ascending: true}
		checkEmpty := func(what string, n int, total int64, tip dbsync.Tip, err error) {
			if err != nil || n != 0 || total != 0 || tip.BlockHash != c.manifest.Tip.BlockHash {
				t.Errorf("%s: %d items, total %d, tip %s, %v", what, n, total, tip.BlockHash, err)
			}
		}
		r, err := account.Rewards(ctx, c.db, key, q)
		checkEmpty("rewards", len(r.Items), r.Total, r.Tip, err)
		d, err := account.Delegations(ctx, c.db, key, q)
		checkEmpty("delegations", len(d.Items), d.Total, d.Tip, err)
		g, err := account.Registrations(ctx, c.db, key, q)
		checkEmpty("registrations", len(g.Items), g.Total, g.Tip, err)
		w, err := account.Withdrawals(ctx, c.db, key, q)
		checkEmpty("withdrawals", len(w.Items), w.Total, w.Tip, err)
		ad, err := account.Addresses(ctx, c.db, key, q)
		checkEmpty("addresses", len(ad.Items), ad.Total, ad.Tip, err)
		as, err := account.Assets(ctx, c.db, key, q)
		checkEmpty("assets", len(as.Items), as.Total, as.Tip, err)
	})
}

// manifestAccounts are the accounts the generator names.
func manifestAccounts(c *chain) []string {
	a := c.manifest.Accounts
	var out []string
	for _, v := range []string{a.Delegated, a.ReRegistered, a.Deregistered, a.DRep, a.AlwaysAbstain, a.NoConfidence, a.Refunded, a.Busiest} {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// render shows a value with its pointers followed, for comparing and
// printing answers.
func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("unrenderable %T: %v", v, err)
	}
	return string(b)
}

// The generator's named accounts are what their names say, as the
// endpoints answer them (their figures are checked against SQL above).
func TestAccountManifestExamples(t *testing.T) {
	needChains(t)
	ctx := t.Context()
	forEachChain(t, func(t *testing.T, c *chain) {
		a := c.manifest.Accounts
		get := func(view string) account.State {
			t.Helper()
			if view == "" {
				t.Fatal("the manifest names no such account")
			}
			acc, err := account.Read(ctx, c.db, mustStakeKey(t, view))
			if err != nil {
				t.Fatal(err)
			}
			return acc
		}
		all := dbsync.AccountQuery{Limit: 100, Ascending: true}
		if d := get(a.Delegated); !d.Active || d.PoolID == nil || d.RewardsSum == "0" || d.WithdrawnRewards == "0" {
			t.Errorf("delegated: %s", render(d))
		}
		re := get(a.ReRegistered)
		regs, err := account.Registrations(ctx, c.db, mustStakeKey(t, a.ReRegistered), all)
		if err != nil {
			t.Fatal(err)
		}
		var actions []string
		for _, r := range regs.Items {
			actions = append(actions, r.Action)
		}
		if !re.Active || re.PoolID == nil || len(actions) < 3 || actions[len(actions)-1] != "registered" || !slices.Contains(actions, "deregistered") {
			t.Errorf("re-registered: %s, %v", render(re), actions)
		}
		if d := get(a.Deregistered); d.Active || d.ActiveEpoch != nil || d.PoolID != nil || d.DRepID != nil {
			t.Errorf("deregistered: %s", render(d))
		}
		if d := get(a.DRep); d.DRepID == nil || len(*d.DRepID) < 6 || (*d.DRepID)[:5] != "drep1" {
			t.Errorf("drep: %s", render(d))
		}
		if d := get(a.AlwaysAbstain); d.DRepID == nil || *d.DRepID != "drep_always_abstain" {
			t.Errorf("always abstain: %s", render(d))
		}
		if d := get(a.NoConfidence); d.DRepID == nil || *d.DRepID != "drep_always_no_confidence" {
			t.Errorf("no confidence: %s", render(d))
		}
		get(a.Refunded)
		rw, err := account.Rewards(ctx, c.db, mustStakeKey(t, a.Refunded), all)
		if err != nil {
			t.Fatal(err)
		}
		withPool, without := 0, 0
		for _, r := range rw.Items {
			if r.Type == "refund" && r.PoolID != nil {
				withPool++
			}
			if r.Type == "refund" && r.PoolID == nil {
				without++
			}
		}
		if withPool == 0 || without == 0 {
			t.Errorf("refunded: want a pool-deposit and a proposal refund: %s", render(rw.Items))
		}
		if d := get(a.Busiest); d.RewardsSum == "0" {
			t.Errorf("busiest: %s", render(d))
		}
	})
}

// A withdrawal recorded in a transaction that failed phase-2 validation
// withdraws nothing: it is neither listed nor summed. The generator writes
// none, so the test adds one, for a stake address of its own, on a failed
// transaction of the chain, and removes both afterwards.
func TestAccountIgnoresFailedTxWithdrawal(t *testing.T) {
	needChains(t)
	ctx := t.Context()
	forEachChain(t, func(t *testing.T, c *chain) {
		cred := make([]byte, 28)
		if _, err := rand.Read(cred); err != nil {
			t.Fatal(err)
		}
		raw := append([]byte{0xe1}, cred...)
		var failedTx, validTx int64
		if err := c.raw.Get(&failedTx, `SELECT min(id) FROM tx WHERE NOT valid_contract`); err != nil {
			t.Fatal(err)
		}
		if err := c.raw.Get(&validTx, `SELECT min(id) FROM tx WHERE valid_contract`); err != nil {
			t.Fatal(err)
		}
		var addrID int64
		if err := c.raw.Get(&addrID, `INSERT INTO stake_address (hash_raw, view, script_hash)
			VALUES (decode($1, 'hex'), $2, NULL) RETURNING id`, hex.EncodeToString(raw), "stake_test_"+hex.EncodeToString(raw)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			c.raw.MustExec(`DELETE FROM withdrawal WHERE addr_id = $1`, addrID)
			c.raw.MustExec(`DELETE FROM stake_address WHERE id = $1`, addrID)
		})
		c.raw.MustExec(`INSERT INTO withdrawal (addr_id, amount, redeemer_id, tx_id) VALUES ($1, 7000000, NULL, $2), ($1, 5, NULL, $3)`,
			addrID, failedTx, validTx)
		key := mustStakeKey(t, hex.EncodeToString(cred))
		a, err := account.Read(ctx, c.db, key)
		if err != nil {
			t.Fatal(err)
		}
		if a.WithdrawnRewards != "5" {
			t.Errorf("withdrawn %s, want 5 (the failed transaction's 7000000 withdraws nothing)", a.WithdrawnRewards)
		}
		w, err := account.Withdrawals(ctx, c.db, key, dbsync.AccountQuery{Limit: 10, Ascending: true})
		if err != nil {
			t.Fatal(err)
		}
		if w.Total != 1 || len(w.Items) != 1 || w.Items[0].Amount != "5" {
			t.Errorf("withdrawals %s, want only the valid transaction's", render(w))
		}
	})
}
