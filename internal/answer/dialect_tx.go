package answer

import (
	"context"
	"strings"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/service/touched"
)

// DialectTx is another dialect's answer about one transaction (params: the
// dialect's and the route's names, then what names the transaction),
// cached the way Tx caches /v1's: this instance's copy under the request's
// tip first; then the answer kept across tips while the block it was read
// at stays on the chain the tracker follows and, when watch is given, no
// block since has paid to or spent from an address watch finds in it (an
// answer that says which of its outputs are spent watches the addresses of
// those that were not; an answer watch cannot read is not answered);
// otherwise read under the tip as DialectAnswer reads (a not-found
// remembered NotFoundTTL: a client polling for a transaction not yet in a
// block costs one index probe a tip), and kept from its key's second ask
// on.
func (s *Service) DialectTx(ctx context.Context, db *dbsync.DB, params []string, watch func(body []byte) (addrs []string, ok bool), build func(context.Context, *dbsync.DB) ([]byte, error)) ([]byte, error) {
	if pinned, tip, err := s.readAt(ctx, db); err == nil {
		if b, hit, err := s.caches.dialect.Peek(tipKey(pinned, tip, params)); hit {
			return b, err
		}
	}
	kept, keep := s.keptDialectTx(ctx, db, params, watch)
	if kept != nil {
		return kept, nil
	}
	return s.byTip(ctx, s.caches.dialect, db, params, func(ctx context.Context, db *dbsync.DB) ([]byte, time.Duration, error) {
		b, err := build(ctx, db)
		if err != nil {
			return nil, 0, err
		}
		if keep.key != "" {
			s.caches.dialectKept.Put(ctx, keep.key, keptRecord(keep.at, b), txCacheTTL)
		}
		return b, dialectCacheTTL, nil
	})
}

// keptDialectTx is keptTx for DialectTx: the answer kept under params when
// its block is still on the chain and none of the addresses watch finds in
// it moved since; otherwise where an answer read now is kept (from the
// key's second ask on, with the request's tip, read before the statement).
func (s *Service) keptDialectTx(ctx context.Context, db *dbsync.DB, params []string, watch func([]byte) ([]string, bool)) (kept []byte, keep txToKeep) {
	w, tracked := s.keptWayOf(ctx, db)
	if !tracked {
		return nil, keep
	}
	key := w.pinned.Network.Name + ":" + strings.Join(params, ":")
	_, hit, again := s.caches.dialectKept.LookupValid(ctx, key, false, func(rec []byte) bool {
		at, body, good := parseKept(rec)
		if !good || !w.tr.Holds(at) {
			return false
		}
		if watch != nil {
			addrs, ok := watch(body)
			if !ok {
				return false
			}
			for _, addr := range addrs {
				if !w.tr.Untouched(touched.Address, addr, at, w.now) {
					return false
				}
			}
		}
		kept = body
		return true
	})
	if hit {
		return kept, keep
	}
	if again {
		keep = txToKeep{key: key, at: w.now}
	}
	return nil, keep
}
