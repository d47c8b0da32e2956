package dbsync

import (
	"context"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/dbsync/history"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/sql"
)

// txHeaderInSteps is what tx_by_hash.sql read before it read the inputs
// and outputs too: the tx and its block alone (template tx_columns).
var txHeaderInSteps = sqlfiles.Statement{Name: "test/tx_header_in_steps", Text: `SELECT
  t.id,
  encode(t.hash, 'hex') AS tx_hash,
  encode(b.hash, 'hex') AS block_hash,
  COALESCE(b.slot_no, 0) AS slot_no,
  COALESCE(b.block_no, 0) AS block_no,
  b.time AS block_time,
  t.fee::text AS fee,
  t.size
FROM tx t
JOIN block b ON b.id = t.block_id
WHERE t.hash = $1::bytea`}

// TxByHashInSteps reads a transaction as TxByHash did before it was one
// statement: in one snapshot, the tx and its block, then txDetails's
// statements (inputs, outputs, their assets), with the details memo off so
// every detail is read. The reference TxByHash's answers must equal.
func (db *DB) TxByHashInSteps(ctx context.Context, hash cardano.TxHash) (Tx, error) {
	var out Tx
	err := db.ReadTx(ctx, func(tx *Snapshot) error {
		var row history.TxRefRow
		if err := tx.GetContext(ctx, &row, txHeaderInSteps, hash[:]); err != nil {
			return err
		}
		ref, err := row.Ref()
		if err != nil {
			return err
		}
		txs, err := db.readTxDetails(ctx, tx, []TxRef{ref}, detailMemo{})
		if err != nil {
			return err
		}
		out = txs[0]
		return nil
	})
	return out, err
}

// PreparedCount is how many statements the primary pool holds prepared.
func (db *DB) PreparedCount() int { return db.eng.PreparedCount() }

// RegisteredCount is how many distinct statements are registered for
// preparation (generic and custom-planned) in this database's layout.
func (db *DB) RegisteredCount() int { return db.eng.RegisteredCount() }

// StatementText renders the statement file (e.g. "dbsync/utxos_by_address.sql")
// for layout l, for EXPLAIN tests.
func StatementText(file string, l Layout, params map[string]any) string {
	return engine.MustRender(file, l, params).Text
}

// PlanCacheModes reports plan_cache_mode inside the custom plans a dense
// address's history walk asks for (core mode only) and after them, in one
// snapshot.
func (db *DB) PlanCacheModes(ctx context.Context) (inside, after string, err error) {
	err = db.ReadTx(ctx, func(tx *Snapshot) error {
		walk := func() error { return tx.GetContext(ctx, &inside, showPlanCacheMode) }
		if caps, _ := db.Capabilities(); caps.UTxOMode == ModeCore {
			walk = func() error {
				return engine.WithCustomPlans(ctx, tx, func() error { return tx.GetContext(ctx, &inside, showPlanCacheMode) })
			}
		}
		if err := walk(); err != nil {
			return err
		}
		return tx.GetContext(ctx, &after, showPlanCacheMode)
	})
	return inside, after, err
}

var showPlanCacheMode = Query{Name: "show_plan_cache_mode", Text: "SHOW plan_cache_mode"}

// StreamSlots is how many UTxO listings may be in progress per server.
const StreamSlots = engine.StreamSlots

// ReaderName is the server a read in ctx would go to now.
func (db *DB) ReaderName(ctx context.Context) string { return db.reader().Server() }

// TakeOut takes server i (0: the primary) out of rotation, as a failed probe would.
func (db *DB) TakeOut(i int) { db.eng.TakeOut(i) }

// TipRemembered reports whether server i holds a remembered tip.
func (db *DB) TipRemembered(i int) bool { return db.eng.Remembered(i, memoTip) }

// CorruptHistoryAnchors makes every remembered anchor of addr wrong the
// way a rollback can and reports how many there were.
func (db *DB) CorruptHistoryAnchors(addr string) int { return db.hist.CorruptAnchors(addr) }

// HistoryAnchorCount is how many anchors addr has remembered.
func (db *DB) HistoryAnchorCount(addr string) int { return db.hist.AnchorCount(addr) }

