// Package dbsync is syncgate's read-only access to cardano-db-sync
// databases: one DB per served network, with one file per resource (utxo,
// balance, tx, asset, pool, tip). The connection engine under it (servers,
// rotation, gates, prepared statements, layouts) is dbsync/engine. It
// never writes to db-sync and never imports gin or net/http. Its SQL
// lives in sql/dbsync/, one statement per file.
package dbsync

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/dbsync/history"
	"github.com/syncgate/syncgate/internal/cardano"
)

// ServerOptions tune the connection engine: statement timeout, probes,
// connections, log and queue bound (see engine.ServerOptions).
type ServerOptions = engine.ServerOptions

// Options tune a DB; zero fields take the defaults.
type Options struct {
	ServerOptions
	// HistoryMemoBytes bounds the memo of final history pages and
	// transaction details (history.go): 0 is
	// DefaultHistoryMemoBytes, below 0 turns it off.
	HistoryMemoBytes int
	// UTxOChunk is the outputs per chunk of a UTxO listing (0:
	// defaultUTxOChunk). Tests make it tiny or huge to cross chunk edges.
	UTxOChunk int
	// SmallHistoryOutputs: addresses with fewer outputs read their history
	// whole (0: the history engine's default; below 0: never). Tests use it to run
	// every history test through both reads.
	SmallHistoryOutputs int
	// DenseHistoryOutputs fixes the output count from which a core-mode
	// address counts as dense (0: computed by the history engine). Tests use
	// it to run every history test through both plans.
	DenseHistoryOutputs int64
	// FinalDepth makes blocks this far below the tip final for the history
	// memo (0: past db-sync's deepest rollback), so tests on short chains
	// reach it.
	FinalDepth int64
	// HistoryAnchorStride replaces the history anchors' stride (0: the
	// default); tests use a small one so short histories exercise them.
	HistoryAnchorStride int
}

// DB is one network's db-sync database: its connection engine and what
// the query families remember between requests.
//
// A DB from Pinned reads every statement from one server; any other reads
// from the server its context was pinned to (Pin), else from the next in
// rotation for each read.
//
// What capability detection found is read through Capabilities: it
// arrives on the engine's goroutine while requests already pin views, so
// no view keeps a copy of its own.
type DB struct {
	Network cardano.Network

	*state
	pin engine.Reader // pinned (Pinned), or the zero Reader
}

// state is what every view of one DB shares.
type state struct {
	eng *engine.Engine
	// hist: the history engine (pages, anchors, counts, final pages).
	hist *history.Engine
	// memo: transaction details (history.go).
	memo detailMemo

	opts Options
}

// New returns the DB for a network's db-sync (and its replicas) without
// waiting for any of them (see engine.New). Until the primary is ready,
// reads answer ErrUnavailable. Only a malformed URL is an error here.
func New(nc config.NetworkConfig, o Options) (*DB, error) {
	s := &state{opts: o, memo: newDetailMemo(o.HistoryMemoBytes)}
	db := &DB{Network: nc.Network, state: s}
	eng, err := engine.New(nc, engine.Options{ServerOptions: o.ServerOptions})
	if err != nil {
		return nil, err
	}
	s.eng, s.hist = eng, history.New(eng, historyOptions(o))
	return db, nil
}

