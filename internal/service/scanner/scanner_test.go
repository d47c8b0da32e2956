package scanner

import (
	"context"
	"encoding/hex"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/events"
)

// checkAgainst: the webhook's live tx.confirmed events are exactly the
// transactions of blocks (from, to] that touch the item, one each, with
// what the item received and sent as independent SQL computes it.
func (e *env) checkAgainst(hook uuid.UUID, kind, value string, from, to int64) int {
	return e.check(hook, kind, value, from, to, false)
}

// check is checkAgainst; with newest, for a webhook that does not want
// tx.rolled_back (its rolled-back confirmations stay unrevoked), only each
// transaction's newest confirmation counts.
func (e *env) check(hook uuid.UUID, kind, value string, from, to int64, newest bool) int {
	e.t.Helper()
	want := e.expected(kind, value, from, to)
	got := map[string]eventRow{}
	for _, ev := range e.events(hook) {
		if ev.Type != events.TypeTxConfirmed || ev.RevokedBy != nil {
			continue
		}
		if _, dup := got[ev.TxHash]; dup && !newest {
			e.t.Errorf("%s %s: two live events for tx %s", kind, value, ev.TxHash)
		}
		got[ev.TxHash] = ev
	}
	if newest {
		for tx := range got {
			if _, ok := want[tx]; !ok {
				delete(got, tx)
			}
		}
	}
	if len(got) != len(want) {
		e.t.Errorf("%s %s: %d events, %d transactions touch it", kind, value, len(got), len(want))
	}
	for tx, mv := range want {
		ev, ok := got[tx]
		if !ok {
			e.t.Errorf("%s %s: no event for tx %s", kind, value, tx)
			continue
		}
		d := ev.confirmed(e.t)
		var item *events.ItemMovement
		for i := range d.Items {
			if d.Items[i].Kind == kind && d.Items[i].Value == value {
				item = &d.Items[i]
			}
		}
		if item == nil {
			e.t.Errorf("%s %s: event for tx %s lacks the item: %+v", kind, value, tx, d.Items)
			continue
		}
		if !reflect.DeepEqual(item.Received, mv.received) || !reflect.DeepEqual(item.Sent, mv.sent) {
			e.t.Errorf("%s %s tx %s: received %+v sent %+v, SQL says %+v and %+v", kind, value, tx, item.Received, item.Sent, mv.received, mv.sent)
		}
		var blockHash, fee string
		var valid bool
		if err := e.raw.QueryRow(`SELECT encode(b.hash, 'hex'), t.fee::text, t.valid_contract FROM tx t JOIN block b ON b.id = t.block_id
			WHERE t.hash = decode($1, 'hex')`, tx).Scan(&blockHash, &fee, &valid); err != nil {
			e.t.Fatal(err)
		}
		b := ev.body(e.t)
		if ev.BlockHash != blockHash || b.Block.Hash != blockHash || d.Fee != fee || d.ValidContract != valid || d.TxHash != tx {
			e.t.Errorf("tx %s: event block %s fee %s valid %v, db-sync %s %s %v", tx, ev.BlockHash, d.Fee, d.ValidContract, blockHash, fee, valid)
		}
		if d.Confirmations != b.Tip.Height-b.Block.Height+1 || d.Confirmations < int64(d.Depth)+1 {
			e.t.Errorf("tx %s: %d confirmations at depth %d (block %d, tip %d)", tx, d.Confirmations, d.Depth, b.Block.Height, b.Tip.Height)
		}
	}
	return len(want)
}

