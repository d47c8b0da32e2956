package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"github.com/syncgate/syncgate/internal/cardano"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/platform/bounded"
)

// Limits of the two history endpoints (their limit parameters in the OpenAPI document).
const (
	detailedHistoryDefaultLimit = 20
	detailedHistoryMaxLimit     = 100
	lightHistoryDefaultLimit    = 100
	lightHistoryMaxLimit        = 500
)

// historyTotalTTL: the cached count is keyed by the tip's block hash, so it
// is never stale; the TTL only clears keys of tips long gone.
const historyTotalTTL = 10 * time.Minute

// txRefJSON is a transaction reference (OpenAPI schema TxRef).
type txRefJSON struct {
	TxHash    string `json:"tx_hash"`
	BlockHash string `json:"block_hash"`
	SlotNo    int64  `json:"slot_no"`
	BlockNo   int64  `json:"block_no"`
	BlockTime string `json:"block_time"`
}

// blockTime renders a db-sync block time (whole seconds, UTC) as ISO 8601
// with Z (DECISIONS); admin records use isoTime, which keeps milliseconds.
func blockTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func txRefOf(r dbsync.TxRef) txRefJSON {
	return txRefJSON{TxHash: r.Hash, BlockHash: r.BlockHash, SlotNo: r.SlotNo, BlockNo: r.BlockNo, BlockTime: blockTime(r.BlockTime)}
}

func historyPagination[T any](q dbsync.HistoryQuery, page dbsync.HistoryPage[T]) Pagination {
	more := page.HasMore()
	return Pagination{Limit: q.Limit, Offset: q.Offset, Total: page.Total, HasMore: &more, NextCursor: page.NextCursor}
}

func lastUpdatedOf(tip dbsync.Tip) LastUpdated {
	return LastUpdated{SlotNo: tip.SlotNo, BlockHash: tip.BlockHash, BlockTime: blockTime(tip.BlockTime)}
}

