package answer

import (
	"context"
	"strings"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
)

// byTip answers from the answer cached in answers under (network, current
// tip, params) when there is one; otherwise build makes the bytes, which
// are answered and cached for the TTL build gives (its not-found error
// too, for NotFoundTTL, when answers remembers it). build is handed db
// pinned to one db-sync server (dbsync.DB.Pinned): the tip in the key is one that
// server had at most dbsync.RecentTipMaxAge ago, and the answer is read
// after it on the same server (or on the primary, which is ahead of every
// replica, if that server leaves rotation), so a cached answer is never
// older than its key's tip, even with replicas that lag each other. The
// tip is the request's (readAt: At's, after its min_slot wait), so the
// headers naming it name the cache key's. When the tip cannot be read it
// just builds, unless the request's min_slot could not be confirmed.
func (s *Service) byTip(ctx context.Context, answers *cache.Cache[[]byte], db *dbsync.DB, params []string, build func(context.Context, *dbsync.DB) ([]byte, time.Duration, error)) ([]byte, error) {
	return s.byTipAdmitted(ctx, answers, db, params, false, build)
}

// byTipAdmitted is byTip; admitted says the answer is stored even on its
// first ask under the tip (see caches.go's admission).
func (s *Service) byTipAdmitted(ctx context.Context, answers *cache.Cache[[]byte], db *dbsync.DB, params []string, admitted bool, build func(context.Context, *dbsync.DB) ([]byte, time.Duration, error)) ([]byte, error) {
	db, tip, tipErr := s.readAt(ctx, db)
	if tipErr == nil {
		key := tipKey(db, tip, params)
		load := func(ctx context.Context) ([]byte, time.Duration, error) { return build(ctx, db) }
		if admitted {
			return answers.GetAdmitted(ctx, key, load)
		}
		return answers.GetTTL(ctx, key, load)
	}
	if waitFailed(ctx, tipErr) {
		return nil, tipErr
	}
	b, _, err := build(ctx, db)
	return b, err
}

// tipKey is an answer's key under the tip (byTip).
func tipKey(db *dbsync.DB, tip dbsync.Tip, params []string) string {
	return db.Network.Name + ":" + tip.BlockHash + ":" + strings.Join(params, ":")
}

// byTipEnvelope is byTip for answers encoded from an envelope.
func (s *Service) byTipEnvelope(ctx context.Context, answers *cache.Cache[[]byte], db *dbsync.DB, params []string, build func(context.Context, *dbsync.DB) (wire.Envelope, time.Duration, error)) ([]byte, error) {
	return s.byTip(ctx, answers, db, params, func(ctx context.Context, db *dbsync.DB) ([]byte, time.Duration, error) {
		env, ttl, err := build(ctx, db)
		if err != nil {
			return nil, 0, err
		}
		b, err := wire.Encode(env)
		return b, ttl, err
	})
}

// ok is the envelope of a plain answer.
func ok(data any) wire.Envelope { return wire.Envelope{Success: true, Data: data} }
