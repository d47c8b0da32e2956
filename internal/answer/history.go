package answer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/platform/bounded"
	"github.com/syncgate/syncgate/internal/service/touched"
)

// historyTotalTTL: the cached count is keyed by the tip's block hash, so it
// is never stale; the TTL only clears keys of tips long gone.
const historyTotalTTL = 10 * time.Minute

func historyPagination[T any](q dbsync.HistoryQuery, page dbsync.HistoryPage[T]) wire.Pagination {
	more := page.HasMore()
	return wire.Pagination{Limit: q.Limit, Offset: q.Offset, Total: page.Total, HasMore: &more, NextCursor: page.NextCursor}
}

func lastUpdatedOf(tip dbsync.Tip) wire.LastUpdated {
	return wire.LastUpdated{SlotNo: tip.SlotNo, BlockHash: tip.BlockHash, BlockTime: wire.BlockTime(tip.BlockTime)}
}

// historyTotal caches an address's transaction count per network, address
// and tip block hash, so paging through a big address counts once per
// block, not once per page.
func (s *Service) historyTotal(db *dbsync.DB, addr cardano.Address) dbsync.TotalCounter {
	return func(ctx context.Context, tip dbsync.Tip, count func(context.Context) (int64, error)) (int64, error) {
		return s.caches.txTotal.Get(ctx, db.Network.Name+":"+tip.BlockHash+":"+addressDigest(addr), count)
	}
}

// historyPageTTL: a first history page is cached under the tip it was
// read at; wallets poll their first page for new transactions many times
// per block. So are cursor pages near the tip (recentCursorSlots), which
// exchanges poll the same way. Deeper pages are read once each by a
// walker, and once final they are in the history memo (dbsync): not
// cached here.
const historyPageTTL = 2 * time.Minute

// historyPage answers a history page of addr from the cache of pages
// (first pages: offset 0, no cursor; cursor pages from a recent slot;
// and any page asked for again within historyPageTTL, see hotPages) or
// builds it; other pages are built each time. Cached pages are kept
// across tips while no block touches the address (keptHistory), or
// cached under the tip while the tracker does not hold it. build returns
// the page and the tip it was read at.
func (s *Service) historyPage(ctx context.Context, db *dbsync.DB, addr cardano.Address, q dbsync.HistoryQuery, params []string, build func(context.Context, *dbsync.DB) ([]byte, dbsync.Tip, error)) ([]byte, error) {
	params = append(params, strconv.Itoa(q.Limit), strconv.FormatBool(q.Ascending))
	if q.FromSlot != nil {
		params = append(params, "from", strconv.FormatInt(*q.FromSlot, 10), strconv.Itoa(q.Offset))
	} else if q.Offset != 0 {
		params = append(params, "offset", strconv.Itoa(q.Offset))
	}
	// Every page is read at the request's tip (readAt), cached or not:
	// its min_slot is waited for and its headers name it.
	db, _, err := s.readAt(ctx, db)
	if waitFailed(ctx, err) {
		return nil, err
	}
	first := q.Offset == 0 && q.FromSlot == nil
	hotKey := db.Network.Name + ":" + strings.Join(params, ":")
	if !first && !(q.FromSlot != nil && s.recentCursor(ctx, db, *q.FromSlot)) && !s.hotPages.again(hotKey) {
		b, _, err := build(ctx, db)
		if err != nil {
			return nil, err
		}
		if len(b) > s.tuning.HotPageMaxBytes {
			s.hotPages.tooBig(hotKey)
		}
		return b, nil
	}
	// Pages other than first ones got here by being asked for again (or
	// near the tip): stored at once. First pages are stored when asked
	// for again (admission).
	if b, answered, err := s.keptHistory(ctx, db, addr, hotKey, !first, build); answered {
		return b, err
	}
	return s.byTipAdmitted(ctx, s.caches.historyPage, db, params, !first, func(ctx context.Context, db *dbsync.DB) ([]byte, time.Duration, error) {
		b, _, err := build(ctx, db)
		return b, historyPageTTL, err
	})
}

// historyKeptTTL: how long a history page is kept across tips at most
// (a block touching the address ends it sooner).
const historyKeptTTL = 10 * time.Minute

