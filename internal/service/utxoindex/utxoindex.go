// Package utxoindex keeps syncgate's unspent-output index beside a
// core-mode db-sync database (schema syncgate_utxo; db-sync's own tables
// are only read). In db-sync's core layout a spend is recorded only in
// tx_in, so the unspent outputs of an address can only be found by
// checking every output it ever received; the index holds the outputs not
// known to be spent as of a high-water transaction H, with partial indexes
// over the live ones by address, stake credential and payment credential,
// so the dbsync statements read an address's unspent outputs at a cost
// that follows its unspent count, not its history (docs/DECISIONS.md
// "Unspent-output index in core mode").
//
// The index advances in steps, one transaction each, over a bounded range
// of tx ids (Step), stays a few blocks below the tip (Options.Lag), and
// records each step's H with its tx and block hashes (a checkpoint), so a
// rollback of db-sync below H is seen by the readers at once (they fall
// back to the plain anti-join) and undone by the next step (rewind to the
// newest checkpoint db-sync still holds). Spends are kept, marked, until
// they are Options.Keep blocks deep, so a rewind can unmark them; the
// history statements read the marks too, so an operator may keep them
// longer, or for ever (KeepAll), trading disk for history pages that need
// no tx_in walk. Only one process maintains a database at a time (an
// advisory lock in it).
package utxoindex

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/sql"
)

// formatVersion is the index's table format; an index of another version
// is dropped and rebuilt. Indexes added later that need no rebuild (see
// additions) leave it unchanged, so an older build maintaining the same
// database does not drop what a newer one built.
const formatVersion = 1

// lockKey is the maintenance advisory lock ("sgutxo\0\0"), in the db-sync
// database the index lives in.
const lockKey = 0x73677574786f0000

// Defaults.
const (
	DefaultBatch = 20000 // transactions per step
	DefaultLag   = 3     // blocks kept out of the index below the tip
	DefaultKeep  = 2160  // blocks a spend is kept (marked) for rollbacks: Cardano's k
	// DefaultSweepTxs: a step sweeps the spends of at most this many tx
	// ids (about twice as many rows), oldest first.
	DefaultSweepTxs = 100000
	// KeepAll (as Options.Keep): every spend stays marked, none is swept.
	KeepAll = -1
)

// keepAllBlocks is KeepAll's depth in target.sql: more blocks than any
// chain has, so there is never a horizon.
const keepAllBlocks = math.MaxInt32

var (
	// ErrBusy: another process maintains this database right now.
	ErrBusy = errors.New("utxoindex: maintained elsewhere right now")
	// ErrNotNeeded: the database records spends in tx_out (consumed,
	// prune, bootstrap) or stores no outputs; it needs no index.
	ErrNotNeeded = errors.New("utxoindex: not needed for this db-sync layout")
	// ErrReadOnly: the database is a hot standby; the index can only be
	// maintained on the primary.
	ErrReadOnly = errors.New("utxoindex: database is read-only (hot standby)")
)

var (
	sqlMetaGet          = sqlfiles.Must("utxoindex/meta_get.sql")
	sqlMetaSet          = sqlfiles.Must("utxoindex/meta_set.sql")
	sqlDrop             = sqlfiles.Must("utxoindex/drop.sql")
	sqlLock             = sqlfiles.Must("utxoindex/lock.sql")
	sqlUnlock           = sqlfiles.Must("utxoindex/unlock.sql")
	sqlInRecovery       = sqlfiles.Must("utxoindex/in_recovery.sql")
	sqlCheckpointNewest = sqlfiles.Must("utxoindex/checkpoint_newest.sql")
	sqlCheckpointValid  = sqlfiles.Must("utxoindex/checkpoint_valid.sql")
	sqlTxValid          = sqlfiles.Must("utxoindex/tx_valid.sql")
	sqlRewind           = sqlfiles.Must("utxoindex/rewind.sql")
	sqlReset            = sqlfiles.Must("utxoindex/reset.sql")
	sqlTarget           = sqlfiles.Must("utxoindex/target.sql")
	sqlNextTx           = sqlfiles.Must("utxoindex/next_tx.sql")
	sqlTxHashes         = sqlfiles.Must("utxoindex/tx_hashes.sql")
	sqlSpends           = sqlfiles.Must("utxoindex/spends.sql")
	sqlSweep            = sqlfiles.Must("utxoindex/sweep.sql")
	sqlOldestSpend      = sqlfiles.Must("utxoindex/oldest_spend.sql")
	sqlCheckpointInsert = sqlfiles.Must("utxoindex/checkpoint_insert.sql")
	sqlCheckpointPrune  = sqlfiles.Must("utxoindex/checkpoint_prune.sql")
	sqlStatus           = sqlfiles.Must("utxoindex/status.sql")
	sqlAnalyze          = sqlfiles.Must("utxoindex/analyze.sql")
	// Templates over the address-table variant.
	sqlCreate = renderVariants("utxoindex/create.sql")
	sqlInsert = renderVariants("utxoindex/insert.sql")
)

