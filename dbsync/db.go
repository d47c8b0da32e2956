// Package dbsync is syncgate's read-only access to cardano-db-sync
// databases: one DB per served network, with its replicas, capability
// detection, identifier parsing and one file per resource (utxo, balance,
// tx, asset, pool, tip). It never writes to db-sync and never imports gin
// or net/http. Its SQL lives in sql/dbsync/, one statement per file.
package dbsync

import (
	"context"
	"database/sql"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"log/slog"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/internal/platform/metrics"
	"github.com/syncgate/syncgate/internal/platform/pgconn"
	"github.com/syncgate/syncgate/sql"
)

var (
	sqlTip               = prepared(sqlfiles.Must("dbsync/tip.sql"))
	sqlCapabilities      = sqlfiles.Must("dbsync/capabilities.sql")
	sqlConsumedPopulated = sqlfiles.Must("dbsync/consumed_populated.sql")
	sqlEpochViewEnabled  = sqlfiles.Must("dbsync/epoch_view_enabled.sql")
	sqlCustomPlans       = sqlfiles.Must("dbsync/custom_plans.sql")
	sqlGenericPlans      = sqlfiles.Must("dbsync/generic_plans.sql")
)

// Pool sizes: db-sync queries are short and index-backed, so a small pool per
// instance keeps PostgreSQL's backend count bounded when many instances run.
const (
	maxOpenConns = 32
	maxIdleConns = 32
	connMaxIdle  = 5 * time.Minute
)

// Options tune a DB; zero fields take the defaults.
type Options struct {
	// StatementTimeout is every session's statement_timeout (0: none).
	StatementTimeout time.Duration
	// ProbeInterval is how often each server is probed while it is in
	// rotation (DefaultProbeInterval); ProbeTimeout bounds one probe
	// (DefaultProbeTimeout). A server out of rotation is probed more often
	// (see watch).
	ProbeInterval, ProbeTimeout time.Duration
	// Conn bounds connections (connect timeout, cancel requests, TCP).
	Conn pgconn.Options
	// Log receives the servers' state changes; nil: slog.Default().
	Log *slog.Logger
	// HistoryMemoBytes bounds the memo of final history pages and
	// transaction details (history_memo.go): 0 is
	// DefaultHistoryMemoBytes, below 0 turns it off.
	HistoryMemoBytes int
}

// DB is one network's db-sync database: the primary plus optional replicas.
// Reads are spread round-robin over the replicas in rotation, and go to
// the primary when none is (see server.go for how servers leave and come
// back).
type DB struct {
	Network cardano.Network
	// Caps is what capability detection found on the primary; it is set
	// once, before the DB serves its first read (see Ready).
	Caps Capabilities
	// layout selects each Statement's rendering (from Caps, set with it).
	layout Layout
	// spentWanted: the unspent-output index is current enough to read
	// (UseSpentIndex); spentOn: and the primary has prepared its
	// renderings, so sql() picks them (layoutNow).
	spentWanted, spentOn atomic.Bool
	// spentMarks: the index has output_spent_address (UseSpentMarks).
	spentMarks atomic.Bool
	// recent: newest-first history pages read from the index's marks
	// (tx_history_recent.sql), see historyWalk.fetchRecent.
	recent recentPages
	// counts: addresses' history counts, remembered to count on from
	// (history_count.go).
	counts historyCounts

	primary  *pool
	replicas []*pool
	// utxoChunk: outputs per chunk of a UTxO listing (0: the default).
	utxoChunk int
	// smallHistory: addresses with fewer outputs read their history whole
	// (see smallHistoryOutputs).
	smallHistory int
	// anchors: remembered places in long histories (history_anchors.go).
	anchors historyAnchors
	// memo: final history pages and transaction details (history_memo.go);
	// finalDepth replaces rollbackDepth for it when set (SetFinalDepth).
	memo       historyMemo
	finalDepth int64
	// txOutEstimate: tx_out's size for the core history walk (denseOutputs).
	txOutEstimate rowEstimate
	// outputsSeen: core-mode addresses' output counts (historyPage).
	outputsSeen outputCounts
	denseAt     int64 // fixed by SetDenseHistoryOutputs (tests)
	// maxQueue bounds each gate's queue (SetMaxQueue).
	maxQueue int
	next     atomic.Uint64

	opts Options
	log  *slog.Logger
	// ready is set once Caps is known and the primary's statements are
	// prepared; until then every read is ErrUnavailable.
	ready atomic.Bool
	// started is closed when the first attempt to get ready has ended;
	// startErr is its error (nil: ready).
	started  chan struct{}
	startErr error
	stop     context.CancelFunc
	// life ends when the DB closes (background work's context).
	life context.Context
	wg   sync.WaitGroup
}