// keptHistory answers a history page from the one kept for it (kept.go)
// under key. A page is kept with the tip its own statements read (the
// page's last_updated, read in the same snapshot), and answered at a later
// tip with that tip's last_updated: the transactions, the total and the
// cursor are those of every block since while none touched the address.
// answered is false when the tracker does not hold the request's tip.
func (s *Service) keptHistory(ctx context.Context, db *dbsync.DB, addr cardano.Address, key string, admitted bool, build func(context.Context, *dbsync.DB) ([]byte, dbsync.Tip, error)) (_ []byte, answered bool, _ error) {
	w, tracked := s.keptWayOf(ctx, db)
	if !tracked {
		return nil, false, nil
	}
	about := addressSubject(addr)
	at, body, err := w.answer(ctx, s.caches.historyKept, about, key, admitted, historyKeptTTL, func(ctx context.Context, pinned *dbsync.DB) (touched.Point, []byte, error) {
		b, tip, err := build(ctx, pinned)
		if err != nil {
			return w.now, nil, err
		}
		if tip.BlockNo == nil {
			// No block height to check the record against: kept with
			// a block no tracker holds, so it is read again next time.
			return touched.Point{Height: -1}, b, nil
		}
		return touched.Point{Height: *tip.BlockNo, Hash: tip.BlockHash}, b, nil
	})
	if err != nil || at == w.now || !w.still(about, at) {
		// Read now (at the request's tip, or at a later one that paid
		// to the address: the page names its own), or an error.
		return body, true, err
	}
	if b, ok := wire.WithLastUpdated(body, lastUpdatedOf(w.tip)); ok {
		return b, true, nil
	}
	return body, true, nil
}

// hotPages remembers which other history pages were asked for lately (per
// instance, bounded), so a page asked for a second time is cached under
// the tip like a first page: partners polling one deep page, or many
// clients reading the same one, meet the cache; a walker reading each
// page once never fills it. Pages over Tuning.HotPageMaxBytes are not
// cached.
// Hits are served from process memory (the cache is LocalFirst), so even
// a busy slot's 400 kB detailed page is cheaper cached than rebuilt from
// the history memo; read back from Redis on every hit, it was not (400
// against 800 requests a second), which is why the bound was 128 kB.
type hotPages struct{ seen *bounded.Map[string, hotPage] }

type hotPage struct {
	at  time.Time
	big bool // too big to cache: built each time
}

func newHotPages() hotPages {
	return hotPages{seen: bounded.New[string, hotPage](1<<20, func(p hotPage) bool { return time.Since(p.at) > historyPageTTL })}
}

// again reports whether the page (key) was asked for within
// historyPageTTL and may be cached, and remembers that it is being asked
// for now when it was not.
func (h hotPages) again(key string) bool {
	p, ok := h.seen.Get(key)
	if !ok {
		h.seen.Set(key, hotPage{at: time.Now()}, len(key)+64)
	}
	return ok && !p.big
}

// tooBig remembers that the page is not to be cached.
func (h hotPages) tooBig(key string) {
	h.seen.Set(key, hotPage{at: time.Now(), big: true}, len(key)+64)
}

// recentCursor reports whether fromSlot is within Tuning.RecentCursorSlots
// of the tip (false when the tip cannot be read: the page is then built).
// The window is mainnet's stability window (3k/f slots, 36 h) by default,
// beyond which pages become final far sooner than a walker returns.
func (s *Service) recentCursor(ctx context.Context, db *dbsync.DB, fromSlot int64) bool {
	_, tip, err := s.readAt(ctx, db)
	return err == nil && fromSlot >= tip.SlotNo-s.tuning.RecentCursorSlots
}

// addressDigest names an address in cache keys (Byron addresses reach
// kilobytes).
func addressDigest(addr cardano.Address) string {
	sum := sha256.Sum256([]byte(addr.String()))
	return hex.EncodeToString(sum[:16])
}

// DetailedHistory answers GET /v1/tx/address/:address: a page of the
// address's transactions with their inputs and outputs.
func (s *Service) DetailedHistory(ctx context.Context, db *dbsync.DB, addr cardano.Address, q dbsync.HistoryQuery, grouped bool) ([]byte, error) {
	params := []string{"detailed", addressDigest(addr), strconv.FormatBool(grouped)}
	return s.historyPage(ctx, db, addr, q, params, func(ctx context.Context, db *dbsync.DB) ([]byte, dbsync.Tip, error) {
		page, err := db.TxsByAddress(ctx, addr, q, s.historyTotal(db, addr))
		if err != nil {
			return nil, page.Tip, err
		}
		p, lu := historyPagination(q, page), lastUpdatedOf(page.Tip)
		return wire.AppendEnvelope(nil, func(b []byte) []byte {
			return s.txJSON.appendTxs(b, page.Items, grouped)
		}, &p, &lu), page.Tip, nil
	})
}