// Options tunes the index.
type Options struct {
	Batch int // transactions per step (DefaultBatch)
	Lag   int // blocks below the tip the index stops at (0: up to the tip; DefaultOptions has DefaultLag)
	// Keep: blocks a spend stays marked before it is swept (DefaultKeep;
	// KeepAll: for ever). Raising it on a built index takes effect as the
	// tip moves on: the spends already swept are gone, so the horizon
	// never moves back (rebuild the index for a longer window at once).
	Keep int
	// RollbackDepth: the deepest rollback the index must undo, in blocks
	// (DefaultKeep, Cardano's k); checkpoints older than that (and than
	// the horizon) are pruned.
	RollbackDepth int
	// SweepTxs: how many tx ids' spends one step sweeps at most
	// (DefaultSweepTxs); the rest of a backlog goes in the next steps.
	SweepTxs int
	// StepTimeout bounds one step's statements (0: none).
	StepTimeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	o.Lag = max(o.Lag, 0)
	if o.RollbackDepth <= 0 {
		o.RollbackDepth = DefaultKeep
	}
	if o.SweepTxs <= 0 {
		o.SweepTxs = DefaultSweepTxs
	}
	switch {
	case o.Keep == 0:
		o.Keep = DefaultKeep
	case o.Keep < 0:
		o.Keep = KeepAll
	}
	return o
}

// keepText is the window as UTXO_INDEX_KEEP_BLOCKS writes it.
func (o Options) keepText() string {
	if o.Keep == KeepAll {
		return "all"
	}
	return strconv.Itoa(o.Keep)
}

// DefaultOptions are the options a service runs with.
func DefaultOptions() Options {
	return Options{Batch: DefaultBatch, Lag: DefaultLag, Keep: DefaultKeep}
}

// Index is the unspent-output index of one core-mode db-sync database.
type Index struct {
	db           *sqlx.DB
	addressTable bool
	opts         Options
	sqlCreate    string
	sqlInsert    string
}

// New returns the index of the db-sync database db (which must be
// writable to maintain it; Status reads only). It detects the layout and
// answers ErrNotNeeded for one that records spends in tx_out.
func New(ctx context.Context, db *sqlx.DB, opts Options) (*Index, error) {
	caps, err := dbsync.DetectCapabilities(ctx, db)
	if err != nil {
		return nil, err
	}
	return ForDB(db, caps, opts)
}

func newIndex(db *sqlx.DB, addressTable bool, opts Options) (*Index, error) {
	x := &Index{db: db, addressTable: addressTable, opts: opts.withDefaults()}
	x.sqlCreate, x.sqlInsert = sqlCreate.For(addressTable), sqlInsert.For(addressTable)
	return x, nil
}

// variants is a statement file rendered for both address-table choices,
// at start, so a broken template stops the process at boot.
type variants [2]string

func renderVariants(name string) variants {
	var v variants
	for i, table := range []bool{false, true} {
		text, err := sqlfiles.Render(name, nil, map[string]any{"AddressTable": table})
		if err != nil {
			panic(fmt.Sprintf("utxoindex %s: %v", name, err))
		}
		v[i] = text
	}
	return v
}

// For is the rendering for the address-table choice.
func (v variants) For(addressTable bool) string {
	if addressTable {
		return v[1]
	}
	return v[0]
}