// A watched item of each kind gets exactly one tx.confirmed per
// transaction touching it, with the movement independent SQL finds;
// webhooks that do not want tx.confirmed, or are deleted, get nothing.
func TestConfirmedEveryKind(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	e.scanner(t.Context(), nil)
	start := e.tip()
	e.waitScanned(start)

	// Blocks until one carries an output with a native asset and a stake
	// address: the items are taken from it.
	var tx, addr, stake, cred, policy, unit string
	for i := 0; i < 60 && tx == ""; i++ {
		e.pay(e.m.Addresses[i%len(e.m.Addresses)].Address, 4_000_000)
		e.appendBlocks(1)
		_ = e.raw.QueryRow(`SELECT encode(t.hash, 'hex'), o.address, sa.view, encode(o.payment_cred, 'hex'),
			encode(a.policy, 'hex'), encode(a.policy || a.name, 'hex')
			FROM block b JOIN tx t ON t.block_id = b.id JOIN tx_out o ON o.tx_id = t.id
			JOIN stake_address sa ON sa.id = o.stake_address_id
			JOIN ma_tx_out m ON m.tx_out_id = o.id JOIN multi_asset a ON a.id = m.ident
			WHERE b.block_no > $1 ORDER BY t.id LIMIT 1`, start).Scan(&tx, &addr, &stake, &cred, &policy, &unit)
	}
	if tx == "" {
		t.Fatal("no block carried a native asset")
	}
	items := map[string]string{events.KindTx: tx, events.KindAddress: addr, events.KindStakeAddress: stake,
		events.KindPaymentCredential: cred, events.KindPolicy: policy, events.KindAsset: unit}
	hooks := map[string]uuid.UUID{}
	for kind, value := range items {
		hooks[kind] = e.webhook(0, allTypes, events.StatusActive, start, events.Item{Kind: kind, Value: value})
	}
	rolledOnly := e.webhook(0, []string{events.TypeTxRolledBack}, events.StatusActive, start, events.Item{Kind: events.KindAddress, Value: addr})
	deleted := e.webhook(0, allTypes, events.StatusDisabled, start, events.Item{Kind: events.KindAddress, Value: addr})
	e.admin.MustExec(`UPDATE syncgate.webhooks SET deleted_at = now(), status = 'active' WHERE id = $1`, deleted)
	e.appendBlocks(2)
	tip := e.tip()
	e.waitScanned(tip)

	for kind, value := range items {
		if n := e.checkAgainst(hooks[kind], kind, value, start, tip); n == 0 {
			t.Errorf("%s %s: no transaction touches it", kind, value)
		}
	}
	if n := len(e.events(rolledOnly)) + len(e.events(deleted)); n != 0 {
		t.Errorf("%d events for webhooks that do not want them", n)
	}
	e.checkSequences()
}

// With depth d, a transaction is announced once d blocks are on top of
// its block, not before, with d+1 confirmations.
func TestDepth(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	e.scanner(t.Context(), nil)
	e.waitScanned(e.tip())
	const depth = 3
	addr := e.m.Addresses[1].Address
	hook := e.webhook(depth, allTypes, events.StatusActive, e.tip()-depth, events.Item{Kind: events.KindAddress, Value: addr})
	hash := hex.EncodeToString(e.pay(addr, 5_000_000))
	b := e.appendBlocks(1)
	var in int64
	if err := e.raw.Get(&in, `SELECT count(*) FROM tx t JOIN block b ON b.id = t.block_id WHERE t.hash = decode($1, 'hex') AND b.block_no = $2`, hash, b.BlockNo); err != nil || in != 1 {
		t.Fatalf("the payment is not in block %d (%v)", b.BlockNo, err)
	}
	announced := func() []eventRow {
		var out []eventRow
		for _, ev := range e.events(hook) {
			if ev.TxHash == hash {
				out = append(out, ev)
			}
		}
		return out
	}
	for i := range depth {
		e.waitScanned(e.tip())
		if got := announced(); len(got) != 0 {
			t.Fatalf("announced with %d blocks on top, depth %d", i, depth)
		}
		e.appendBlocks(1)
	}
	e.waitScanned(e.tip())
	got := announced()
	if len(got) != 1 {
		t.Fatalf("%d events with %d blocks on top", len(got), depth)
	}
	d := got[0].confirmed(t)
	if got[0].BlockNo != b.BlockNo || d.Depth != depth || d.Confirmations != depth+1 {
		t.Errorf("event at block %d depth %d confirmations %d; want %d, %d, %d", got[0].BlockNo, d.Depth, d.Confirmations, b.BlockNo, depth, depth+1)
	}
	e.checkAgainst(hook, events.KindAddress, addr, b.BlockNo-1, e.tip()-depth)
	e.checkSequences()
}

