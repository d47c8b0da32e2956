// Package engine is the connection engine under package dbsync: one
// network's db-sync servers (the primary and its replicas), each with its
// connection pool, gate, health probe and prepared statements; replica
// rotation and pinned readers; capability detection and the statement
// layouts it selects; statement rendering and metrics. It knows no query
// family: dbsync's files hand it statements (sqlfiles.Statement) to run.
package engine

import (
	"context"
	"database/sql"
	"fmt"
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
	sqlCapabilities      = sqlfiles.Load("dbsync/capabilities.sql")
	sqlConsumedPopulated = sqlfiles.Load("dbsync/consumed_populated.sql")
	sqlEpochViewEnabled  = sqlfiles.Load("dbsync/epoch_view_enabled.sql")
	sqlCustomPlans       = sqlfiles.Load("dbsync/custom_plans.sql")
	sqlGenericPlans      = sqlfiles.Load("dbsync/generic_plans.sql")
)

// Pool sizes: db-sync queries are short and index-backed, so a small pool per
// instance keeps PostgreSQL's backend count bounded when many instances run.
const (
	maxOpenConns = 32
	maxIdleConns = 32
	connMaxIdle  = 5 * time.Minute
)

// Options tune an Engine; zero fields take the defaults.
// What capability detection finds is read with Capabilities, never handed
// to a callback: it arrives on the engine's goroutine while requests run.
type Options struct {
	ServerOptions
}

// ServerOptions tune how an Engine uses its servers (package dbsync's
// Options carry them too); zero fields take the defaults.
type ServerOptions struct {
	// StatementTimeout is every session's statement_timeout (0: none).
	StatementTimeout time.Duration
	// ProbeInterval is how often each server is probed while it is in
	// rotation (DefaultProbeInterval); ProbeTimeout bounds one probe
	// (DefaultProbeTimeout). A server out of rotation is probed more often
	// (see watch).
	ProbeInterval, ProbeTimeout time.Duration
	// MaxReplicaLag: a replica whose db-sync tip is further behind the
	// primary's leaves rotation until it has caught up
	// (DefaultMaxReplicaLag; below 0: never for its lag).
	MaxReplicaLag time.Duration
	// Conn bounds connections (connect timeout, cancel requests, TCP).
	Conn pgconn.Options
	// Log receives the servers' state changes; nil: slog.Default().
	Log *slog.Logger
	// MaxQueue refuses requests at once (ErrOverloaded) rather than queue
	// more than this many at a server's gate (0: no bound; see SetMaxActive).
	MaxQueue int
}

// Engine is one network's db-sync database: the primary plus optional
// replicas. Reads are spread round-robin over the replicas in rotation,
// and go to the primary when none is (see server.go for how servers leave
// and come back).
type Engine struct {
	network string
	// caps is what capability detection found on the primary; it is set
	// once, before the engine serves its first read (see Ready).
	caps Capabilities
	// layout selects each Statement's rendering (from caps, set with it).
	layout Layout
	// spentWanted: the unspent-output index is current enough to read
	// (UseSpentIndex); spentOn: and the primary has prepared its
	// renderings, so For picks them (LayoutNow).
	spentWanted, spentOn atomic.Bool
	// spentMarks: the index has output_spent_address (UseSpentMarks).
	spentMarks atomic.Bool

	primary  *pool
	replicas []*pool
	next     atomic.Uint64
	// floor is the newest tip slot served (lag.go); primaryTipTime the
	// primary's tip block time at its last probe (unix nanoseconds).
	floor          atomic.Int64
	primaryTipTime atomic.Int64

	opts Options
	log  *slog.Logger
	// ready is set once caps is known and the primary's statements are
	// prepared; until then every read is ErrUnavailable.
	ready atomic.Bool
	// started is closed when the first attempt to get ready has ended;
	// startErr is its error (nil: ready).
	started  chan struct{}
	startErr error
	stop     context.CancelFunc
	// life ends when the engine closes (background work's context).
	life context.Context
	wg   sync.WaitGroup
}

// New returns the engine for a network's db-sync (and its replicas)
// without waiting for any of them: each server is probed, prepared and
// (the primary) inspected for capabilities in the background, retried
// with backoff while it cannot be reached. Until the primary is ready,
// reads answer ErrUnavailable. Only a malformed URL is an error here.
func New(nc config.NetworkConfig, o Options) (*Engine, error) {
	if o.ProbeInterval <= 0 {
		o.ProbeInterval = DefaultProbeInterval
	}
	if o.ProbeTimeout <= 0 {
		o.ProbeTimeout = DefaultProbeTimeout
	}
	e := &Engine{network: nc.Network.Name, opts: o, log: o.Log, started: make(chan struct{})}
	if e.log == nil {
		e.log = slog.Default()
	}
	primary, err := connect(nc.DBSyncURL, o)
	if err != nil {
		return nil, fmt.Errorf("%s db-sync: %w", nc.Name, err)
	}
	e.primary = primary
	primary.instrument(nc.Name, "primary")
	for i, r := range nc.ReplicaURLs {
		rdb, err := connect(r, o)
		if err != nil {
			e.Close()
			return nil, fmt.Errorf("%s db-sync replica %s: %w", nc.Name, config.Redact(r), err)
		}
		rdb.instrument(nc.Name, "replica"+strconv.Itoa(i+1))
		e.replicas = append(e.replicas, rdb)
	}
	for _, p := range e.servers() {
		p.floor = &e.floor
	}
	ctx, cancel := context.WithCancel(context.Background())
	e.stop = cancel
	e.life = ctx
	for _, p := range e.servers() {
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			e.watch(ctx, p)
		}()
	}
	return e, nil
}