// Ensure creates the index's schema if missing, and drops and recreates
// it when it was built by another format version or for another layout.
func (x *Index) Ensure(ctx context.Context) error {
	return x.ensureOn(ctx, x.db)
}

// queryExecer is a pool or one of its connections.
type queryExecer interface {
	sqlx.QueryerContext
	sqlx.ExecerContext
}

func (x *Index) ensureOn(ctx context.Context, q queryExecer) error {
	var meta struct {
		Version      int  `db:"version"`
		AddressTable bool `db:"address_table"`
		Complete     bool `db:"complete"`
	}
	err := sqlx.GetContext(ctx, q, &meta, sqlMetaGet)
	switch {
	case err == nil && meta.Version == formatVersion && meta.AddressTable == x.addressTable:
		if meta.Complete {
			return nil
		}
		// Built by a build without the later additions: create.sql (all
		// IF NOT EXISTS) adds them in place; a rebuild would take hours.
		if _, err := q.ExecContext(ctx, x.sqlCreate); err != nil {
			return fmt.Errorf("utxoindex: add to the index: %w", err)
		}
		return nil
	case err == nil, errors.Is(err, sql.ErrNoRows):
		if _, err := q.ExecContext(ctx, sqlDrop); err != nil {
			return fmt.Errorf("utxoindex: drop: %w", err)
		}
	case isUndefinedTable(err):
	default:
		return fmt.Errorf("utxoindex: meta: %w", err)
	}
	if _, err := q.ExecContext(ctx, x.sqlCreate); err != nil {
		return fmt.Errorf("utxoindex: create: %w", err)
	}
	if _, err := q.ExecContext(ctx, sqlMetaSet, formatVersion, x.addressTable); err != nil {
		return fmt.Errorf("utxoindex: meta: %w", err)
	}
	return nil
}

func isUndefinedTable(err error) bool {
	var pe *pq.Error
	return errors.As(err, &pe) && (pe.Code == "42P01" || pe.Code == "3F000")
}

// checkpoint is a step's high-water mark.
type checkpoint struct {
	TxID             int64  `db:"tx_id"`
	TxHash           []byte `db:"tx_hash"`
	BlockHash        []byte `db:"block_hash"`
	HorizonTxID      int64  `db:"horizon_tx_id"`
	HorizonTxHash    []byte `db:"horizon_tx_hash"`
	HorizonBlockHash []byte `db:"horizon_block_hash"`
}

// StepResult says what one step did.
type StepResult struct {
	// Action: "advanced", "rewound", "reset" or "current" (nothing to do).
	Action string
	// From and To: H before and after.
	From, To int64
	// Target: the newest tx the index may reach now (Lag blocks below the tip).
	Target int64
	// Inserted outputs, Deleted rows (spent at or below the horizon),
	// Marked rows (spent above it), Swept rows, Unmarked rows (rewind).
	Inserted, Deleted, Marked, Swept, Unmarked int64
	// SweepPending: rows spent at or below the horizon are left for the
	// next steps (a backlog is swept a chunk a step).
	SweepPending bool
	Duration     time.Duration
}

// CaughtUp reports whether the index reached its target.
func (r StepResult) CaughtUp() bool {
	return !r.SweepPending && (r.Action == "current" || r.To >= r.Target && r.Action == "advanced")
}

// Step runs one step on conn (which must hold the maintenance lock, see
// Lock): a rewind when db-sync rolled back below H (or the horizon), else
// the next batch of transactions up to the target, then the sweep.
func (x *Index) Step(ctx context.Context, conn *sqlx.Conn) (StepResult, error) {
	start := time.Now()
	res, err := x.step(ctx, conn)
	res.Duration = time.Since(start)
	return res, err
}

