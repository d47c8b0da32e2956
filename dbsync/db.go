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
	"log/slog"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq" // PostgreSQL driver

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/internal/metrics"
	sqlfiles "github.com/syncgate/syncgate/sql"
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

// DB is one network's db-sync database: the primary plus optional replicas.
// Reads are spread round-robin over the replicas when there are any.
type DB struct {
	Network config.Network
	Caps    Capabilities
	// layout selects each Statement's rendering (from Caps, at Open).
	layout Layout

	primary  *pool
	replicas []*pool
	// utxoChunk: outputs per chunk of a UTxO listing (0: the default).
	utxoChunk int
	// smallHistory: addresses with fewer outputs read their history whole
	// (see smallHistoryOutputs).
	smallHistory int
	next         atomic.Uint64
}

// Open connects to a network's db-sync (and its replicas) with the given
// statement timeout, detects its capabilities, and returns the DB. The
// connection is checked; an unreachable database is an error here so the
// operator sees it at start.
func Open(ctx context.Context, nc config.NetworkConfig, statementTimeout time.Duration) (*DB, error) {
	primary, err := connect(nc.DBSyncURL, statementTimeout)
	if err != nil {
		return nil, fmt.Errorf("%s db-sync: %w", nc.Name, err)
	}
	db := &DB{Network: nc.Network, primary: primary, smallHistory: smallHistoryOutputs}
	primary.instrument(nc.Name, "primary")
	for i, r := range nc.ReplicaURLs {
		rdb, err := connect(r, statementTimeout)
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("%s db-sync replica %s: %w", nc.Name, config.Redact(r), err)
		}
		rdb.instrument(nc.Name, "replica"+strconv.Itoa(i+1))
		db.replicas = append(db.replicas, rdb)
	}
	if err := primary.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s db-sync: %w", nc.Name, classify(err))
	}
	caps, err := DetectCapabilities(ctx, primary.DB)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("%s db-sync: %w", nc.Name, err)
	}
	db.Caps = caps
	db.layout = caps.Layout()
	primary.prepareAll(ctx, db.layout)
	for _, r := range db.replicas {
		r.prepareAll(ctx, db.layout)
	}
	return db, nil
}

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
func connect(dsn string, statementTimeout time.Duration) (*pool, error) {
	withOptions, err := WithSessionOptions(dsn, statementTimeout)
	if err != nil {
		return nil, err
	}
	db, err := sqlx.Open("postgres", withOptions)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(maxOpenConns)
	db.SetMaxIdleConns(maxIdleConns)
	db.SetConnMaxIdleTime(connMaxIdle)
	return &pool{DB: db}, nil
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

// Reader returns the pool to read from: a replica when configured.
func (db *DB) Reader() *pool {
	if len(db.replicas) == 0 {
		return db.primary
	}
	i := db.next.Add(1)
	return db.replicas[int(i%uint64(len(db.replicas)))]
}

// Primary returns the primary pool (capability detection, health).
func (db *DB) Primary() *sqlx.DB { return db.primary.DB }

// Close closes every pool.
func (db *DB) Close() {
	if db.primary != nil {
		db.primary.close()
	}
	for _, r := range db.replicas {
		r.close()
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
// (Snapshot.leaveGate).
func (db *DB) readTx(ctx context.Context, streaming bool, fn func(tx *Snapshot) error) error {
	p := db.Reader()
	g, streams := p.gate, p.streams
	if streaming {
		if err := streams.enter(ctx); err != nil {
			return classify(err)
		}
		defer streams.leave()
	}
	if err := g.enter(ctx); err != nil {
		return classify(err)
	}
	admitted := true
	leave := func() {
		if admitted {
			admitted = false
			g.leave()
		}
	}
	defer leave()
	tx, err := p.BeginTxx(ctx, &sqlTxOptions)
	if err != nil {
		return classify(err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only; rollback after commit is a no-op
	snap := &Snapshot{Tx: tx, stmts: p.stmts, network: p.network, leaveGate: func() {}}
	if streaming {
		snap.leaveGate = leave
	}
	if err := fn(snap); err != nil {
		return classify(err)
	}
	return classify(tx.Commit())
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
	for _, p := range append([]*pool{db.primary}, db.replicas...) {
		p.gate, p.streams = nil, nil
		conns := maxOpenConns
		if n > 0 {
			p.gate, p.streams = newGate(n), newGate(streamSlots)
			p.gate.m = metrics.GateOf(p.network, p.server)
			conns = n + streamSlots + spareConns
		}
		p.SetMaxOpenConns(conns)
		p.SetMaxIdleConns(conns)
	}
}

var sqlTxOptions = sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
