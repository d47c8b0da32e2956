package answer

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/platform/bounded"
	"github.com/syncgate/syncgate/internal/service/touched"
)

// keptUTxOMaxBytes bounds the UTxO lists kept across tips: the short lists
// of ordinary addresses, which a custodian polls by the ten thousand.
// Longer ones stay in the segments cached under the tip (a whale's list is
// touched by nearly every block anyway).
const keptUTxOMaxBytes = 64 << 10

// keptUTxOs answers the UTxO list of an address, payment credential or
// stake key from the one kept for it while no block since the one it was
// read at paid to or spent from it (kept.go); served says it wrote the
// answer. Otherwise it returns where a
// list read now is kept (nil: not kept, as for a first ask, a list found
// too long, or a tracker that does not hold the request's tip), with the
// request's tip: read before the statement, so a statement that saw a
// later block saw the same outputs unless a block between touched the
// address, which the tracker then reports.
func (s *Service) keptUTxOs(c Request, db *dbsync.DB, about subject) (served bool, keep *keptList) {
	w, tracked := s.keptWayOf(c.Ctx, db)
	if !tracked {
		return false, nil
	}
	key := w.pinned.Network.Name + ":" + about.kind.String() + ":" + about.name
	if _, long := s.longLists.Get(key); long {
		return false, nil
	}
	_, body, hit, again := w.lookup(c.Ctx, s.caches.utxosKept, key, false, func(at touched.Point) bool {
		return w.untouched(about, at)
	})
	if hit {
		h := c.W.Header()
		h.Set("Content-Type", wire.ContentType)
		h.Set("Content-Length", strconv.Itoa(len(body)))
		c.W.WriteHeader(http.StatusOK)
		_, _ = c.W.Write(body)
		return true, nil
	}
	if !again {
		return false, nil
	}
	return false, &keptList{
		put: func(ctx context.Context, body []byte) {
			s.caches.utxosKept.Put(ctx, key, keptRecord(w.now, body), utxoKeptTTL)
		},
		tooLong: func() { s.longLists.Set(key, time.Now(), len(key)+48) },
	}
}

// longListsFor: how long a list found too long is not looked up among the
// kept ones (it may shrink: a wallet swept clean).
const longListsFor = 10 * time.Minute

func newLongLists() *bounded.Map[string, time.Time] {
	return bounded.New[string, time.Time](4<<20, func(at time.Time) bool { return time.Since(at) > longListsFor })
}

// utxoKeptTTL: how long a UTxO list is kept across tips at most (a block
// touching the address ends it sooner).
const utxoKeptTTL = 10 * time.Minute

// keptList collects a streamed list to keep it, giving up past
// keptUTxOMaxBytes. A nil keptList does nothing.
type keptList struct {
	buf     []byte
	over    bool
	put     func(context.Context, []byte)
	tooLong func()
}

func (k *keptList) write(b []byte) {
	if k == nil || k.over {
		return
	}
	if len(k.buf)+len(b) > keptUTxOMaxBytes {
		k.over, k.buf = true, nil
		k.tooLong()
		return
	}
	k.buf = append(k.buf, b...)
}

// commit keeps the whole list.
func (k *keptList) commit(ctx context.Context) {
	if k == nil || k.over {
		return
	}
	k.put(ctx, k.buf)
}