func (x *Index) step(ctx context.Context, conn *sqlx.Conn) (StepResult, error) {
	// One snapshot for the whole step: H', the outputs and the spends read
	// must describe the same chain even while db-sync writes or rolls back.
	tx, err := conn.BeginTxx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return StepResult{}, err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after commit
	if _, err := tx.ExecContext(ctx, "SET LOCAL jit = off"); err != nil {
		return StepResult{}, err
	}
	if x.opts.StepTimeout > 0 {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("SET LOCAL statement_timeout = %d", x.opts.StepTimeout.Milliseconds())); err != nil {
			return StepResult{}, err
		}
	}
	var cur checkpoint
	err = tx.GetContext(ctx, &cur, sqlCheckpointNewest)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return StepResult{}, fmt.Errorf("checkpoint: %w", err)
	}
	res := StepResult{From: cur.TxID, To: cur.TxID}
	if cur.TxID > 0 {
		if done, err := x.rewindIfRolledBack(ctx, tx, cur, &res); err != nil || done {
			if err == nil {
				err = tx.Commit()
			}
			return res, err
		}
	}
	var tgt struct {
		TipBlockNo int64 `db:"tip_block_no"`
		Target     int64 `db:"target"`
		Horizon    int64 `db:"horizon"`
		Final      int64 `db:"final"`
	}
	keep := x.opts.Keep
	if keep == KeepAll {
		keep = keepAllBlocks
	}
	// Checkpoints are kept for rewinds, so as deep as a rollback can go
	// whatever the marks' window.
	if err := tx.GetContext(ctx, &tgt, sqlTarget, x.opts.Lag, keep, min(keep, x.opts.RollbackDepth)); err != nil {
		return res, fmt.Errorf("target: %w", err)
	}
	res.Target = tgt.Target
	// The horizon only moves up: outputs already left out below an older,
	// higher horizon stay left out (a rollback below it resets the index).
	horizon := checkpoint{TxID: cur.HorizonTxID, TxHash: cur.HorizonTxHash, BlockHash: cur.HorizonBlockHash}
	if tgt.Horizon > horizon.TxID {
		horizon.TxID = tgt.Horizon
		if err := tx.GetContext(ctx, &horizon, sqlTxHashes, tgt.Horizon); err != nil {
			return res, fmt.Errorf("horizon: %w", err)
		}
	}
	var next checkpoint
	err = tx.GetContext(ctx, &next, sqlNextTx, cur.TxID, min(cur.TxID+int64(x.opts.Batch), tgt.Target), tgt.Target)
	if errors.Is(err, sql.ErrNoRows) {
		res.Action = "current"
		// Still sweep: the horizon moves with the tip, and a backlog
		// goes a chunk a step.
		if cur.TxID > 0 {
			if res.Swept, res.SweepPending, err = x.sweep(ctx, tx, horizon.TxID); err != nil {
				return res, err
			}
			if horizon.TxID > cur.HorizonTxID || res.Swept > 0 {
				if err := x.record(ctx, tx, cur, horizon, tgt.Final); err != nil {
					return res, err
				}
			}
		}
		return res, tx.Commit()
	}
	if err != nil {
		return res, fmt.Errorf("next tx: %w", err)
	}
	r, err := tx.ExecContext(ctx, x.sqlInsert, cur.TxID, next.TxID, horizon.TxID)
	if err != nil {
		return res, fmt.Errorf("insert: %w", err)
	}
	res.Inserted, _ = r.RowsAffected()
	if cur.TxID > 0 {
		var n struct {
			Deleted int64 `db:"deleted"`
			Marked  int64 `db:"marked"`
		}
		if err := tx.GetContext(ctx, &n, sqlSpends, cur.TxID, next.TxID, horizon.TxID); err != nil {
			return res, fmt.Errorf("spends: %w", err)
		}
		res.Deleted, res.Marked = n.Deleted, n.Marked
	}
	next.HorizonTxID, next.HorizonTxHash, next.HorizonBlockHash = horizon.TxID, horizon.TxHash, horizon.BlockHash
	if res.Swept, res.SweepPending, err = x.sweep(ctx, tx, horizon.TxID); err != nil {
		return res, err
	}
	if err := x.record(ctx, tx, next, horizon, tgt.Final); err != nil {
		return res, err
	}
	res.Action, res.To = "advanced", next.TxID
	return res, tx.Commit()
}

