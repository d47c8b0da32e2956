package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

// Prepared statements. lib/pq sends a parameterised query unnamed: one round
// trip to parse and describe it, one to bind and run it, and PostgreSQL plans
// it afresh every time. For the short index-backed queries of a request that
// overhead was larger than the execution itself (plan 0.5-2.5 ms, run
// 0.25 ms), so statements whose best plan does not depend on the parameter
// values are prepared once per pool: database/sql then prepares them lazily
// on each connection, a request costs one round trip per statement, and
// sessions run with plan_cache_mode=force_generic_plan (see connect), so the
// plan is made once per connection and never re-made for a skewed value.
//
// Statements whose plans must follow the values run with custom plans
// (custom_plans.sql, and generic_plans.sql right after them so the rest of
// the request keeps its generic plans): the core-mode history walk of
// addresses with many outputs, registered with preparedCustom so it still
// skips the parse round trip (its spent side is found either from the
// address's outputs or from the spends in tx id order depending on how
// often the address occurs; a generic plan took 200-800 ms where the custom
// one takes 1-20 ms), and the on-demand pool stake. Addresses with few
// outputs, nearly all of them, are read whole by tx_history_small with one
// generic plan. In consumed mode both sides of a history page are
// plain index walks and the generic plan is the fast one (0.3 ms for the
// whale's first page against 9 ms custom, 2 ms of it planning).

// registered is a statement to prepare on every connection pool whose
// layout it was rendered for (any layout when layout is nil).
type registered struct {
	stmt   sqlfiles.Statement
	layout *Layout
}

var (
	preparableMu sync.Mutex
	preparable   []registered
	customOnly   []registered
)

// Prepared registers s as safe to run as a prepared statement with a
// generic plan and returns it unchanged.
func Prepared(s sqlfiles.Statement) sqlfiles.Statement {
	register(&preparable, registered{stmt: s})
	return s
}

// PreparedCustom registers s as a prepared statement that only ever runs
// in transactions that ask for custom plans (custom_plans.sql): it is
// planned for its values every time, but skips the parse round trip.
func PreparedCustom(s sqlfiles.Statement) sqlfiles.Statement {
	register(&customOnly, registered{stmt: s})
	return s
}

func register(list *[]registered, r registered) {
	preparableMu.Lock()
	defer preparableMu.Unlock()
	*list = append(*list, r)
}

// Preparable lists the registered generic-plan statements, every layout's
// rendering included (for the generic-plan EXPLAIN test).
func Preparable() []sqlfiles.Statement {
	preparableMu.Lock()
	defer preparableMu.Unlock()
	out := make([]sqlfiles.Statement, len(preparable))
	for i, r := range preparable {
		out[i] = r.stmt
	}
	return out
}

// Registered is how many distinct statements are registered for
// preparation (generic and custom-planned) in layout l.
func Registered(l Layout) int {
	preparableMu.Lock()
	defer preparableMu.Unlock()
	seen := map[string]bool{}
	for _, r := range append(append([]registered(nil), preparable...), customOnly...) {
		if r.layout == nil || *r.layout == l {
			seen[r.stmt.Text] = true
		}
	}
	return len(seen)
}

// pool is one server's connection pool with its prepared statements, the
// gate that admits requests to that server and its rotation state.
type pool struct {
	*sqlx.DB
	// stmts maps a registered statement's text to its prepared form; it grows
	// (replaced whole) until every statement the server can prepare is.
	stmts atomic.Pointer[map[string]*sqlx.Stmt]
	// skipped: statements this server cannot prepare (the other db-sync
	// mode's), not tried again; prepared: every statement of a layout has
	// been tried. Only the watcher touches them.
	skipped  map[string]bool
	prepared map[Layout]bool
	gate     *gate // nil: no limit; set before serving
	// streams bounds the UTxO listings in progress, which hold a
	// connection after leaving the gate (see Snapshot.leaveGate).
	streams *gate
	// network and server ("primary", "replica1") label its metrics.
	network, server string
	untrack         func()
	// probe is a one-connection pool for the watcher's probes.
	probe  *sqlx.DB
	health health
	// memos: values read on this server and remembered briefly (Recent).
	memos sync.Map
	// tip is the newest slot known on this server: its last probe's tip,
	// or a newer one read on it since (lag.go). floor is the engine's.
	tip   atomic.Int64
	floor *atomic.Int64
	// lag is a replica's lag at its last probe (nanoseconds); behind: it is
	// out of rotation for its lag (the watcher's alone).
	lag    atomic.Int64
	behind bool
}

// statements returns the prepared statements (never nil).
func (p *pool) statements() map[string]*sqlx.Stmt {
	if m := p.stmts.Load(); m != nil {
		return *m
	}
	return nil
}

