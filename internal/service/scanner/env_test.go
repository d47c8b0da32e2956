package scanner

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/events"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// env is one test's moving chain (a fresh seeded db-sync and its
// follower) and a fresh admin database with one user.
type env struct {
	t       testing.TB
	net     string
	raw     *sqlx.DB
	db      *dbsync.DB
	admin   *sqlx.DB
	store   *events.Store
	m       *chaingen.Manifest
	f       *chaingen.Follower
	user    uuid.UUID
	mu      sync.Mutex
	pending []chaingen.PendingTx
}

func newEnv(t *testing.T, mode chaingen.Mode) *env { return newEnvTB(t, mode, 3) }

// newEnvTB is newEnv with txsPerBlock ordinary payments a block on average.
func newEnvTB(t testing.TB, mode chaingen.Mode, txsPerBlock int) *env {
	return newEnvSlots(t, mode, txsPerBlock, 20)
}

// newEnvSlots is newEnvTB with each block slotsPerBlock slots past the
// previous one (an epoch is 432,000 slots).
func newEnvSlots(t testing.TB, mode chaingen.Mode, txsPerBlock int, slotsPerBlock uint64) *env {
	t.Helper()
	testdb.RequirePostgres(t)
	dsn, m, drop, err := testdb.DBSync(mode, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	e := &env{t: t, net: m.Network, raw: testdb.Open(t, dsn), db: testdb.MustOpenDBSync(t, dsn), m: m}
	e.admin = testdb.Open(t, testdb.New(t, "sg_test_scanner"))
	if _, err := admin.Migrate(t.Context(), e.admin); err != nil {
		t.Fatal(err)
	}
	e.user = testdb.AdminUser(t, e.admin)
	e.store = events.NewStore(e.admin, events.Options{})
	e.f, err = chaingen.NewFollower(t.Context(), e.raw.DB, chaingen.FollowOptions{SlotsPerBlock: slotsPerBlock, TxsPerBlock: txsPerBlock, Seed: 9,
		Manifest: m, Pending: func() []chaingen.PendingTx {
			e.mu.Lock()
			defer e.mu.Unlock()
			p := e.pending
			e.pending = nil
			return p
		}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// pay queues a payment to addr into the next block, under hash.
func (e *env) pay(addr string, lovelace uint64) []byte {
	hash := make([]byte, 32)
	_, _ = rand.Read(hash)
	e.mu.Lock()
	e.pending = append(e.pending, chaingen.PendingTx{Hash: hash, To: []chaingen.PendingOutput{{Address: addr, Lovelace: lovelace}}})
	e.mu.Unlock()
	return hash
}

// appendBlocks appends n blocks and returns the last one.
func (e *env) appendBlocks(n int) chaingen.BlockRef {
	e.t.Helper()
	for range n {
		if _, err := e.f.AppendBlock(e.t.Context()); err != nil {
			e.t.Fatal(err)
		}
	}
	return e.f.Tip()
}

func (e *env) tip() int64 {
	e.t.Helper()
	var h int64
	if err := e.raw.Get(&h, `SELECT max(block_no) FROM block`); err != nil {
		e.t.Fatal(err)
	}
	return h
}

// scanner starts a scanner (fast polling), stopped when the test ends.
func (e *env) scanner(ctx context.Context, tweak func(*Scanner)) (*Scanner, <-chan struct{}) {
	e.t.Helper()
	s, err := New(Options{Network: e.net, DB: e.db, Events: e.store, Interval: 20 * time.Millisecond,
		LeaderRetry: 100 * time.Millisecond, BatchBlocks: 50, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		e.t.Fatal(err)
	}
	if tweak != nil {
		tweak(s)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{}) // closed when Run returns
	go func() {
		defer close(done)
		if err := s.Run(ctx); err != nil {
			e.t.Errorf("Run: %v", err)
		}
	}()
	e.t.Cleanup(func() { cancel(); <-done })
	return s, done
}

// webhook creates a webhook with a watch set, in one transaction (as the
// API does: a scanner never sees the webhook without its items).
func (e *env) webhook(depth int, types []string, status string, scannedThrough int64, items ...events.Item) uuid.UUID {
	e.t.Helper()
	return e.webhookIn(events.FormatStandard, depth, types, status, scannedThrough, items...)
}

// webhookIn is webhook in a body format. The format is written with the
// row (as the API does; no route changes it): a running scanner must not
// see the webhook in one format and its events written in another.
func (e *env) webhookIn(format string, depth int, types []string, status string, scannedThrough int64, items ...events.Item) uuid.UUID {
	e.t.Helper()
	tx := e.admin.MustBegin()
	defer tx.Rollback() //nolint:errcheck // no-op after commit
	var id uuid.UUID
	if err := tx.Get(&id, `INSERT INTO syncgate.webhooks (user_account_id, network, depth, event_types, status, secret_sealed, scanned_through, items, format)
		VALUES ($1, $2, $3, $4, $5, '\x00', $6, $7, $8) RETURNING id`, e.user, e.net, depth, pq.Array(types), status, scannedThrough, len(items), format); err != nil {
		e.t.Fatal(err)
	}
	for _, it := range items {
		tx.MustExec(`INSERT INTO syncgate.webhook_items (webhook_id, network, kind, value) VALUES ($1, $2, $3, $4)`, id, e.net, it.Kind, it.Value)
	}
	if err := tx.Commit(); err != nil {
		e.t.Fatal(err)
	}
	return id
}

var allTypes = []string{events.TypeTxConfirmed, events.TypeTxRolledBack}

// waitScanned waits until the checkpoint is at height and every active
// webhook has scanned through height minus its depth.
func (e *env) waitScanned(height int64) {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var behind bool
		if err := e.admin.Get(&behind, `SELECT (SELECT count(*) FROM syncgate.scanner_checkpoints WHERE network = $1 AND block_no = $2) = 0
			OR EXISTS (SELECT 1 FROM syncgate.webhooks WHERE status = 'active' AND deleted_at IS NULL AND NOT follows AND scanned_through <> $2 - depth)`, e.net, height); err != nil {
			e.t.Fatal(err)
		}
		if !behind {
			return
		}
		if time.Now().After(deadline) {
			var cp int64
			_ = e.admin.Get(&cp, `SELECT block_no FROM syncgate.scanner_checkpoints`)
			e.t.Fatalf("the scanner did not reach height %d (checkpoint %d)", height, cp)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// eventRow is a decided event with its body's data.
type eventRow struct {
	ID        uuid.UUID  `db:"id"`
	Webhook   uuid.UUID  `db:"webhook_id"`
	Seq       int64      `db:"seq"`
	Type      string     `db:"type"`
	TxHash    string     `db:"tx_hash"`
	BlockNo   int64      `db:"block_no"`
	BlockHash string     `db:"block_hash"`
	RevokedBy *uuid.UUID `db:"revoked_by"`
	Body      string     `db:"body"`
}

func (r eventRow) body(t testing.TB) events.Body {
	t.Helper()
	var b events.Body
	if err := json.Unmarshal([]byte(r.Body), &b); err != nil {
		t.Fatal(err)
	}
	return b
}

func (r eventRow) confirmed(t testing.TB) events.TxConfirmed {
	t.Helper()
	var d events.TxConfirmed
	if err := json.Unmarshal(r.body(t).Data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func (r eventRow) rolledBack(t testing.TB) events.TxRolledBack {
	t.Helper()
	var d events.TxRolledBack
	if err := json.Unmarshal(r.body(t).Data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// events lists a webhook's events in sequence order (every webhook's with
// uuid.Nil).
func (e *env) events(hook uuid.UUID) []eventRow {
	e.t.Helper()
	var out []eventRow
	if err := e.admin.Select(&out, `SELECT id, webhook_id, seq, type, COALESCE(encode(tx_hash, 'hex'), '') AS tx_hash, COALESCE(block_no, -1) AS block_no,
		COALESCE(encode(block_hash, 'hex'), '') AS block_hash, revoked_by, body
		FROM syncgate.webhook_events WHERE $1 = '00000000-0000-0000-0000-000000000000'::uuid OR webhook_id = $1
		ORDER BY webhook_id, seq`, hook); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// checkSequences: each webhook's events are numbered 1..last_seq without
// a gap, and no (webhook, type, tx, block) is decided twice.
func (e *env) checkSequences() {
	e.t.Helper()
	all := e.events(uuid.Nil)
	next := map[uuid.UUID]int64{}
	seen := map[string]bool{}
	for _, ev := range all {
		next[ev.Webhook]++
		if ev.Seq != next[ev.Webhook] {
			e.t.Errorf("webhook %s: seq %d where %d was due", ev.Webhook, ev.Seq, next[ev.Webhook])
		}
		k := fmt.Sprint(ev.Webhook, ev.Type, ev.TxHash, ev.BlockHash)
		if seen[k] && ev.BlockHash != "" { // webhook.* notes may repeat
			e.t.Errorf("decided twice: %s %s in block %s for %s", ev.Type, ev.TxHash, ev.BlockHash, ev.Webhook)
		}
		seen[k] = true
	}
	var last []struct {
		ID      uuid.UUID `db:"id"`
		LastSeq int64     `db:"last_seq"`
	}
	if err := e.admin.Select(&last, `SELECT id, last_seq FROM syncgate.webhooks`); err != nil {
		e.t.Fatal(err)
	}
	for _, w := range last {
		if w.LastSeq != next[w.ID] {
			e.t.Errorf("webhook %s: last_seq %d, %d events", w.ID, w.LastSeq, next[w.ID])
		}
	}
}

// moved is a transaction's movement of one item, from independent SQL.
type moved struct{ received, sent events.Amount }

// expected reads, with SQL of its own, every transaction in blocks
// (from, to] that touches the item, and what the item received and sent
// in it (outputs created; outputs spent, through tx_in).
func (e *env) expected(kind, value string, from, to int64) map[string]moved {
	e.t.Helper()
	var rows []struct {
		Tx   string  `db:"tx"`
		Side string  `db:"side"`
		Unit *string `db:"unit"`
		Qty  string  `db:"qty"`
	}
	if err := e.raw.Select(&rows, `WITH txs AS (
		  SELECT t.id, t.hash FROM block b JOIN tx t ON t.block_id = b.id WHERE b.block_no > $1 AND b.block_no <= $2
		), outs AS (
		  SELECT x.hash, o.id, o.value, 'r' AS side FROM txs x JOIN tx_out o ON o.tx_id = x.id
		  UNION ALL
		  SELECT x.hash, o.id, o.value, 's' FROM txs x JOIN tx_in i ON i.tx_in_id = x.id
		  JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index
		), hit AS (
		  SELECT u.* FROM outs u JOIN tx_out o ON o.id = u.id LEFT JOIN stake_address sa ON sa.id = o.stake_address_id
		  WHERE CASE $3
		    WHEN 'address' THEN o.address = $4
		    WHEN 'stake_address' THEN sa.view IS NOT DISTINCT FROM $4
		    WHEN 'payment_credential' THEN encode(o.payment_cred, 'hex') IS NOT DISTINCT FROM $4
		    WHEN 'tx' THEN encode(u.hash, 'hex') = $4
		    WHEN 'policy' THEN EXISTS (SELECT 1 FROM ma_tx_out m JOIN multi_asset a ON a.id = m.ident
		      WHERE m.tx_out_id = o.id AND encode(a.policy, 'hex') = $4)
		    WHEN 'asset' THEN EXISTS (SELECT 1 FROM ma_tx_out m JOIN multi_asset a ON a.id = m.ident
		      WHERE m.tx_out_id = o.id AND encode(a.policy || a.name, 'hex') = $4)
		  END
		)
		SELECT encode(h.hash, 'hex') AS tx, h.side, NULL AS unit, sum(h.value)::text AS qty FROM hit h GROUP BY 1, 2
		UNION ALL
		SELECT encode(h.hash, 'hex'), h.side, encode(a.policy || a.name, 'hex'), sum(m.quantity)::text
		FROM hit h JOIN ma_tx_out m ON m.tx_out_id = h.id JOIN multi_asset a ON a.id = m.ident GROUP BY 1, 2, 3`,
		from, to, kind, value); err != nil {
		e.t.Fatal(err)
	}
	out := map[string]moved{}
	zero := func() events.Amount { return events.Amount{Lovelace: "0", Assets: []events.AssetAmount{}} }
	for _, r := range rows {
		mv, ok := out[r.Tx]
		if !ok {
			mv = moved{zero(), zero()}
		}
		amt := &mv.received
		if r.Side == "s" {
			amt = &mv.sent
		}
		if r.Unit == nil {
			amt.Lovelace = r.Qty
		} else {
			amt.Assets = append(amt.Assets, events.AssetAmount{Unit: *r.Unit, Quantity: r.Qty})
		}
		out[r.Tx] = mv
	}
	for tx, mv := range out {
		for _, a := range []*events.Amount{&mv.received, &mv.sent} {
			slices.SortFunc(a.Assets, func(x, y events.AssetAmount) int {
				if x.Unit < y.Unit {
					return -1
				}
				if x.Unit > y.Unit {
					return 1
				}
				return 0
			})
		}
		out[tx] = mv
	}
	return out
}

// lockHolder is the backend pid holding the network's scanner lock (0:
// none).
func (e *env) lockHolder() int {
	e.t.Helper()
	key := uint64(LockKey(e.net))
	var pid int
	err := e.admin.Get(&pid, `SELECT COALESCE(max(pid), 0) FROM pg_locks WHERE locktype = 'advisory' AND granted
		AND classid::bigint = $1 AND objid::bigint = $2 AND objsubid = 1`, int64(key>>32), int64(key&0xffffffff))
	if err != nil {
		e.t.Fatal(err)
	}
	return pid
}

// waitFor polls cond until it holds (or fails the test after timeout).
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
