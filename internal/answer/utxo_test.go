package answer

import (
	"bytes"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// serveList answers addr's UTxO list from s as a request would get it.
func serveList(t *testing.T, s *Service, db *dbsync.DB, addr cardano.Address) []byte {
	w := httptest.NewRecorder()
	r := Request{Ctx: t.Context(), W: w, CutShort: func(msg string, err error) { t.Errorf("%s: %v", msg, err) }}
	if err := s.UTxOsByAddress(r, db, addr); err != nil {
		t.Errorf("UTxO list: %v", err)
	}
	return w.Body.Bytes()
}

// Requests following a list's producer that gives up (its client left)
// take its place: one of them produces and stores the list, the others
// follow it, and every one gets the whole list. (Each reading it by
// itself, nothing was stored, so a burst of polls never met the cache.)
func TestUTxOFollowersTakeOverFromAProducerThatLeft(t *testing.T) {
	db, m := seededChain(t)
	rc := testdb.Redis(t)
	s, plain := New(Options{Redis: rc}), New(Options{})
	addr := mustParse(t, m.ByronAddress.Address)
	want := serveList(t, plain, db, addr)
	tip, err := db.RecentTip(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	key := "mainnet:" + tip.BlockHash + ":address:" + addr.String()
	rc.Redis().Del(t.Context(), rc.Key("utxos", key))
	producer, _ := s.caches.utxos.Produce(t.Context(), key) // a request producing the list
	var wg sync.WaitGroup
	bodies := make([][]byte, 6)
	for i := range bodies {
		wg.Go(func() { bodies[i] = serveList(t, s, db, addr) })
	}
	time.Sleep(200 * time.Millisecond) // they are following it now
	producer.Close()                   // its client left before the first segment
	wg.Wait()
	for i, b := range bodies {
		if !bytes.Equal(b, want) {
			t.Fatalf("follower %d: %d bytes, want %d", i, len(b), len(want))
		}
	}
	if n, err := rc.Redis().Exists(t.Context(), rc.Key("utxos", key)).Result(); err != nil || n != 1 {
		t.Fatalf("the list was not stored after its producer left (%d, %v)", n, err)
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "x-gzip": true, "gzip, deflate, br": true, "deflate, gzip;q=0.5": true,
		"gzip;q=0": false, "gzip; q=0.0": false, "*": true, "*;q=0": false, "gzip;q=0, *": false, "br, *;q=0.1": true,
		"identity": false, "gzip;q=bogus": false, " gzip ; q=1 ": true,
	} {
		if got := acceptsGzip(h); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}
