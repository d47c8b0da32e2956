package answer

import (
	"context"
	"time"

	"github.com/syncgate/syncgate/dbsync"
)

// dialectCacheTTL bounds the memory of another dialect's answers; each is
// keyed under the tip it was read at, so none is ever stale for its key.
const dialectCacheTTL = 10 * time.Minute

// DialectAnswer is an answer of another dialect (Blockfrost's, package
// internal/answer/blockfrost) under the request's tip, as byTip keeps
// this dialect's: pinned to one db-sync server, read after the request's
// min_slot, cached under (network, tip hash, params) from the key's second
// ask on, and a build that returns ErrNotFound is remembered for
// NotFoundTTL. params start with the dialect's and the route's names.
func (s *Service) DialectAnswer(ctx context.Context, db *dbsync.DB, params []string, build func(context.Context, *dbsync.DB) ([]byte, error)) ([]byte, error) {
	return s.byTip(ctx, s.caches.dialect, db, params, func(ctx context.Context, db *dbsync.DB) ([]byte, time.Duration, error) {
		b, err := build(ctx, db)
		return b, dialectCacheTTL, err
	})
}

// DialectTip is the tip the request reads at (min_slot waited for, the
// tip headers set), with db pinned to the server that has it: for a
// dialect's answers that are not cached but must name or check the tip.
func (s *Service) DialectTip(ctx context.Context, db *dbsync.DB) (*dbsync.DB, dbsync.Tip, error) {
	return s.readAt(ctx, db)
}