// sweep deletes rows spent at or below the horizon: the spends of at
// most SweepTxs tx ids from the oldest one held, so a long backlog (a
// window made shorter) goes over several steps; pending says some is left.
func (x *Index) sweep(ctx context.Context, tx *sqlx.Tx, horizon int64) (swept int64, pending bool, err error) {
	if horizon <= 0 {
		return 0, false, nil
	}
	oldest, err := x.oldestSpend(ctx, tx)
	if err != nil || oldest == 0 || oldest > horizon {
		return 0, false, err
	}
	// A known bound, so the planner reads output_spent_by's range.
	upTo := min(horizon, oldest+int64(x.opts.SweepTxs))
	r, err := tx.ExecContext(ctx, sqlSweep, upTo)
	if err != nil {
		return 0, false, fmt.Errorf("sweep: %w", err)
	}
	swept, _ = r.RowsAffected()
	return swept, upTo < horizon, nil
}

// record records cp with the horizon and prunes the checkpoints no rewind
// can need: those older than both the horizon and final, the newest tx no
// rollback can reach (a rollback below the checkpoints kept resets the
// index).
func (x *Index) record(ctx context.Context, tx *sqlx.Tx, cp, horizon checkpoint, final int64) error {
	var hTx, hBlock any
	if horizon.TxID > 0 {
		hTx, hBlock = horizon.TxHash, horizon.BlockHash
	}
	if _, err := tx.ExecContext(ctx, sqlCheckpointInsert, cp.TxID, cp.TxHash, cp.BlockHash, horizon.TxID, hTx, hBlock); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if _, err := tx.ExecContext(ctx, sqlCheckpointPrune, max(horizon.TxID, final)); err != nil {
		return fmt.Errorf("checkpoint prune: %w", err)
	}
	return nil
}

// oldestSpend is the oldest spend the index holds (0: none).
func (x *Index) oldestSpend(ctx context.Context, tx *sqlx.Tx) (int64, error) {
	var oldest int64
	if err := tx.GetContext(ctx, &oldest, sqlOldestSpend); err != nil {
		return 0, fmt.Errorf("oldest spend: %w", err)
	}
	return oldest, nil
}

// rewindIfRolledBack checks H and the horizon against db-sync; when
// either is gone it rewinds to the newest checkpoint db-sync still holds
// (or resets the index) and reports done.
func (x *Index) rewindIfRolledBack(ctx context.Context, tx *sqlx.Tx, cur checkpoint, res *StepResult) (done bool, err error) {
	var valid int64
	err = tx.GetContext(ctx, &valid, sqlCheckpointValid)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("checkpoint check: %w", err)
	}
	horizonHolds := true
	if cur.HorizonTxID > 0 {
		if err := tx.GetContext(ctx, &horizonHolds, sqlTxValid, cur.HorizonTxID, cur.HorizonTxHash, cur.HorizonBlockHash); err != nil {
			return false, fmt.Errorf("horizon check: %w", err)
		}
	}
	if valid == cur.TxID && horizonHolds {
		return false, nil
	}
	if valid == 0 || !horizonHolds {
		if _, err := tx.ExecContext(ctx, sqlReset); err != nil {
			return false, fmt.Errorf("reset: %w", err)
		}
		res.Action, res.To = "reset", 0
		return true, nil
	}
	var n struct {
		Removed     int64 `db:"removed"`
		Unspent     int64 `db:"unspent"`
		Checkpoints int64 `db:"checkpoints"`
		Kept        int64 `db:"kept"`
	}
	var hTx, hBlock any
	if cur.HorizonTxID > 0 {
		hTx, hBlock = cur.HorizonTxHash, cur.HorizonBlockHash
	}
	if err := tx.GetContext(ctx, &n, sqlRewind, valid, cur.HorizonTxID, hTx, hBlock); err != nil {
		return false, fmt.Errorf("rewind: %w", err)
	}
	res.Action, res.To, res.Deleted, res.Unmarked = "rewound", valid, n.Removed, n.Unspent
	return true, nil
}