// Rollbacks of 1 to 3 blocks: every announced transaction above the fork
// gets exactly one tx.rolled_back (for webhooks that want them), and a
// transaction included again gets a new tx.confirmed.
func TestRollback(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	e.scanner(t.Context(), nil)
	start := e.tip()
	e.waitScanned(start)
	addr := e.m.Addresses[2].Address
	hook := e.webhook(0, allTypes, events.StatusActive, start, events.Item{Kind: events.KindAddress, Value: addr})
	confOnly := e.webhook(0, []string{events.TypeTxConfirmed}, events.StatusActive, start, events.Item{Kind: events.KindAddress, Value: addr})
	ctx := t.Context()
	for round, n := range []int{1, 2, 3, 2} {
		for range 4 {
			e.pay(addr, 3_000_000)
			e.appendBlocks(1)
		}
		e.waitScanned(e.tip())
		fork := e.tip() - int64(n)
		var above []eventRow
		for _, ev := range e.events(hook) {
			if ev.Type == events.TypeTxConfirmed && ev.RevokedBy == nil && ev.BlockNo > fork {
				above = append(above, ev)
			}
		}
		if len(above) == 0 {
			t.Fatalf("round %d: nothing announced above the fork", round)
		}
		if _, err := e.f.Rollback(ctx, n); err != nil {
			t.Fatal(err)
		}
		if round%2 == 0 {
			e.waitScanned(fork) // the scanner sees the shorter chain first
		}
		e.appendBlocks(n + 1)
		e.waitScanned(e.tip())

		all := e.events(hook)
		byID := map[uuid.UUID]eventRow{}
		for _, ev := range all {
			byID[ev.ID] = ev
		}
		for _, c := range above {
			var revokers []eventRow
			for _, ev := range all {
				if ev.Type == events.TypeTxRolledBack && ev.rolledBack(t).Revokes == c.ID {
					revokers = append(revokers, ev)
				}
			}
			if len(revokers) != 1 {
				t.Errorf("round %d: tx %s (block %d) has %d rollbacks", round, c.TxHash, c.BlockNo, len(revokers))
				continue
			}
			r := revokers[0]
			if now := byID[c.ID]; now.RevokedBy == nil || *now.RevokedBy != r.ID || r.TxHash != c.TxHash || r.rolledBack(t).RevokedSeq != c.Seq || r.Seq <= c.Seq {
				t.Errorf("round %d: rollback %+v of %+v", round, r, now)
			}
			// Payments of the rolled-back blocks are included again.
			var again int
			for _, ev := range all {
				if ev.Type == events.TypeTxConfirmed && ev.TxHash == c.TxHash && ev.RevokedBy == nil && ev.Seq > r.Seq {
					again++
				}
			}
			var inChain int
			if err := e.raw.Get(&inChain, `SELECT count(*) FROM tx WHERE hash = decode($1, 'hex')`, c.TxHash); err != nil {
				t.Fatal(err)
			}
			if again != inChain {
				t.Errorf("round %d: tx %s is %d times on the chain again, announced again %d times", round, c.TxHash, inChain, again)
			}
		}
	}
	e.checkAgainst(hook, events.KindAddress, addr, start, e.tip())
	e.check(confOnly, events.KindAddress, addr, start, e.tip(), true)
	for _, ev := range e.events(confOnly) {
		if ev.Type != events.TypeTxConfirmed {
			t.Errorf("a webhook without tx.rolled_back got %s", ev.Type)
		}
	}
	var stale int
	if err := e.admin.Get(&stale, `SELECT count(*) FROM syncgate.scanner_blocks WHERE block_no > (SELECT block_no FROM syncgate.scanner_checkpoints)`); err != nil || stale != 0 {
		t.Errorf("%d remembered blocks above the checkpoint (%v)", stale, err)
	}
	e.checkSequences()
}

