package dbsync

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/sql"
)

// The engine's types and errors, under the names dbsync's callers know.
type (
	// Snapshot is a read-only REPEATABLE READ transaction (ReadTx).
	Snapshot = engine.Snapshot
	// Layout is what a statement's text may depend on (engine.Layout).
	Layout = engine.Layout
	// Statement is one SQL file rendered for every layout.
	Statement = engine.Statement
	// Query is one statement ready to run, with its name.
	Query = sqlfiles.Statement
	// Capabilities is what capability detection found.
	Capabilities = engine.Capabilities
	// UTxOMode says how "unspent" is decided in this database.
	UTxOMode = engine.UTxOMode
	// Facts names what an endpoint reads of the outputs.
	Facts = engine.Facts
	// ServerState is one server's place in rotation.
	ServerState = engine.ServerState
	// OverloadedError is ErrOverloaded with when to retry.
	OverloadedError = engine.OverloadedError
)

const (
	ModeCore             = engine.ModeCore
	ModeConsumed         = engine.ModeConsumed
	FactsUnspent         = engine.FactsUnspent
	FactsSpent           = engine.FactsSpent
	DefaultProbeInterval = engine.DefaultProbeInterval
	DefaultProbeTimeout  = engine.DefaultProbeTimeout
)

// Sentinel errors. Handlers map them to HTTP statuses; everything else is a 500.
var (
	ErrNotFound    = engine.ErrNotFound
	ErrUnavailable = engine.ErrUnavailable
	ErrTimeout     = engine.ErrTimeout
	ErrOverloaded  = engine.ErrOverloaded
	ErrUnsupported = engine.ErrUnsupported
)

// Layouts is every layout a statement is rendered for at start.
var Layouts = engine.Layouts

// Shorthands for the engine's statement registration.
var (
	classify      = engine.Classify
	alwaysGeneric = engine.AlwaysGeneric
	neverPrepared = engine.NeverPrepared
)

// load is a statement file whose text no layout changes (it may use
// fragments.sql), registered for a generic-plan prepared statement.
func load(file string) Query { return engine.Fixed(file) }

// layoutStatement renders file for every layout, registered as planFor says.
func layoutStatement(file string, planFor func(Layout) engine.Plan, params map[string]any) *Statement {
	return engine.Template(file, planFor, params)
}

// IsConnectionFailure reports whether err means a PostgreSQL server could
// not be reached or used (see engine.IsConnectionFailure).
func IsConnectionFailure(err error) bool { return engine.IsConnectionFailure(err) }

// DetectCapabilities inspects a db-sync database.
func DetectCapabilities(ctx context.Context, db *sqlx.DB) (Capabilities, error) {
	return engine.DetectCapabilities(ctx, db)
}

// WithSessionOptions adds the db-sync session options to a postgres URL.
func WithSessionOptions(dsn string, statementTimeout time.Duration) (string, error) {
	return engine.WithSessionOptions(dsn, statementTimeout)
}

// Render returns the statement file (e.g. "dbsync/utxos_by_address.sql")
// as it runs in layout l with params, for `syncgate sql` (to paste into psql).
func Render(file string, l Layout, params map[string]any) (string, error) {
	return engine.Render(file, l, params)
}

// Preparable lists the registered generic-plan statements' texts, every
// layout's rendering included (for the generic-plan EXPLAIN test).
func Preparable() []string {
	var out []string
	for _, s := range engine.Preparable() {
		out = append(out, s.Text)
	}
	return out
}
