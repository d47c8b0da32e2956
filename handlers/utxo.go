package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"runtime"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
)

// utxosByAddress: GET /v1/utxos/address/:address.
func (s *Server) utxosByAddress(c *gin.Context) error {
	db, addr, err := s.chainAddress(c)
	if err != nil {
		return err
	}
	return s.utxoList(c, db, "address", addr.String(), func(ctx context.Context, fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByAddress(ctx, addr, fn)
	})
}

// utxosByStake: GET /v1/utxos/stake/:stakeKey.
func (s *Server) utxosByStake(c *gin.Context) error {
	db, key, err := s.chainStakeKey(c)
	if err != nil {
		return err
	}
	return s.utxoList(c, db, "stake", stakeKeyID(key), func(ctx context.Context, fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByStake(ctx, key, fn)
	})
}

// utxosByCredential: GET /v1/utxos/credential/:credential.
func (s *Server) utxosByCredential(c *gin.Context) error {
	db, cred, err := s.chainCredential(c)
	if err != nil {
		return err
	}
	return s.utxoList(c, db, "credential", cred.Hex(), func(ctx context.Context, fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByCredential(ctx, cred, fn)
	})
}

// utxoCacheTTL: how long a UTxO list stays cached under the tip it was
// read at (it cannot change before the tip moves).
const utxoCacheTTL = 2 * time.Minute

// utxoList answers a UTxO list from the answer cached under the chain tip
// when there is one, else from the database, storing it on the way
// (cache.Segments: neither path holds the whole list in memory). A request
// of this instance for a list another is reading follows it, segment by
// segment as they are stored, so a burst of polls for a wallet of
// thousands of outputs after each block costs one listing and each poll
// still has its first bytes within the first segment's time.
func (s *Server) utxoList(c *gin.Context, db *dbsync.DB, kind, id string, each func(context.Context, func([]dbsync.UTxO) error) error) error {
	ctx := db.Pin(c.Request.Context())
	list := func(fn func([]dbsync.UTxO) error) error { return each(ctx, fn) }
	tip, err := db.RecentTip(ctx)
	if err != nil {
		return streamUTxOs(c, list, nil, nil)
	}
	key := db.Network.Name + ":" + tip.BlockHash + ":" + kind + ":" + id
	gz := acceptsGzip(c.GetHeader("Accept-Encoding"))
	c.Header("Vary", "Accept-Encoding")
	for attempt := 0; ; attempt++ {
		if served, err := s.serveCachedUTxOs(c, ctx, key, gz); served {
			return err
		}
		w, f := s.caches.utxos.Produce(ctx, key)
		if f == nil {
			defer w.Close()
			zw, _ := s.caches.utxosGzip.Produce(ctx, key) // no one else produces it: we produce the list
			z := newGzipCopy(zw)
			defer z.Close()
			return streamUTxOs(c, list, w, z)
		}
		if served, err := serveSegments(c, f, false); served {
			return err
		}
		// Its producer gave up before the first segment (its client left).
		// Followers take its place: one produces, the others follow it.
		// Each reading the list itself, a burst of them could not finish
		// within their deadlines on a busy database, and nothing was ever
		// stored (a burst of polls could each wait out their deadline).
		if attempt == maxProducerTakeovers {
			return streamUTxOs(c, list, nil, nil)
		}
	}
}

// serveCachedUTxOs answers a list from the cache (its gzip copy when gz
// and there is one); it reports false, having written nothing, when the
// cache cannot.
func (s *Server) serveCachedUTxOs(c *gin.Context, ctx context.Context, key string, gz bool) (bool, error) {
	r := s.caches.utxos.Open(ctx, key)
	if r == nil {
		return false, nil
	}
	defer r.Close()
	// Only lists in segments have a compressed copy (utxo_gzip.go).
	if gz && r.Segmented() {
		if z := s.caches.utxosGzip.Open(ctx, key); z != nil {
			defer z.Close()
			if served, err := serveSegments(c, z, true); served {
				return true, err
			}
		}
	}
	return serveSegments(c, r, false)
}

