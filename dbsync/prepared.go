package dbsync

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
)

// Prepared statements. lib/pq sends a parameterised query unnamed: one round
// trip to parse and describe it, one to bind and run it, and PostgreSQL plans
// it afresh every time. For the short index-backed queries of a request that
// overhead was larger than the execution itself (planning took several
// times the run), so statements whose best plan does not depend on the parameter
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
// often the address occurs; a generic plan took hundreds of milliseconds where
// the custom one takes a few), and the on-demand pool stake. Addresses with few
// outputs, nearly all of them, are read whole by tx_history_small with one
// generic plan. In consumed mode both sides of a history page are
// plain index walks and the generic plan is the fast one, for the whale
// too (docs/PERFORMANCE.md "Plans and prepared statements").

// registered is a statement to prepare on every connection pool whose
// layout it was rendered for (any layout when layout is nil).
type registered struct {
	query  string
	layout *Layout
}

var (
	preparableMu sync.Mutex
	preparable   []registered
	customOnly   []registered
)

// prepared registers query as safe to run as a prepared statement with a
// generic plan and returns it unchanged.
func prepared(query string) string {
	preparableMu.Lock()
	defer preparableMu.Unlock()
	preparable = append(preparable, registered{query: query})
	return query
}

// preparedFor is prepared for a statement rendered for layout l only.
func preparedFor(l Layout, query string) {
	preparableMu.Lock()
	defer preparableMu.Unlock()
	preparable = append(preparable, registered{query: query, layout: &l})
}

// preparedCustom registers query as a prepared statement that only ever
// runs in transactions that ask for custom plans (custom_plans.sql): it is
// planned for its values every time, but skips the parse round trip.
func preparedCustom(query string) string {
	preparableMu.Lock()
	defer preparableMu.Unlock()
	customOnly = append(customOnly, registered{query: query})
	return query
}

// preparedCustomFor is preparedCustom for a statement rendered for layout l only.
func preparedCustomFor(l Layout, query string) {
	preparableMu.Lock()
	defer preparableMu.Unlock()
	customOnly = append(customOnly, registered{query: query, layout: &l})
}

// Preparable lists the registered generic-plan statements, every layout's
// rendering included (for the generic-plan EXPLAIN test).
func Preparable() []string {
	preparableMu.Lock()
	defer preparableMu.Unlock()
	out := make([]string, len(preparable))
	for i, r := range preparable {
		out[i] = r.query
	}
	return out
}

// pool is one server's connection pool with its prepared statements, the
// gate that admits requests to that server and its rotation state.
type pool struct {
	*sqlx.DB
	// stmts maps a registered statement to its prepared form; it grows
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
	tip    recent[Tip]
	// position: the last /v1/epochs/latest read (RecentPosition).
	position recent[ChainPosition]
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
		q := r.query
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
		if ctx.Err() != nil || IsConnectionFailure(err) || errors.Is(classify(err), ErrTimeout) {
			failed = fmt.Errorf("prepare %s: %w", statementName(q), err)
			break
		}
		slog.Warn("statement not prepared; it runs unprepared", "statement", statementName(q), "error", err)
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
func (p *pool) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	g := p.gate
	t, err := g.enter(ctx)
	if err != nil {
		return err
	}
	defer g.leave(t)
	return p.getUngated(ctx, dest, query, args...)
}

// getUngated is GetContext without waiting at the gate, for the health
// probe: it must report the database, not the queue in front of it.
func (p *pool) getUngated(ctx context.Context, dest any, query string, args ...any) (err error) {
	defer observe(p.network, query, time.Now(), &err)
	if s, ok := p.statements()[query]; ok {
		return s.GetContext(ctx, dest, args...)
	}
	return p.DB.GetContext(ctx, dest, query, args...)
}

// SelectContext runs query through its prepared statement when there is
// one, once the gate admits it.
func (p *pool) SelectContext(ctx context.Context, dest any, query string, args ...any) (err error) {
	g := p.gate
	t, err := g.enter(ctx)
	if err != nil {
		return err
	}
	defer g.leave(t)
	defer observe(p.network, query, time.Now(), &err)
	if s, ok := p.statements()[query]; ok {
		return s.SelectContext(ctx, dest, args...)
	}
	return p.DB.SelectContext(ctx, dest, query, args...)
}

// Snapshot is a read-only REPEATABLE READ transaction whose GetContext and
// SelectContext use the pool's prepared statements (prepared on the
// transaction's connection the first time that connection runs them).
type Snapshot struct {
	*sqlx.Tx
	stmts map[string]*sqlx.Stmt
	// leaveGate frees the request's place at the gate (idempotent).
	leaveGate func()
	network   string // labels its statements' metrics
	// customPlans: plan_cache_mode is force_custom_plan in this
	// transaction now (withCustomPlans).
	customPlans bool
}

// GetContext runs query in the snapshot, prepared when registered.
func (s *Snapshot) GetContext(ctx context.Context, dest any, query string, args ...any) (err error) {
	defer observe(s.network, query, time.Now(), &err)
	if st, ok := s.stmts[query]; ok {
		return s.StmtxContext(ctx, st).GetContext(ctx, dest, args...)
	}
	return s.Tx.GetContext(ctx, dest, query, args...)
}

// SelectContext runs query in the snapshot, prepared when registered.
func (s *Snapshot) SelectContext(ctx context.Context, dest any, query string, args ...any) (err error) {
	defer observe(s.network, query, time.Now(), &err)
	if st, ok := s.stmts[query]; ok {
		return s.StmtxContext(ctx, st).SelectContext(ctx, dest, args...)
	}
	return s.Tx.SelectContext(ctx, dest, query, args...)
}

// rowScanner is a row type that scans itself from a result row, its fields
// in its statement's column order.
type rowScanner[T any] interface {
	*T
	scanRow(rows *sql.Rows) error
}

// selectRows runs query in the snapshot (prepared when registered) and
// scans every row into a T. The hot statements (a page's inputs, outputs
// and assets, UTxO chunks, history pages) read their rows this way: sqlx's
// reflection (field lookup per statement, reflect.Append per row) was a
// large share of the detailed history's server CPU.
func selectRows[T any, P rowScanner[T]](ctx context.Context, s *Snapshot, query string, args ...any) (_ []T, err error) {
	defer observe(s.network, query, time.Now(), &err)
	var rows *sql.Rows
	if st, ok := s.stmts[query]; ok {
		rows, err = s.StmtxContext(ctx, st).QueryContext(ctx, args...)
	} else {
		rows, err = s.Tx.QueryContext(ctx, query, args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := P(&v).scanRow(rows); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
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