// New returns the DB for a network's db-sync (and its replicas) without
// waiting for any of them: each server is probed, prepared and (the
// primary) inspected for capabilities in the background, retried with
// backoff while it cannot be reached. Until the primary is ready, reads
// answer ErrUnavailable. Only a malformed URL is an error here.
func New(nc config.NetworkConfig, o Options) (*DB, error) {
	if o.ProbeInterval <= 0 {
		o.ProbeInterval = DefaultProbeInterval
	}
	if o.ProbeTimeout <= 0 {
		o.ProbeTimeout = DefaultProbeTimeout
	}
	db := &DB{Network: nc.Network, smallHistory: smallHistoryOutputs, opts: o, log: o.Log, started: make(chan struct{}),
		memo: newHistoryMemo(o.HistoryMemoBytes), counts: newHistoryCounts()}
	if db.log == nil {
		db.log = slog.Default()
	}
	primary, err := connect(nc.DBSyncURL, o)
	if err != nil {
		return nil, fmt.Errorf("%s db-sync: %w", nc.Name, err)
	}
	db.primary = primary
	primary.instrument(nc.Name, "primary")
	for i, r := range nc.ReplicaURLs {
		rdb, err := connect(r, o)
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("%s db-sync replica %s: %w", nc.Name, config.Redact(r), err)
		}
		rdb.instrument(nc.Name, "replica"+strconv.Itoa(i+1))
		db.replicas = append(db.replicas, rdb)
	}
	ctx, cancel := context.WithCancel(context.Background())
	db.stop = cancel
	db.life = ctx
	for _, p := range db.servers() {
		db.wg.Add(1)
		go func() {
			defer db.wg.Done()
			db.watch(ctx, p)
		}()
	}
	return db, nil
}

// Open is New, then waits for the first attempt to get the primary ready
// and fails when it did not: for commands and tests that need the database
// now. The service itself uses New and Started, and starts degraded.
func Open(ctx context.Context, nc config.NetworkConfig, statementTimeout time.Duration) (*DB, error) {
	return OpenWith(ctx, nc, Options{StatementTimeout: statementTimeout})
}

// OpenWith is Open with every option (the bench's raw side turns the
// history memo off with it).
func OpenWith(ctx context.Context, nc config.NetworkConfig, o Options) (*DB, error) {
	db, err := New(nc, o)
	if err != nil {
		return nil, err
	}
	if err := db.Started(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s db-sync: %w", nc.Name, err)
	}
	return db, nil
}

// Started waits for the first attempt to get the primary ready and
// returns its error: nil when the DB is ready, an error wrapping
// ErrUnsupported when it never will be, another (ErrUnavailable, a failed
// detection) while it keeps trying in the background.
func (db *DB) Started(ctx context.Context) error {
	select {
	case <-db.started:
		return db.startErr
	case <-ctx.Done():
		return fmt.Errorf("%w: %v", ErrUnavailable, ctx.Err())
	}
}

// Ready reports whether the DB serves reads: capabilities known and the
// primary prepared (replicas join the rotation on their own).
func (db *DB) Ready() bool { return db.ready.Load() }

// connect opens a pool whose every session carries:
//   - statement_timeout, so a runaway query is cancelled by PostgreSQL
//     itself (answered 504);
//   - jit off: PostgreSQL compiles any plan whose estimate passes
//     jit_above_cost, which for a skewed address (a whale's statistics
//     promise tens of thousands of rows, the partial index finds a few)
//     spent far longer compiling a query than running it;
//   - plan_cache_mode force_generic_plan: a prepared statement otherwise
//     plans its first five runs per connection for the actual values, and
//     for the whale those custom plans (a block seq scan and hash join, or
//     a LIMIT walk of the whole address index) took seconds under load
//     where the generic plan takes well under a millisecond. Statements whose plan must
//     follow the values ask for custom plans in their transaction
//     (custom_plans.sql);
//   - no parallel workers: on a box serving many short requests, a query
//     taking three processes only queues the others.
func connect(dsn string, o Options) (*pool, error) {
	withOptions, err := WithSessionOptions(dsn, o.StatementTimeout)
	if err != nil {
		return nil, err
	}
	db, err := pgconn.Open(withOptions, o.Conn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(maxOpenConns)
	db.SetMaxIdleConns(maxIdleConns)
	db.SetConnMaxIdleTime(connMaxIdle)
	// The probe has a connection of its own, so a busy pool never makes a
	// server look down.
	probe, err := pgconn.Open(withOptions, o.Conn)
	if err != nil {
		db.Close()
		return nil, err
	}
	probe.SetMaxOpenConns(1)
	probe.SetMaxIdleConns(1)
	p := &pool{DB: db, probe: probe}
	p.health.init()
	return p, nil
}

// sessionOptions are the settings every db-sync session starts with.
const sessionOptions = "-c jit=off -c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0"

// WithSessionOptions adds sessionOptions and, unless the timeout is zero,
// "-c statement_timeout=<ms>" to a postgres URL's options parameter.
func WithSessionOptions(dsn string, statementTimeout time.Duration) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", fmt.Errorf("unparseable database URL")
	}
	q := u.Query()
	opt := q.Get("options")
	if opt != "" {
		opt += " "
	}
	opt += sessionOptions
	if statementTimeout > 0 {
		opt += " -c statement_timeout=" + strconv.FormatInt(statementTimeout.Milliseconds(), 10)
	}
	q.Set("options", opt)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// servers lists the primary, then the replicas.
