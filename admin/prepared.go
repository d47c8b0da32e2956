package admin

import (
	"context"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
)

// preparedStmt is one statement prepared on first use, for the reads asked
// on every request of a hot route (transaction status asks the submission
// log for every hash it has not decided yet). lib/pq sends an unprepared
// statement with parameters as parse then execute, two round trips and a
// plan each time; a prepared one is one round trip (database/sql prepares
// it once on each connection it meets).
type preparedStmt struct {
	mu        sync.Mutex
	stmt      *sqlx.Stmt
	preparing bool
	retryAt   time.Time
}

// prepareRetry is how long a failed prepare (database down, schema not yet
// migrated) is left alone: meanwhile the statement runs unprepared.
const prepareRetry = time.Second

// get is db.GetContext(dest, query, args) through the prepared statement,
// or unprepared while it cannot be prepared.
func (p *preparedStmt) get(ctx context.Context, db *sqlx.DB, dest any, query string, args ...any) error {
	if st := p.of(ctx, db, query); st != nil {
		return st.GetContext(ctx, dest, args...)
	}
	return db.GetContext(ctx, dest, query, args...)
}

// of is the prepared statement, nil while it is not: one caller prepares
// it, the others meanwhile run the statement unprepared rather than wait.
func (p *preparedStmt) of(ctx context.Context, db *sqlx.DB, query string) *sqlx.Stmt {
	p.mu.Lock()
	if p.stmt != nil || p.preparing || time.Now().Before(p.retryAt) {
		st := p.stmt
		p.mu.Unlock()
		return st
	}
	p.preparing = true
	p.mu.Unlock()
	st, err := db.PreparexContext(ctx, query)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.preparing = false
	if err != nil {
		p.retryAt = time.Now().Add(prepareRetry)
		return nil
	}
	p.stmt = st
	return st
}

func (p *preparedStmt) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stmt != nil {
		_ = p.stmt.Close()
		p.stmt = nil
	}
	p.retryAt = time.Now().Add(24 * time.Hour) // closed: never prepared again
}