// Two scanners on one network: one leads; when its context ends or its
// connection is killed the other takes over, and no event is decided
// twice or lost.
func TestLeaderTakeover(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	ctx1, cancel1 := context.WithCancel(t.Context())
	s1, done1 := e.scanner(ctx1, nil)
	waitFor(t, 10*time.Second, "a leader", s1.Leading)
	s2, _ := e.scanner(t.Context(), nil)
	start := e.tip()
	e.waitScanned(start)
	addr := e.m.Addresses[3].Address
	hook := e.webhook(0, allTypes, events.StatusActive, start, events.Item{Kind: events.KindAddress, Value: addr})
	traffic := func() {
		for range 3 {
			e.pay(addr, 2_000_000)
			e.appendBlocks(1)
		}
		e.waitScanned(e.tip())
	}
	traffic()
	if s2.Leading() {
		t.Fatal("two leaders")
	}
	cancel1()
	<-done1
	waitFor(t, 10*time.Second, "the standby to take over", s2.Leading)
	traffic()

	s3, _ := e.scanner(t.Context(), nil)
	pid := e.lockHolder()
	e.admin.MustExec(`SELECT pg_terminate_backend($1)`, pid)
	waitFor(t, 10*time.Second, "a new leader", func() bool { p := e.lockHolder(); return p != 0 && p != pid })
	traffic()
	if s2.Leading() && s3.Leading() {
		t.Fatal("two leaders")
	}
	e.checkAgainst(hook, events.KindAddress, addr, start, e.tip())
	e.checkSequences()
}

// Without the lock, two scanners stepping at once on one network (chain
// moving, rolling back) still decide each event once: the compare-and-set
// on the checkpoint and on scanned_through lets one of them win each step.
func TestConcurrentStepsCompareAndSet(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for range 2 {
		s, err := New(Options{Network: e.net, DB: e.db, Events: e.store, Interval: time.Millisecond, BatchBlocks: 2})
		if err != nil {
			t.Fatal(err)
		}
		conn, err := e.admin.Connx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() { defer wg.Done(); defer conn.Close(); _ = s.scan(ctx, conn) }()
	}
	defer func() { cancel(); wg.Wait() }()
	start := e.tip()
	e.waitScanned(start)
	addr := e.m.Addresses[0].Address
	hooks := []uuid.UUID{
		e.webhook(0, allTypes, events.StatusActive, start, events.Item{Kind: events.KindAddress, Value: addr}),
		e.webhook(1, allTypes, events.StatusActive, start-1, events.Item{Kind: events.KindAddress, Value: addr}),
		e.webhook(0, allTypes, events.StatusActive, start-30, events.Item{Kind: events.KindAddress, Value: addr}),
	}
	for i := range 12 {
		e.pay(addr, 2_000_000)
		e.appendBlocks(1)
		if i%5 == 4 {
			if _, err := e.f.Rollback(t.Context(), 2); err != nil {
				t.Fatal(err)
			}
		}
	}
	e.appendBlocks(1)
	e.waitScanned(e.tip())
	e.checkAgainst(hooks[0], events.KindAddress, addr, start, e.tip())
	e.checkAgainst(hooks[1], events.KindAddress, addr, start-1, e.tip()-1)
	e.checkAgainst(hooks[2], events.KindAddress, addr, start-30, e.tip())
	e.checkSequences()
}

// A scanner killed between its reads and its commit (its context
// cancelled, or its admin connection terminated inside the transaction)
// loses nothing and decides nothing twice.
func TestKilledMidStep(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	var armed atomic.Int32 // 1: cancel, 2: terminate the connection
	ctx1, cancel1 := context.WithCancel(t.Context())
	var killed atomic.Int32
	hook := func(s *Scanner) {
		s.beforeCommit = func(ctx context.Context) {
			switch armed.Swap(0) {
			case 1:
				cancel1()
				<-ctx.Done()
				killed.Add(1)
			case 2:
				e.admin.MustExec(`SELECT pg_terminate_backend($1)`, e.lockHolder())
				killed.Add(1)
			}
		}
	}
	_, done1 := e.scanner(ctx1, hook)
	start := e.tip()
	e.waitScanned(start)
	addr := e.m.Addresses[4].Address
	wh := e.webhook(0, allTypes, events.StatusActive, start, events.Item{Kind: events.KindAddress, Value: addr})

	// Cancelled mid-step: nothing is decided; the next scanner decides it.
	armed.Store(1)
	hash := hex.EncodeToString(e.pay(addr, 2_500_000))
	e.appendBlocks(1)
	<-done1
	if killed.Load() != 1 {
		t.Fatal("the scanner was not stopped inside its step")
	}
	if n := len(e.events(wh)); n != 0 {
		t.Fatalf("%d events decided by a cancelled step", n)
	}
	s2, _ := e.scanner(t.Context(), hook)
	e.waitScanned(e.tip())

	// Its connection terminated mid-step: it leads again and decides once.
	armed.Store(2)
	hash2 := hex.EncodeToString(e.pay(addr, 2_500_000))
	e.appendBlocks(1)
	waitFor(t, 10*time.Second, "the kill", func() bool { return killed.Load() == 2 })
	e.waitScanned(e.tip())
	waitFor(t, 10*time.Second, "leadership again", s2.Leading)
	count := map[string]int{}
	for _, ev := range e.events(wh) {
		count[ev.TxHash]++
	}
	if count[hash] != 1 || count[hash2] != 1 {
		t.Errorf("events per payment: %d and %d", count[hash], count[hash2])
	}
	e.checkAgainst(wh, events.KindAddress, addr, start, e.tip())
	e.checkSequences()
}