// maxProducerTakeovers bounds how often a request waits for a new producer
// of a list before reading it by itself.
const maxProducerTakeovers = 3

// segmentSource is a cached answer being read (cache.Reader) or followed
// while another request stores it (cache.Follower).
type segmentSource interface {
	Next(ctx context.Context) ([]byte, error)
}

// serveSegments writes a cached answer segment by segment (gzipped: its
// compressed copy). It reports false, having written nothing, when the
// first segment cannot be had; a segment missing later cuts the
// connection (as a failed listing does).
func serveSegments(c *gin.Context, r segmentSource, gzipped bool) (served bool, err error) {
	ctx := c.Request.Context()
	first, err := r.Next(ctx)
	if err != nil || first == nil {
		if ctx.Err() != nil {
			return true, context.Cause(ctx)
		}
		return false, nil
	}
	c.Writer.Header().Set("Content-Type", contentType)
	if gzipped {
		c.Writer.Header().Set("Content-Encoding", "gzip")
	}
	if sized, ok := r.(interface{ Size() int64 }); ok && sized.Size() >= 0 {
		// A spooled answer: its length is known, so no chunked framing.
		c.Writer.Header().Set("Content-Length", strconv.FormatInt(sized.Size(), 10))
	}
	c.Writer.WriteHeader(http.StatusOK)
	for b := first; b != nil; {
		if _, err := c.Writer.Write(b); err != nil {
			return true, nil // the client left
		}
		// A reader of a spooled or local answer never blocks between
		// segments while the socket takes them: without yielding it kept
		// its core until preempted, and new requests waited for their
		// first byte (docs/PERFORMANCE.md "Long UTxO lists").
		runtime.Gosched()
		if b, err = r.Next(ctx); err != nil {
			logger(c).Warn("cached UTxO list cut short", slog.String("request_id", requestID(c)), slog.String("error", err.Error()))
			panic(http.ErrAbortHandler)
		}
	}
	return true, nil
}

// streamUTxOs answers {"success":true,"data":[...]} (the bytes ok() would
// write) one chunk of outputs at a time, so a list of tens of thousands
// never sits in memory whole. An error before the first byte is answered as
// usual; after it, the status is already 200, so the connection is aborted:
// a client must not mistake a cut list for a whole one. The bytes also go
// to store (nil: not cached), committed only when the list is whole, and
// compressed to gz (nil: no copy), kept only when the list is in segments.
func streamUTxOs(c *gin.Context, each func(fn func([]dbsync.UTxO) error) error, store *cache.Writer, gz *gzipCopy) error {
	st := utxoStream{c: c, store: store, gz: gz}
	if err := each(st.write); err != nil {
		if !st.started {
			return err
		}
		logger(c).Warn("UTxO list cut short", slog.String("request_id", requestID(c)), slog.String("error", err.Error()))
		panic(http.ErrAbortHandler)
	}
	return st.finish()
}

type utxoStream struct {
	c       *gin.Context
	store   *cache.Writer
	gz      *gzipCopy
	started bool
	items   int
	buf     []byte
}

func (st *utxoStream) write(chunk []dbsync.UTxO) error {
	b := st.buf[:0]
	if !st.started {
		st.started = true
		st.c.Writer.Header().Set("Content-Type", contentType)
		st.c.Writer.WriteHeader(http.StatusOK)
		b = append(b, `{"success":true,"data":[`...)
	}
	for _, u := range chunk {
		if st.items > 0 {
			b = append(b, ',')
		}
		b = appendUTxO(b, u)
		st.items++
	}
	st.buf = b
	st.store.Write(b)
	_, err := st.c.Writer.Write(b)
	st.gz.Write(b) // after the client has the bytes: compressing must not delay them
	return err
}

func (st *utxoStream) finish() error {
	if !st.started {
		okAppended(st.c, func(b []byte) []byte { return append(b, "[]"...) }, nil, nil)
		return nil
	}
	const end = "]}\n"
	st.store.Write([]byte(end))
	st.store.Commit()
	st.gz.Write([]byte(end))
	st.gz.Commit(st.store.Segmented())
	_, err := st.c.Writer.WriteString(end)
	return err
}