// Lock takes the maintenance lock on a connection of its own; the caller
// runs its steps on conn and calls release when done. ErrBusy when
// another process holds it.
func (x *Index) Lock(ctx context.Context) (conn *sqlx.Conn, release func(), err error) {
	conn, err = x.db.Connx(ctx)
	if err != nil {
		return nil, nil, err
	}
	var standby bool
	if err := conn.GetContext(ctx, &standby, sqlInRecovery); err != nil {
		conn.Close()
		return nil, nil, err
	}
	if standby {
		conn.Close()
		return nil, nil, ErrReadOnly
	}
	var got bool
	if err := conn.GetContext(ctx, &got, sqlLock, int64(lockKey)); err != nil {
		conn.Close()
		return nil, nil, fmt.Errorf("utxoindex: lock: %w", err)
	}
	if !got {
		conn.Close()
		return nil, nil, ErrBusy
	}
	return conn, func() { unlock(ctx, conn) }, nil
}

// unlockTimeout bounds the unlock, which runs even after ctx is cancelled.
const unlockTimeout = 5 * time.Second

// unlock releases the lock; a session that cannot release it is discarded
// (its end frees the lock), as poolstats does.
func unlock(ctx context.Context, conn *sqlx.Conn) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), unlockTimeout)
	defer cancel()
	var released bool
	if err := conn.GetContext(ctx, &released, sqlUnlock, int64(lockKey)); err != nil || !released {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	conn.Close()
}

// CatchUp takes the lock, creates the index if needed and steps until it
// has reached its target (or ctx ends), calling progress after each step
// (may be nil). ErrBusy when another process maintains it.
func (x *Index) CatchUp(ctx context.Context, progress func(StepResult)) (StepResult, error) {
	conn, release, err := x.Lock(ctx)
	if err != nil {
		return StepResult{}, err
	}
	defer release()
	if err := x.ensureOn(ctx, conn); err != nil {
		return StepResult{}, err
	}
	built := false
	for {
		res, err := x.Step(ctx, conn)
		if err != nil {
			return res, err
		}
		if progress != nil {
			progress(res)
		}
		if res.Action == "advanced" && res.To-res.From > int64(x.opts.Batch)/2 {
			built = true // a bulk pass: statistics are worth refreshing after it
		}
		if res.CaughtUp() {
			if built {
				if _, err := conn.ExecContext(ctx, sqlAnalyze); err != nil {
					return res, fmt.Errorf("analyze: %w", err)
				}
			}
			return res, nil
		}
	}
}

// Status is how the index stands against db-sync.
type Status struct {
	// Present: the index exists and has indexed something.
	Present bool
	// TxID is H; BlockNo the block it is in; TipBlockNo db-sync's tip.
	TxID, BlockNo, TipBlockNo int64
	// Valid: db-sync still holds H and the horizon as indexed (no
	// rollback below either since the last step).
	Valid bool
	// MarksByAddress: the index has output_spent_address, which the
	// history statements read (an older build's index lacks it until this
	// build's maintainer adds it).
	MarksByAddress bool
}

// Lag is how many blocks the index is behind the tip.
func (s Status) Lag() int64 { return s.TipBlockNo - s.BlockNo }

// Usable reports whether readers should use the index: present, valid and
// at most maxLag blocks behind (the rest is read from tx_out, at a cost
// that grows with the lag).
func (s Status) Usable(maxLag int64) bool { return s.Present && s.Valid && s.Lag() <= maxLag }

// Status reads how the index stands (read-only; works on a standby too).
func (x *Index) Status(ctx context.Context) (Status, error) { return StatusOf(ctx, x.db) }

// StatusOf reads the index's status in the db-sync database db.
func StatusOf(ctx context.Context, db sqlx.QueryerContext) (Status, error) {
	var row struct {
		TxID       int64 `db:"tx_id"`
		BlockNo    int64 `db:"block_no"`
		Valid      bool  `db:"valid"`
		TipBlockNo int64 `db:"tip_block_no"`
		Marks      bool  `db:"marks_by_address"`
	}
	err := sqlx.GetContext(ctx, db, &row, sqlStatus)
	switch {
	case errors.Is(err, sql.ErrNoRows), isUndefinedTable(err):
		return Status{}, nil
	case err != nil:
		return Status{}, fmt.Errorf("utxoindex status: %w", err)
	}
	return Status{Present: true, TxID: row.TxID, BlockNo: row.BlockNo, TipBlockNo: row.TipBlockNo, Valid: row.Valid,
		MarksByAddress: row.Marks}, nil
}