// MemoDetails is how many transactions' details the details memo holds.
func (db *DB) MemoDetails() int {
	if db.memo.details == nil {
		return 0
	}
	return db.memo.details.Len()
}

// MemoPages is how many final history pages the memo holds.
func (db *DB) MemoPages() int { return db.hist.MemoPages() }

// SetHistoryMemo replaces the history memo with an empty one of n bytes
// (below 0: off).
func (db *DB) SetHistoryMemo(n int) {
	db.retune(func(o *Options) { o.HistoryMemoBytes = n })
	db.memo = newDetailMemo(n)
}

// RecentPages reports how many newest-first history pages were read from
// the unspent-output index's marks (hits) and how many were tried there
// and then walked (walks).
func (db *DB) RecentPages() (hits, walks int64) { return db.hist.RecentPages() }

// MarkedAnchorHarvests reports how many anchor harvests were read from the
// index's marks (hits) and how many were tried there and then walked.
func (db *DB) MarkedAnchorHarvests() (hits, walks int64) { return db.hist.MarkedAnchorHarvests() }

// ForgetHorizon makes the DB forget the index's horizon it last read, as
// a process that has not read it yet.
func (db *DB) ForgetHorizon() { db.hist.ForgetHorizon() }

// RecentTailCap is tx_history_recent.sql's TailCap.
const RecentTailCap = history.RecentTailCap

// HistoryCounts reports how many history counts were answered from a
// remembered base and how many were counted whole.
func (db *DB) HistoryCounts() (fromBase, whole int64) {
	fromBase, whole, _, _ = db.hist.Counts()
	return fromBase, whole
}

// HistoryCountsFromMarks reports how many whole counts were counted from
// the unspent-output index's marks (kept for ever).
func (db *DB) HistoryCountsFromMarks() int64 { _, _, n, _ := db.hist.Counts(); return n }

// HistoryCountsInBackground reports how many background whole counts
// finished.
func (db *DB) HistoryCountsInBackground() int64 { _, _, _, n := db.hist.Counts(); return n }

// CountHistory is addr's history total as a page's pagination.total is
// counted, without reading a page first.
func (db *DB) CountHistory(ctx context.Context, addr string) (n int64, err error) {
	err = db.ReadTx(ctx, func(tx *Snapshot) error {
		n, err = db.hist.Count(ctx, tx, addr)
		return err
	})
	return n, err
}

// The tests below turn Options' test knobs on the shared chains' DBs and
// back, rather than open a DB per setting: each makes a new history engine
// with the changed options (forgetting what the old one remembered).
// Production code sets them only through Options at New.

// retune changes the DB's options and makes its history engine anew.
func (db *DB) retune(change func(*Options)) {
	change(&db.opts)
	db.hist = history.New(db.eng, historyOptions(db.opts))
}

func (db *DB) SetSmallHistoryOutputs(n int) {
	if n == 0 {
		n = -1 // 0 here means never, as Options' below 0
	}
	db.retune(func(o *Options) { o.SmallHistoryOutputs = n })
}

func (db *DB) SetUTxOChunk(n int) { db.opts.UTxOChunk = n }

// FirstHistoryPage is TxHistory's one-statement page alone (ok false:
// TxHistory would read it in a snapshot).
func (db *DB) FirstHistoryPage(ctx context.Context, addr cardano.Address, q HistoryQuery) (HistoryPage[TxRef], bool, error) {
	return db.hist.FirstPage(ctx, db.reader(), addr.String(), q)
}

// TxHistoryInSnapshot is TxHistory without its one-statement first page.
func (db *DB) TxHistoryInSnapshot(ctx context.Context, addr cardano.Address, q HistoryQuery) (HistoryPage[TxRef], error) {
	return db.txHistoryInSnapshot(ctx, addr, q, nil)
}

func (db *DB) SetDenseHistoryOutputs(n int) {
	db.retune(func(o *Options) { o.DenseHistoryOutputs = int64(max(n, 0)) })
}

func (db *DB) SetFinalDepth(n int64) { db.retune(func(o *Options) { o.FinalDepth = n }) }

func (db *DB) SetHistoryAnchorStride(n int) {
	db.retune(func(o *Options) { o.HistoryAnchorStride = n })
}
