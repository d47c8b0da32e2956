package answer

import (
	"compress/gzip"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/syncgate/syncgate/cache"
)

// UTxO lists of thousands of outputs run to tens of megabytes of JSON, most
// of it repeated (keys, addresses, transaction and block hashes), and
// many clients polling such a list move more bytes
// than two cores can copy in the time they wait. Clients that accept gzip
// (browsers, Node's fetch and axios, so the SDK) are served a compressed
// copy, made once while the list is produced and cached beside it under
// the same key (utxosgz), so serving it costs no compression. Lists that
// fit in one segment get no copy: they are cheap to send as they are.

// acceptsGzip reports whether an Accept-Encoding header allows gzip: named
// (or x-gzip), or "*", with a quality above zero; an explicit gzip;q=0
// wins over "*".
func acceptsGzip(header string) bool {
	named, star := -1.0, -1.0
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(p, "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil {
					f = 0
				}
				q = f
			}
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip", "x-gzip":
			named = q
		case "*":
			star = q
		}
	}
	if named >= 0 {
		return named > 0
	}
	return star > 0
}

// gzipCopy compresses a list, as it is produced, into its cached copy.
// Compression starts when the list outgrows one segment (list, which is
// being stored beside it): until then the bytes are only held, since a
// shorter list keeps no copy and most lists are a few hundred bytes.
type gzipCopy struct {
	store   *cache.Writer
	list    *cache.Writer
	zw      *gzip.Writer
	pending []byte
}

// Compressors are reused: each holds about a megabyte of tables.
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed) // a valid level: no error
	return zw
}}

// segmentSink lets a gzip.Writer write into a cache.Writer.
type segmentSink struct{ w *cache.Writer }

func (s segmentSink) Write(p []byte) (int, error) {
	s.w.Write(p)
	return len(p), nil
}

// newGzipCopy returns the copy of the list written to list, stored into
// store (nil without one).
func newGzipCopy(store, list *cache.Writer) *gzipCopy {
	if store == nil {
		return nil
	}
	return &gzipCopy{store: store, list: list}
}

func (g *gzipCopy) Write(b []byte) {
	if g == nil || g.store == nil {
		return
	}
	if g.zw == nil {
		if !g.list.Segmented() {
			g.pending = append(g.pending, b...)
			return
		}
		g.start()
	}
	_, _ = g.zw.Write(b) // the sink never fails; a failed store stores nothing
}

// start compresses what was held so far and everything after.
func (g *gzipCopy) start() {
	g.zw = gzipWriters.Get().(*gzip.Writer)
	g.zw.Reset(segmentSink{g.store})
	_, _ = g.zw.Write(g.pending)
	g.pending = nil
}

// Commit ends the stream and makes the copy visible when keep.
func (g *gzipCopy) Commit(keep bool) {
	if g == nil || g.store == nil {
		return
	}
	g.pending = nil
	if !keep {
		g.release()
		return
	}
	if g.zw == nil {
		g.start()
	}
	_ = g.zw.Close()
	g.store.Commit()
	g.release()
}

// Close gives the compressor back and ends the store's turn (an answer not
// committed stays invisible).
func (g *gzipCopy) Close() {
	if g == nil {
		return
	}
	g.release()
	g.store.Close()
}

func (g *gzipCopy) release() {
	if g.zw != nil {
		g.zw.Reset(io.Discard)
		gzipWriters.Put(g.zw)
		g.zw = nil
	}
}