// prepareAll prepares every registered statement of layout l (and every
// layout-independent one) not prepared yet. Preparing here, not on first
// use, matters: preparing on the pool takes a connection, and a request
// holding one while waiting for another could starve the pool. A
// statement the server refuses (a schema older than the statement) is
// skipped for good and would run unprepared; a connection failure or
// timeout stops the pass with an error, and the watcher tries the rest
// again later.
func (p *pool) prepareAll(ctx context.Context, l Layout) error {
	if p.prepared[l] {
		return nil
	}
	have := p.statements()
	preparableMu.Lock()
	all := append(append([]registered(nil), preparable...), customOnly...)
	preparableMu.Unlock()
	next := make(map[string]*sqlx.Stmt, len(all))
	for q, s := range have {
		next[q] = s
	}
	if p.skipped == nil {
		p.skipped = map[string]bool{}
	}
	var failed error
	for _, r := range all {
		q := r.stmt.Text
		if r.layout != nil && *r.layout != l {
			continue
		}
		if _, ok := next[q]; ok || p.skipped[q] {
			continue
		}
		s, err := p.PreparexContext(ctx, q)
		if err == nil {
			next[q] = s
			continue
		}
		if ctx.Err() != nil || IsConnectionFailure(err) || errors.Is(Classify(err), ErrTimeout) {
			failed = fmt.Errorf("prepare %s: %w", r.stmt.Name, err)
			break
		}
		slog.Warn("statement not prepared; it runs unprepared", "statement", r.stmt.Name, "error", err)
		p.skipped[q] = true
	}
	if len(next) > len(have) {
		p.stmts.Store(&next)
	}
	if p.prepared == nil {
		p.prepared = map[Layout]bool{}
	}
	p.prepared[l] = failed == nil
	return failed
}

// GetContext runs query through its prepared statement when there is one,
// once the gate admits it.
func (p *pool) GetContext(ctx context.Context, dest any, q sqlfiles.Statement, args ...any) error {
	g := p.gate
	t, err := g.enter(ctx)
	if err != nil {
		return err
	}
	defer g.leave(t)
	return p.getUngated(ctx, dest, q, args...)
}

// getUngated is GetContext without waiting at the gate, for the health
// probe: it must report the database, not the queue in front of it.
func (p *pool) getUngated(ctx context.Context, dest any, q sqlfiles.Statement, args ...any) (err error) {
	defer observe(p.network, q, time.Now(), &err)
	if s, ok := p.statements()[q.Text]; ok {
		err = s.GetContext(ctx, dest, args...)
	} else {
		err = p.DB.GetContext(ctx, dest, q.Text, args...)
	}
	if err == nil {
		p.noteRead(dest)
	}
	return err
}

// SelectContext runs query through its prepared statement when there is
// one, once the gate admits it.
func (p *pool) SelectContext(ctx context.Context, dest any, q sqlfiles.Statement, args ...any) (err error) {
	g := p.gate
	t, err := g.enter(ctx)
	if err != nil {
		return err
	}
	defer g.leave(t)
	defer observe(p.network, q, time.Now(), &err)
	if s, ok := p.statements()[q.Text]; ok {
		return s.SelectContext(ctx, dest, args...)
	}
	return p.DB.SelectContext(ctx, dest, q.Text, args...)
}

// Snapshot is a read-only REPEATABLE READ transaction whose GetContext and
// SelectContext use the pool's prepared statements (prepared on the
// transaction's connection the first time that connection runs them).
type Snapshot struct {
	*sqlx.Tx
	// attempt ends when the attempt running this snapshot does (its server
	// left rotation, or the request ended): every statement ends with it,
	// whatever context its caller passes (bind), so a statement stuck on a
	// server taken out of rotation is interrupted and the read can run
	// again on the primary. Nil: only the caller's context counts.
	attempt context.Context
	// p is the server the snapshot reads (tips it reads are noted on it).
	p *pool
	// background: the snapshot serves no client (PrimaryTx), so a tip it
	// reads is noted on p without raising the floor of tips served.
	background bool
	stmts      map[string]*sqlx.Stmt
	// leaveGate frees the request's place at the gate (idempotent).
	leaveGate func()
	network   string // labels its statements' metrics
	// customPlans: plan_cache_mode is force_custom_plan in this
	// transaction now (WithCustomPlans).
	customPlans bool
}

// bind returns a context that ends when ctx or the snapshot's attempt
// does, and its release. The request's code passes its own context to
// the snapshot's statements; without this, a statement stuck on a server
// that left rotation would wait out the request's deadline.
func (s *Snapshot) bind(ctx context.Context) (context.Context, func()) {
	a := s.attempt
	if a == nil || a == ctx {
		return ctx, func() {}
	}
	bound, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(a, func() { cancel(context.Cause(a)) })
	return bound, func() {
		stop()
		cancel(nil)
	}
}