func (db *DB) servers() []*pool {
	return append([]*pool{db.primary}, db.replicas...)
}

// Primary returns the primary pool (capability detection, health).
func (db *DB) Primary() *sqlx.DB { return db.primary.DB }

// Close stops the watchers and closes every pool.
func (db *DB) Close() {
	if db.stop != nil {
		db.stop()
		db.wg.Wait()
	}
	for _, p := range db.servers() {
		if p != nil {
			p.close()
		}
	}
}

// LogValue renders the DB for slog: network and capabilities in one line.
func (db *DB) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("network", db.Network.Name),
		slog.Int("replicas", len(db.replicas)),
		slog.String("variant", db.Caps.Variant),
		slog.Bool("consumed_by_tx_id_populated", db.Caps.ConsumedPopulated),
		slog.Bool("tx_in_populated", db.Caps.TxInPopulated),
		slog.Bool("epoch_view_enabled", db.Caps.EpochViewEnabled),
		slog.String("utxo_mode", string(db.Caps.UTxOMode)),
	)
}

// ReadTx runs fn inside one REPEATABLE READ READ ONLY transaction on a
// reader, so that several queries of one request see one snapshot even if
// db-sync writes or rolls back in between.
// The transaction holds a place at the reader's gate until it ends.
func (db *DB) ReadTx(ctx context.Context, fn func(tx *Snapshot) error) error {
	return db.readTx(ctx, false, fn)
}

// readTx is ReadTx; a streaming transaction (a UTxO listing, which writes
// to its client while the transaction is open) also takes one of the
// pool's stream slots for its whole length, and may leave the gate early
// (Snapshot.leaveGate). A transaction that fails on a replica runs again
// on the primary (see onReader), except a listing that has started
// writing to its client.
func (db *DB) readTx(ctx context.Context, streaming bool, fn func(tx *Snapshot) error) error {
	called := false
	retry := func() bool { return !streaming || !called }
	return classify(db.onReader(ctx, retry, func(ctx context.Context, p *pool) error {
		return p.readTx(ctx, streaming, func(tx *Snapshot) error {
			called = true
			return fn(tx)
		})
	}))
}

// readTx runs fn in a snapshot on this server.
func (p *pool) readTx(ctx context.Context, streaming bool, fn func(tx *Snapshot) error) error {
	g, streams := p.gate, p.streams
	if streaming {
		t, err := streams.enter(ctx)
		if err != nil {
			return err
		}
		defer streams.leave(t)
	}
	t, err := g.enter(ctx)
	if err != nil {
		return err
	}
	admitted := true
	leave := func() {
		if admitted {
			admitted = false
			g.leave(t)
		}
	}
	defer leave()
	tx, err := p.BeginTxx(ctx, &sqlTxOptions)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // read-only; rollback after commit is a no-op
	snap := &Snapshot{Tx: tx, stmts: p.statements(), network: p.network, leaveGate: func() {}}
	if streaming {
		snap.leaveGate = leave
	}
	if err := fn(snap); err != nil {
		return err
	}
	// Every read has succeeded in the snapshot, so the answer stands even if
	// the commit does not (a read-only transaction changes nothing; a
	// connection that failed it is discarded): a UTxO listing already
	// written to its client must not be cut for it.
	_ = tx.Commit()
	return nil
}

// streamSlots is how many UTxO listings may be in progress at once per
// database server; spareConns are connections for what never waits at the
// gate (the health probe, the pool stake refresh).
const (
	streamSlots = 16
	spareConns  = 4
)

// SetMaxActive lets at most n requests at a time query each of this
// network's database servers (primary and every replica, each its own
// count); the others wait in arrival order, within their deadline. 0
// lifts the limit. Call it before the DB serves requests.
//
// The pool then has a connection for every admitted request and every
// listing in progress (plus spares), so an admitted request never waits
// for a connection held by someone waiting at the gate.
func (db *DB) SetMaxActive(n int) {
	for _, p := range db.servers() {
		p.gate, p.streams = nil, nil
		conns := maxOpenConns
		if n > 0 {
			p.gate, p.streams = newGate(n), newGate(streamSlots)
			p.gate.maxQueue = int64(db.maxQueue)
			p.gate.m = metrics.GateOf(p.network, p.server)
			conns = n + streamSlots + spareConns
		}
		p.SetMaxOpenConns(conns)
		p.SetMaxIdleConns(conns)
	}
}

// SetMaxQueue refuses requests at once (ErrOverloaded) rather than queue
// more than n at a server's gate (0: no bound). Call it before SetMaxActive.
func (db *DB) SetMaxQueue(n int) { db.maxQueue = n }

var sqlTxOptions = sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
