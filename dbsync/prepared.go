package dbsync

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
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

// pool is one server's connection pool with its prepared statements and
// the gate that admits requests to that server.
type pool struct {
	*sqlx.DB
	stmts map[string]*sqlx.Stmt // read-only once prepareAll returns
	gate  *gate                 // nil: no limit; set before serving
	// streams bounds the UTxO listings in progress, which hold a
	// connection after leaving the gate (see Snapshot.leaveGate).
	streams *gate
	// network and server ("primary", "replica1") label its metrics.
	network, server string
	untrack         func()
}

// prepareAll prepares every registered statement of layout l (and every
// layout-independent one). Preparing here,
// not on first use, matters: preparing on the pool takes a connection, and a
// request holding one while waiting for another could starve the pool.
func (p *pool) prepareAll(ctx context.Context, l Layout) {
	p.stmts = make(map[string]*sqlx.Stmt)
	preparableMu.Lock()
	all := append(append([]registered(nil), preparable...), customOnly...)
	preparableMu.Unlock()
	for _, r := range all {
		q := r.query
		if r.layout != nil && *r.layout != l {
			continue
		}
		if _, ok := p.stmts[q]; ok {
			continue
		}
		s, err := p.PreparexContext(ctx, q)
		if err != nil {
			slog.Debug("statement not prepared", "error", err)
			continue
		}
		p.stmts[q] = s
	}
}

// GetContext runs query through its prepared statement when there is one,
// once the gate admits it.
func (p *pool) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	g := p.gate
	if err := g.enter(ctx); err != nil {
		return err
	}
	defer g.leave()
	return p.getUngated(ctx, dest, query, args...)
}

// getUngated is GetContext without waiting at the gate, for the health
// probe: it must report the database, not the queue in front of it.
func (p *pool) getUngated(ctx context.Context, dest any, query string, args ...any) (err error) {
	defer observe(p.network, query, time.Now(), &err)
	if s, ok := p.stmts[query]; ok {
		return s.GetContext(ctx, dest, args...)
	}
	return p.DB.GetContext(ctx, dest, query, args...)
}

// SelectContext runs query through its prepared statement when there is
// one, once the gate admits it.
func (p *pool) SelectContext(ctx context.Context, dest any, query string, args ...any) (err error) {
	g := p.gate
	if err := g.enter(ctx); err != nil {
		return err
	}
	defer g.leave()
	defer observe(p.network, query, time.Now(), &err)
	if s, ok := p.stmts[query]; ok {
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
// sixth of the detailed history's server CPU.
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
	for _, s := range p.stmts {
		s.Close()
	}
	p.DB.Close()
}