// GetContext runs q in the snapshot, prepared when registered.
func (s *Snapshot) GetContext(ctx context.Context, dest any, q sqlfiles.Statement, args ...any) (err error) {
	defer observe(s.network, q, time.Now(), &err)
	ctx, release := s.bind(ctx)
	defer release()
	if st, ok := s.stmts[q.Text]; ok {
		err = s.StmtxContext(ctx, st).GetContext(ctx, dest, args...)
	} else {
		err = s.Tx.GetContext(ctx, dest, q.Text, args...)
	}
	if err == nil && s.p != nil {
		if s.background {
			s.p.noteReached(dest)
		} else {
			s.p.noteRead(dest)
		}
	}
	return err
}

// SelectContext runs q in the snapshot, prepared when registered.
func (s *Snapshot) SelectContext(ctx context.Context, dest any, q sqlfiles.Statement, args ...any) (err error) {
	defer observe(s.network, q, time.Now(), &err)
	ctx, release := s.bind(ctx)
	defer release()
	if st, ok := s.stmts[q.Text]; ok {
		return s.StmtxContext(ctx, st).SelectContext(ctx, dest, args...)
	}
	return s.Tx.SelectContext(ctx, dest, q.Text, args...)
}

// ExecContext runs query in the snapshot (plan settings, set_config),
// bound to the attempt like every statement of the snapshot.
func (s *Snapshot) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx, release := s.bind(ctx)
	defer release()
	return s.Tx.ExecContext(ctx, query, args...)
}

// LeaveGate frees the request's place at the server's gate before the
// transaction ends (a streaming transaction writing to a slow client);
// idempotent, and a no-op outside Stream.
func (s *Snapshot) LeaveGate() { s.leaveGate() }

// RowScanner is a row type that scans itself from a result row, its
// fields in its statement's column order.
type RowScanner[T any] interface {
	*T
	ScanRow(rows *sql.Rows) error
}

// SelectRows runs q in the snapshot (prepared when registered) and scans
// every row into a T. The hot statements (a page's inputs, outputs and
// assets, UTxO chunks, history pages) read their rows this way: sqlx's
// reflection (field lookup per statement, reflect.Append per row) was a
// sixth of the detailed history's server CPU.
func SelectRows[T any, P RowScanner[T]](ctx context.Context, s *Snapshot, q sqlfiles.Statement, args ...any) (_ []T, err error) {
	defer observe(s.network, q, time.Now(), &err)
	ctx, release := s.bind(ctx)
	defer release()
	var rows *sql.Rows
	if st, ok := s.stmts[q.Text]; ok {
		rows, err = s.StmtxContext(ctx, st).QueryContext(ctx, args...)
	} else {
		rows, err = s.Tx.QueryContext(ctx, q.Text, args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := P(&v).ScanRow(rows); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// WithCustomPlans runs fn with the statements planned for their values
// (custom_plans.sql), and the rest of the transaction back on generic
// plans after.
func WithCustomPlans(ctx context.Context, tx *Snapshot, fn func() error) error {
	if _, err := tx.ExecContext(ctx, sqlCustomPlans.Text); err != nil {
		return err
	}
	tx.customPlans = true
	if err := fn(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, sqlGenericPlans.Text); err != nil {
		return err
	}
	tx.customPlans = false
	return nil
}

// OnGenericPlans runs fn with generic plans in a transaction that may be
// inside WithCustomPlans: for a statement whose generic plan is right for
// every value, so it is not planned again on each run.
func OnGenericPlans(ctx context.Context, tx *Snapshot, fn func() error) error {
	if !tx.customPlans {
		return fn()
	}
	if _, err := tx.ExecContext(ctx, sqlGenericPlans.Text); err != nil {
		return err
	}
	tx.customPlans = false
	err := fn()
	if _, serr := tx.ExecContext(ctx, sqlCustomPlans.Text); serr != nil {
		return errors.Join(err, serr)
	}
	tx.customPlans = true
	return err
}

// SetStatementTimeout gives the rest of transaction tx its own statement
// timeout (background passes, longer than a request's).
func SetStatementTimeout(ctx context.Context, tx sqlx.ExecerContext, d time.Duration) error {
	_, err := tx.ExecContext(ctx, `SELECT set_config('statement_timeout', $1, true)`, fmt.Sprintf("%dms", d.Milliseconds()))
	return err
}

func (p *pool) close() {
	if p.untrack != nil {
		p.untrack()
	}
	for _, s := range p.statements() {
		s.Close()
	}
	p.DB.Close()
	if p.probe != nil {
		p.probe.Close()
	}
}