// Started waits for the first attempt to get the primary ready and
// returns its error: nil when the engine is ready, an error wrapping
// ErrUnsupported when it never will be, another (ErrUnavailable, a failed
// detection) while it keeps trying in the background.
func (e *Engine) Started(ctx context.Context) error {
	select {
	case <-e.started:
		return e.startErr
	case <-ctx.Done():
		return fmt.Errorf("%w: %v", ErrUnavailable, ctx.Err())
	}
}

// Ready reports whether the engine serves reads: capabilities known and
// the primary prepared (replicas join the rotation on their own).
func (e *Engine) Ready() bool { return e.ready.Load() }

// Life is a context that ends when the engine closes, for background work.
func (e *Engine) Life() context.Context { return e.life }

// Log is the engine's logger.
func (e *Engine) Log() *slog.Logger { return e.log }

// Network is the network's name.
func (e *Engine) Network() string { return e.network }

// connect opens a pool whose every session carries:
//   - statement_timeout, so a runaway query is cancelled by PostgreSQL
//     itself (answered 504);
//   - jit off: PostgreSQL compiles any plan whose estimate passes
//     jit_above_cost, which for a skewed address (a whale's statistics
//     promise 60 k rows, the partial index finds 9) spent 56 ms compiling a
//     query that ran in 1 ms;
//   - plan_cache_mode force_generic_plan: a prepared statement otherwise
//     plans its first five runs per connection for the actual values, and
//     for the whale those custom plans (a block seq scan and hash join, or
//     a LIMIT walk of the whole address index) took seconds under load
//     where the generic plan takes 0.3 ms. Statements whose plan must
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
func (e *Engine) servers() []*pool {
	return append([]*pool{e.primary}, e.replicas...)
}

// Primary returns the primary pool (capability detection, health).
func (e *Engine) Primary() *sqlx.DB { return e.primary.DB }

// Close stops the watchers and closes every pool.
func (e *Engine) Close() {
	if e.stop != nil {
		e.stop()
		e.wg.Wait()
	}
	for _, p := range e.servers() {
		if p != nil {
			p.close()
		}
	}
}

// LogValue renders the engine for slog: network and capabilities in one line.
func (e *Engine) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("network", e.network),
		slog.Int("replicas", len(e.replicas)),
		slog.String("variant", e.caps.Variant),
		slog.Bool("consumed_by_tx_id_populated", e.caps.ConsumedPopulated),
		slog.Bool("tx_in_populated", e.caps.TxInPopulated),
		slog.Bool("epoch_view_enabled", e.caps.EpochViewEnabled),
		slog.String("utxo_mode", string(e.caps.UTxOMode)),
	)
}

// readTx runs fn in a snapshot on this server. A streaming transaction (a
// UTxO listing, which writes to its client while the transaction is open)
// also takes one of the pool's stream slots for its whole length, and may
// leave the gate early (Snapshot.LeaveGate).
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
	tx, err := p.BeginTxx(ctx, &TxOptions)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // read-only; rollback after commit is a no-op
	snap := &Snapshot{Tx: tx, attempt: ctx, p: p, stmts: p.statements(), network: p.network, leaveGate: func() {}}
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

// StreamSlots is how many UTxO listings may be in progress per server.
const StreamSlots = streamSlots

// SetMaxActive lets at most n requests at a time query each of this
// network's database servers (primary and every replica, each its own
// count); the others wait in arrival order, within their deadline. 0
// lifts the limit. Call it before the engine serves requests.
//
// The pool then has a connection for every admitted request and every
// listing in progress (plus spares), so an admitted request never waits
// for a connection held by someone waiting at the gate.
func (e *Engine) SetMaxActive(n int) {
	for _, p := range e.servers() {
		p.gate, p.streams = nil, nil
		conns := maxOpenConns
		if n > 0 {
			p.gate, p.streams = newGate(n), newGate(streamSlots)
			p.gate.maxQueue = int64(e.opts.MaxQueue)
			p.gate.m = metrics.GateOf(p.network, p.server)
			conns = n + streamSlots + spareConns
		}
		p.SetMaxOpenConns(conns)
		p.SetMaxIdleConns(conns)
	}
}

// SetMaxQueue sets Options.MaxQueue; call it before SetMaxActive.
func (e *Engine) SetMaxQueue(n int) { e.opts.MaxQueue = n }

// TxOptions are every snapshot's: REPEATABLE READ, READ ONLY.
var TxOptions = sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