// historyTotal caches an address's transaction count per network, address
// and tip block hash, so paging through a big address counts once per
// block, not once per page.
func (s *Server) historyTotal(db *dbsync.DB, addr cardano.Address) dbsync.TotalCounter {
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

// recentCursorSlots is how near the tip a cursor page's fromSlot must be
// for the page to be cached under the tip: mainnet's stability window
// (3k/f slots, 36 h), beyond which pages become final far sooner than a
// walker returns.
var recentCursorSlots int64 = 129_600 // a variable for tests

// historyPageAnswer serves a history page from the cache of pages under the tip
// (first pages: offset 0, no cursor; cursor pages from a recent slot; and
// any page asked for again within historyPageTTL, see hotPages) or builds
// it; other pages are built each time.
func (s *Server) historyPageAnswer(c *gin.Context, db *dbsync.DB, q dbsync.HistoryQuery, params []string, build func(context.Context) ([]byte, error)) error {
	params = append(params, strconv.Itoa(q.Limit), strconv.FormatBool(q.Ascending))
	if q.FromSlot != nil {
		params = append(params, "from", strconv.FormatInt(*q.FromSlot, 10), strconv.Itoa(q.Offset))
	} else if q.Offset != 0 {
		params = append(params, "offset", strconv.Itoa(q.Offset))
	}
	first := q.Offset == 0 && q.FromSlot == nil
	hotKey := db.Network.Name + ":" + strings.Join(params, ":")
	if !first && !(q.FromSlot != nil && s.recentCursor(c, db, *q.FromSlot)) && !s.hotPages.again(hotKey) {
		b, err := build(c.Request.Context())
		if err != nil {
			return err
		}
		if len(b) > hotPageMaxBytes {
			s.hotPages.tooBig(hotKey)
		}
		c.Data(http.StatusOK, contentType, b)
		return nil
	}
	return s.servedBytesByTip(c, s.caches.historyPage, db, params, func(ctx context.Context) ([]byte, time.Duration, error) {
		b, err := build(ctx)
		return b, historyPageTTL, err
	})
}

// hotPages remembers which other history pages were asked for lately (per
// instance, bounded), so a page asked for a second time is cached under
// the tip like a first page: partners polling one deep page, or many
// clients reading the same one, meet the cache; a walker reading each
// page once never fills it. Pages over hotPageMaxBytes are not cached.
// Hits are served from process memory (the cache is LocalFirst), so even
// a busy slot's 400 kB detailed page is cheaper cached than rebuilt from
// the history memo; read back from Redis on every hit it was not, which
// is why the bound was once far lower (docs/PERFORMANCE.md "Answer caches").
type hotPages struct{ seen *bounded.Map[string, hotPage] }

type hotPage struct {
	at  time.Time
	big bool // too big to cache: built each time
}

var hotPageMaxBytes = 1 << 20 // a variable for tests

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

// recentCursor reports whether fromSlot is within recentCursorSlots of
// the tip (false when the tip cannot be read: the page is then built).
func (s *Server) recentCursor(c *gin.Context, db *dbsync.DB, fromSlot int64) bool {
	tip, err := db.RecentTip(db.Pin(c.Request.Context()))
	return err == nil && fromSlot >= tip.SlotNo-recentCursorSlots
}

// addressDigest names an address in cache keys (Byron addresses reach
// kilobytes).
func addressDigest(addr cardano.Address) string {
	sum := sha256.Sum256([]byte(addr.String()))
	return hex.EncodeToString(sum[:16])
}

// txsByAddress: GET /v1/tx/address/:address (detailed history).
func (s *Server) txsByAddress(c *gin.Context) error {
	db, addr, err := s.chainAddress(c)
	if err != nil {
		return err
	}
	q, err := historyQuery(c, detailedHistoryDefaultLimit, detailedHistoryMaxLimit)
	if err != nil {
		return err
	}
	grouped, err := queryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	params := []string{"detailed", addressDigest(addr), strconv.FormatBool(grouped)}
	return s.historyPageAnswer(c, db, q, params, func(ctx context.Context) ([]byte, error) {
		page, err := db.TxsByAddress(ctx, addr, q, s.historyTotal(db, addr))
		if err != nil {
			return nil, err
		}
		p, lu := historyPagination(q, page), lastUpdatedOf(page.Tip)
		return appendEnvelope(nil, func(b []byte) []byte {
			return s.txJSON.appendTxs(b, page.Items, grouped)
		}, &p, &lu), nil
	})
}

// txHistory: GET /v1/tx/history/:address (light history).
func (s *Server) txHistory(c *gin.Context) error {
	db, addr, err := s.chainAddress(c)
	if err != nil {
		return err
	}
	q, err := historyQuery(c, lightHistoryDefaultLimit, lightHistoryMaxLimit)
	if err != nil {
		return err
	}
	return s.historyPageAnswer(c, db, q, []string{"light", addressDigest(addr)}, func(ctx context.Context) ([]byte, error) {
		page, err := db.TxHistory(ctx, addr, q, s.historyTotal(db, addr))
		if err != nil {
			return nil, err
		}
		items := make([]txRefJSON, len(page.Items))
		for i, r := range page.Items {
			items[i] = txRefOf(r)
		}
		p, lu := historyPagination(q, page), lastUpdatedOf(page.Tip)
		return encodeJSON(envelope{Success: true, Data: items, Pagination: &p, LastUpdated: &lu})
	})
}

// txByHash: GET /v1/tx/hash/:hash.
func (s *Server) txByHash(c *gin.Context) error {
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	hash, err := cardano.ParseTxHash(c.Param("hash"))
	if err != nil {
		return errInvalidTxHash
	}
	grouped, err := queryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	// Cached under the tip: clients poll a transaction they submitted
	// until it is deep enough, and its answer cannot change before the tip
	// moves (its 404 neither, briefly: notFoundTTL).
	params := []string{hash.String(), strconv.FormatBool(grouped)}
	return s.servedBytesByTip(c, s.caches.tx, db, params, func(ctx context.Context) ([]byte, time.Duration, error) {
		t, err := db.TxByHash(ctx, hash)
		if errors.Is(err, dbsync.ErrNotFound) {
			return nil, 0, errTxNotFound
		}
		if err != nil {
			return nil, 0, err
		}
		return appendEnvelope(nil, func(b []byte) []byte { return appendTx(b, t, grouped) }, nil, nil), txCacheTTL, nil
	})
}

// txCacheTTL: how long a transaction answer stays cached under its tip.
const txCacheTTL = 10 * time.Minute
