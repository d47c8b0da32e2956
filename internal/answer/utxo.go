package answer

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Request is what a streamed answer needs of its HTTP request.
type Request struct {
	// Ctx is the request's context: when it ends, so does the answer.
	Ctx context.Context
	// W is the response; an answer writes its status, headers and body.
	W http.ResponseWriter
	// AcceptEncoding is the request's Accept-Encoding header.
	AcceptEncoding string
	// CutShort reports a list cut short after its first byte (the
	// connection is then aborted with http.ErrAbortHandler).
	CutShort func(msg string, err error)
}

// UTxOsByAddress answers GET /v1/utxos/address/:address into r.
func (s *Service) UTxOsByAddress(r Request, db *dbsync.DB, addr cardano.Address) error {
	return s.utxoList(r, db, addressSubject(addr), func(ctx context.Context, db *dbsync.DB, fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByAddress(ctx, addr, fn)
	})
}

// UTxOsByStake answers GET /v1/utxos/stake/:stakeKey into r.
func (s *Service) UTxOsByStake(r Request, db *dbsync.DB, key cardano.StakeKey) error {
	return s.utxoList(r, db, stakeSubject(key), func(ctx context.Context, db *dbsync.DB, fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByStake(ctx, key, fn)
	})
}

// UTxOsByCredential answers GET /v1/utxos/credential/:credential into r.
func (s *Service) UTxOsByCredential(r Request, db *dbsync.DB, cred cardano.PaymentCredential) error {
	return s.utxoList(r, db, credentialSubject(cred), func(ctx context.Context, db *dbsync.DB, fn func([]dbsync.UTxO) error) error {
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
//
// An error before the first byte is returned, nothing written; after it
// the status is already 200, so the connection is aborted.
func (s *Service) utxoList(c Request, db *dbsync.DB, about subject, each func(context.Context, *dbsync.DB, func([]dbsync.UTxO) error) error) error {
	ctx := c.Ctx
	db, tip, err := s.readAt(ctx, db)
	list := func(fn func([]dbsync.UTxO) error) error { return each(ctx, db, fn) }
	if err != nil {
		if waitFailed(ctx, err) {
			return err
		}
		return streamUTxOs(c, list, nil, nil, nil)
	}
	key := db.Network.Name + ":" + tip.BlockHash + ":" + about.kind.String() + ":" + about.name
	gz := acceptsGzip(c.AcceptEncoding)
	c.W.Header().Set("Vary", "Accept-Encoding")
	served, keep := s.keptUTxOs(c, db, about)
	if served {
		return nil
	}
	// A list asked for once under this tip (here) is answered, neither
	// looked up nor stored (admission, caches.go); asked for again, it is
	// looked up, else stored, and requests for it meanwhile follow the
	// one storing it.
	if !s.admit.Again("utxos:" + key) {
		return streamUTxOs(c, list, nil, nil, keep)
	}
	for attempt := 0; ; attempt++ {
		if served, err := s.serveCachedUTxOs(c, ctx, key, gz); served {
			return err
		}
		w, f := s.caches.utxos.Produce(ctx, key)
		if f == nil {
			defer w.Close()
			zw, _ := s.caches.utxosGzip.Produce(ctx, key) // no one else produces it: we produce the list
			z := newGzipCopy(zw, w)
			defer z.Close()
			return streamUTxOs(c, list, w, z, keep)
		}
		if served, err := serveSegments(c, f, false); served {
			return err
		}
		// Its producer gave up before the first segment (its client left).
		// Followers take its place: one produces, the others follow it.
		// Each reading the list itself, a burst of them could not finish
		// within their deadlines on a busy database, and nothing was ever
		// stored (a bench warm-up's end left a 6 MB list at 5 s per poll).
		if attempt == maxProducerTakeovers {
			return streamUTxOs(c, list, nil, nil, keep)
		}
	}
}

// serveCachedUTxOs answers a list from the cache (its gzip copy when gz
// and there is one); it reports false, having written nothing, when the
// cache cannot.
func (s *Service) serveCachedUTxOs(c Request, ctx context.Context, key string, gz bool) (bool, error) {
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
func serveSegments(c Request, r segmentSource, gzipped bool) (served bool, err error) {
	ctx := c.Ctx
	first, err := r.Next(ctx)
	if err != nil || first == nil {
		if ctx.Err() != nil {
			return true, context.Cause(ctx)
		}
		return false, nil
	}
	c.W.Header().Set("Content-Type", wire.ContentType)
	if gzipped {
		c.W.Header().Set("Content-Encoding", "gzip")
	}
	if sized, ok := r.(interface{ Size() int64 }); ok && sized.Size() >= 0 {
		// A spooled answer: its length is known, so no chunked framing.
		c.W.Header().Set("Content-Length", strconv.FormatInt(sized.Size(), 10))
	}
	c.W.WriteHeader(http.StatusOK)
	for b := first; b != nil; {
		if _, err := c.W.Write(b); err != nil {
			return true, nil // the client left
		}
		// A reader of a spooled or local answer never blocks between
		// segments while the socket takes them: without yielding it kept
		// its core until preempted, and new requests waited for their
		// first byte (a 41 MB list at c=16: first byte p99 37 → 26 ms,
		// docs/PERFORMANCE.md).
		runtime.Gosched()
		if b, err = r.Next(ctx); err != nil {
			c.CutShort("cached UTxO list cut short", err)
			panic(http.ErrAbortHandler)
		}
	}
	return true, nil
}

// streamUTxOs answers {"success":true,"data":[...]} (the bytes the
// envelope encodes to) one chunk of outputs at a time, so a list of tens of thousands
// never sits in memory whole. An error before the first byte is answered as
// usual; after it, the status is already 200, so the connection is aborted:
// a client must not mistake a cut list for a whole one. The bytes also go
// to store (nil: not cached), committed only when the list is whole, and
// compressed to gz (nil: no copy), kept only when the list is in segments,
// and to keep (nil: not kept across tips), kept only when whole and short.
func streamUTxOs(c Request, each func(fn func([]dbsync.UTxO) error) error, store *cache.Writer, gz *gzipCopy, keep *keptList) error {
	st := utxoStream{c: c, store: store, gz: gz, keep: keep}
	if err := each(st.write); err != nil {
		if !st.started {
			return err
		}
		c.CutShort("UTxO list cut short", err)
		panic(http.ErrAbortHandler)
	}
	return st.finish()
}

type utxoStream struct {
	c       Request
	store   *cache.Writer
	gz      *gzipCopy
	keep    *keptList
	started bool
	items   int
	buf     []byte
}

func (st *utxoStream) write(chunk []dbsync.UTxO) error {
	b := st.buf[:0]
	if !st.started {
		st.started = true
		st.c.W.Header().Set("Content-Type", wire.ContentType)
		st.c.W.WriteHeader(http.StatusOK)
		b = append(b, `{"success":true,"data":[`...)
	}
	for _, u := range chunk {
		if st.items > 0 {
			b = append(b, ',')
		}
		b = wire.AppendUTxO(b, u)
		st.items++
	}
	st.buf = b
	st.store.Write(b)
	st.keep.write(b)
	_, err := st.c.W.Write(b)
	st.gz.Write(b) // after the client has the bytes: compressing must not delay them
	return err
}

func (st *utxoStream) finish() error {
	if !st.started {
		w := st.c.W
		w.Header().Set("Content-Type", wire.ContentType)
		w.WriteHeader(http.StatusOK)
		empty := wire.AppendEnvelope(nil, func(b []byte) []byte { return append(b, "[]"...) }, nil, nil)
		st.keep.write(empty)
		st.keep.commit(st.c.Ctx)
		_, _ = w.Write(empty)
		return nil
	}
	const end = "]}\n"
	st.keep.write([]byte(end))
	st.keep.commit(st.c.Ctx)
	st.store.Write([]byte(end))
	st.store.Commit()
	st.gz.Write([]byte(end))
	st.gz.Commit(st.store.Segmented())
	_, err := io.WriteString(st.c.W, end)
	return err
}