// Open is New, then waits for the first attempt to get the primary ready
// and fails when it did not: for commands and tests that need the database
// now. The service itself uses New and Started, and starts degraded.
func Open(ctx context.Context, nc config.NetworkConfig, statementTimeout time.Duration) (*DB, error) {
	return OpenWith(ctx, nc, Options{ServerOptions: ServerOptions{StatementTimeout: statementTimeout}})
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

// Engine is the DB's connection engine.
func (db *DB) Engine() *engine.Engine { return db.eng }

// Pinned returns a view of db whose every read goes to one server (the
// next in rotation) while it stays in rotation, and to the primary after:
// a request that reads the tip and then its answer in several statements
// through it sees one server's chain, or a newer one, never an older one.
// A view's Pinned is the view itself.
func (db *DB) Pinned() *DB {
	if db.pin.IsPinned() {
		return db // already a view: keep its server
	}
	return &DB{Network: db.Network, state: db.state, pin: db.eng.Pinned()}
}

// reader is the reader for a read: the view's pinned reader (Pinned),
// else an unpinned one. Pinning is a value handed out, never a context
// value, so a read cannot lose it on the way down.
func (db *DB) reader() engine.Reader {
	if db.pin.IsPinned() {
		return db.pin
	}
	return db.eng.Any()
}

// Started waits for the first attempt to get the primary ready and
// returns its error: nil when the DB is ready, an error wrapping
// ErrUnsupported when it never will be, another (ErrUnavailable, a failed
// detection) while it keeps trying in the background.
func (db *DB) Started(ctx context.Context) error { return db.eng.Started(ctx) }

// Ready reports whether the DB serves reads: capabilities known and the
// primary prepared (replicas join the rotation on their own).
func (db *DB) Ready() bool { return db.state != nil && db.eng.Ready() }

// Primary returns the primary pool (capability detection, health).
func (db *DB) Primary() *sqlx.DB { return db.eng.Primary() }

// Close stops the watchers and closes every pool.
func (db *DB) Close() { db.eng.Close() }

// LogValue renders the DB for slog: network and capabilities in one line.
func (db *DB) LogValue() slog.Value { return db.eng.LogValue() }

// ReadTx runs fn inside one REPEATABLE READ READ ONLY transaction on a
// reader, so that several queries of one request see one snapshot even if
// db-sync writes or rolls back in between.
// The transaction holds a place at the reader's gate until it ends.
func (db *DB) ReadTx(ctx context.Context, fn func(tx *Snapshot) error) error {
	return db.reader().ReadTx(ctx, fn)
}

// get runs a one-row read (gated, prepared when registered) on a reader.
func (db *DB) get(ctx context.Context, dest any, q Query, args ...any) error {
	return db.reader().Get(ctx, dest, q, args...)
}

// selectAll runs a many-row read (gated, prepared when registered) on a reader.
func (db *DB) selectAll(ctx context.Context, dest any, q Query, args ...any) error {
	return db.reader().Select(ctx, dest, q, args...)
}

// Reader is the reader of a read for the query families in dbsync's
// subpackages (dbsync/chain…): the view's pinned server, else any.
func (db *DB) Reader() engine.Reader { return db.reader() }

// SQL returns s rendered for this database's layout now (for dbsync's
// subpackages).
func (db *DB) SQL(s *Statement) Query { return db.eng.For(s) }

// sql returns s rendered for this database's layout now.
func (db *DB) sql(s *Statement) Query { return db.eng.For(s) }

// SetMaxActive lets at most n requests at a time query each of this
// network's database servers (see engine.Engine.SetMaxActive).
func (db *DB) SetMaxActive(n int) { db.eng.SetMaxActive(n) }

// SetMaxQueue sets Options.MaxQueue for a DB made before the
// configuration was read (serve); call it before SetMaxActive.
func (db *DB) SetMaxQueue(n int) { db.eng.SetMaxQueue(n) }

// Servers reports every server's rotation state, primary first.
func (db *DB) Servers() []ServerState { return db.eng.Servers() }

// Serving reports whether the DB serves reads now: ready, and at least one
// of its servers in rotation.
func (db *DB) Serving() bool { return db.eng.Serving() }

// Queued is how many requests wait at the primary's gate now.
func (db *DB) Queued() int { return db.eng.Queued() }

// Capabilities returns what detection found on the primary, and false
// while it has not run yet (degraded start). Safe from any goroutine: the
// engine publishes them once, before it turns ready.
func (db *DB) Capabilities() (Capabilities, bool) {
	if db.state == nil {
		return Capabilities{}, false
	}
	return db.eng.Capabilities()
}

// UseSpentIndex asks for the unspent-output statements to read the index
// (on) or not (see engine.Engine.UseSpentIndex).
func (db *DB) UseSpentIndex(on bool) { db.eng.UseSpentIndex(on) }

// UseSpentMarks says whether the index has output_spent_address (see
// engine.Engine.UseSpentMarks).
func (db *DB) UseSpentMarks(on bool) { db.eng.UseSpentMarks(on) }

// SpentMarksOn reports whether the index has output_spent_address.
func (db *DB) SpentMarksOn() bool { return db.eng.SpentMarksOn() }

// SpentIndexOn reports whether the unspent-output statements read the index now.
func (db *DB) SpentIndexOn() bool { return db.eng.SpentIndexOn() }