// Room made for an answer before it is written, so that it is not copied
// as it grows (a page of references grew from nothing through five
// buffers): about what the envelope with its pagination and
// last_updated, a transaction reference and an input or output with an
// asset or two take.
const (
	envelopeBytes = 320
	txRefBytes    = 340
	txIOBytes     = 260
)

// LightHistory answers GET /v1/tx/history/:address: a page of the
// address's transaction references.
func (s *Service) LightHistory(ctx context.Context, db *dbsync.DB, addr cardano.Address, q dbsync.HistoryQuery) ([]byte, error) {
	return s.historyPage(ctx, db, addr, q, []string{"light", addressDigest(addr)}, func(ctx context.Context, db *dbsync.DB) ([]byte, dbsync.Tip, error) {
		page, err := db.TxHistory(ctx, addr, q, s.historyTotal(db, addr))
		if err != nil {
			return nil, page.Tip, err
		}
		p, lu := historyPagination(q, page), lastUpdatedOf(page.Tip)
		return wire.AppendEnvelope(make([]byte, 0, envelopeBytes+len(page.Items)*txRefBytes), func(b []byte) []byte {
			b = append(b, '[')
			for i, r := range page.Items {
				if i > 0 {
					b = append(b, ',')
				}
				b = wire.AppendTxRef(b, r)
			}
			return append(b, ']')
		}, &p, &lu), page.Tip, nil
	})
}

// Tx answers GET /v1/tx/hash/:hash. Cached under the tip: clients poll a
// transaction they submitted until it is deep enough, and its answer
// cannot change before the tip moves (its 404 neither, briefly:
// NotFoundTTL). A transaction found is also kept across tips while the
// block it was read at stays on the chain (keptTx).
func (s *Service) Tx(ctx context.Context, db *dbsync.DB, hash cardano.TxHash, grouped bool) ([]byte, error) {
	params := []string{hash.String(), strconv.FormatBool(grouped)}
	// This instance's copy under the tip first: a transaction polled many
	// times under one tip costs what it did before it was kept.
	if pinned, tip, err := s.readAt(ctx, db); err == nil {
		if b, hit, err := s.caches.tx.Peek(tipKey(pinned, tip, params)); hit {
			return b, err
		}
	}
	kept, keep := s.keptTx(ctx, db, params)
	if kept != nil {
		return kept, nil
	}
	return s.byTip(ctx, s.caches.tx, db, params, func(ctx context.Context, db *dbsync.DB) ([]byte, time.Duration, error) {
		t, err := db.TxByHash(ctx, hash)
		if errors.Is(err, dbsync.ErrNotFound) {
			return nil, 0, ErrTxNotFound
		}
		if err != nil {
			return nil, 0, err
		}
		size := envelopeBytes + txRefBytes + (len(t.Inputs)+len(t.Outputs))*txIOBytes
		b := wire.AppendEnvelope(make([]byte, 0, size), func(b []byte) []byte { return wire.AppendTx(b, t, grouped) }, nil, nil)
		if keep.key != "" {
			s.caches.txKept.Put(ctx, keep.key, keptRecord(keep.at, b), txCacheTTL)
		}
		return b, txCacheTTL, nil
	})
}

// txToKeep says where a transaction read now is kept: under key (""
// when it is not), with the block at.
type txToKeep struct {
	key string
	at  touched.Point
}

// keptTx returns the answer kept for a transaction (params: its key's)
// when the block it was read at is still on the chain the tracker follows
// (a transaction's answer names its block and never changes while that
// block stays; a rollback restarts the tracker, which then holds no block
// before it). Otherwise it says where an answer read now is kept: from the
// key's second ask on (admission), with the request's tip (read before
// the statement, so on the chain with the transaction's block).
func (s *Service) keptTx(ctx context.Context, db *dbsync.DB, params []string) (kept []byte, keep txToKeep) {
	w, tracked := s.keptWayOf(ctx, db)
	if !tracked {
		return nil, keep
	}
	key := w.pinned.Network.Name + ":" + params[0] + ":" + params[1]
	_, kept, hit, again := w.lookup(ctx, s.caches.txKept, key, false, w.tr.Holds)
	if hit {
		return kept, keep
	}
	if again {
		keep = txToKeep{key: key, at: w.now}
	}
	return nil, keep
}

// txCacheTTL: how long a transaction answer stays cached under its tip.
const txCacheTTL = 10 * time.Minute