// A transaction that failed phase-2 validation is announced with its
// collateral movement only, valid_contract false, as db-sync's collateral
// tables say.
func TestFailedScriptTx(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	failed := e.m.Txs.Failed.Hash
	var height int64
	var addr string
	if err := e.raw.QueryRow(`SELECT b.block_no, o.address FROM tx t JOIN block b ON b.id = t.block_id
		JOIN collateral_tx_in c ON c.tx_in_id = t.id JOIN tx_out o ON o.tx_id = c.tx_out_id AND o.index = c.tx_out_index
		WHERE t.hash = decode($1, 'hex') AND NOT t.valid_contract LIMIT 1`, failed).Scan(&height, &addr); err != nil {
		t.Fatalf("the failed transaction %s: %v", failed, err)
	}
	wh := e.webhook(0, allTypes, events.StatusActive, height-1,
		events.Item{Kind: events.KindAddress, Value: addr}, events.Item{Kind: events.KindTx, Value: failed})
	e.scanner(t.Context(), nil)
	e.waitScanned(e.tip())
	var ev *eventRow
	for _, r := range e.events(wh) {
		if r.TxHash == failed {
			if ev != nil {
				t.Fatal("two events for the failed transaction")
			}
			ev = &r
		}
	}
	if ev == nil {
		t.Fatal("the failed transaction was not announced")
	}
	d := ev.confirmed(t)
	if d.ValidContract {
		t.Error("valid_contract true")
	}
	// Independent: the collateral tables.
	var collIn, collInAt, collOut, collOutAt string
	if err := e.raw.QueryRow(`SELECT
		  (SELECT COALESCE(sum(o.value), 0)::text FROM collateral_tx_in c JOIN tx_out o ON o.tx_id = c.tx_out_id AND o.index = c.tx_out_index WHERE c.tx_in_id = t.id),
		  (SELECT COALESCE(sum(o.value), 0)::text FROM collateral_tx_in c JOIN tx_out o ON o.tx_id = c.tx_out_id AND o.index = c.tx_out_index WHERE c.tx_in_id = t.id AND o.address = $2),
		  (SELECT COALESCE(sum(r.value), 0)::text FROM collateral_tx_out r WHERE r.tx_id = t.id),
		  (SELECT COALESCE(sum(r.value), 0)::text FROM collateral_tx_out r WHERE r.tx_id = t.id AND r.address = $2)
		FROM tx t WHERE t.hash = decode($1, 'hex')`, failed, addr).Scan(&collIn, &collInAt, &collOut, &collOutAt); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{events.KindTx: {collOut, collIn}, events.KindAddress: {collOutAt, collInAt}}
	if len(d.Items) != 2 {
		t.Fatalf("items %+v", d.Items)
	}
	for _, it := range d.Items {
		if w := want[it.Kind]; it.Received.Lovelace != w[0] || it.Sent.Lovelace != w[1] {
			t.Errorf("%s: received %s sent %s; the collateral tables say %s and %s", it.Kind, it.Received.Lovelace, it.Sent.Lovelace, w[0], w[1])
		}
	}
	if collIn == "0" {
		t.Error("no collateral input")
	}
	e.checkSequences()
}
