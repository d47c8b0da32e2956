package handlers

import (
	"context"
	"encoding/hex"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/node"
)

// BenchmarkTxStatus is GET /v1/tx/status at 16 concurrent clients over a
// mix of a transaction in a block, one in the mempool, a rejected one and
// unknown hashes, all served by one instance (db-sync, the admin database
// and the mempool asked at once per request). It reports the latency
// percentiles of the requests. The mempool is the fake node's
// LocalTxMonitor read as serve reads it (one snapshot shared for a second).
func BenchmarkTxStatus(b *testing.B) {
	e := newStatusEnv(b, time.Second)
	e.mempoolOpts = node.MempoolOptions{}
	e.srv = e.instance(e.redis)
	ctx := context.Background()
	inBlock := vectorTx(b, "pallas-shelley1")
	inPool := vectorTx(b, "pallas-shelley3")
	for _, tx := range []string{hex.EncodeToString(inBlock.CBOR)} {
		if code, sb := e.submit(e.srv, tx, true); code != 200 {
			b.Fatalf("submit: %d %+v", code, sb)
		}
	}
	f := e.follower(20, e.takeMempool)
	if _, err := f.AppendBlock(ctx); err != nil {
		b.Fatal(err)
	}
	if code, sb := e.submit(e.srv, hex.EncodeToString(inPool.CBOR), true); code != 200 {
		b.Fatalf("submit: %d %+v", code, sb)
	}
	var unknown cardano.TxHash
	unknown[0] = 0x5a
	hashes := []string{inBlock.Hash, inPool.Hash, unknown.String()}
	for _, h := range hashes { // warm: each once, checked against the document
		if code, _ := e.status(e.srv, h); code != 200 {
			b.Fatalf("status %s: %d", h, code)
		}
	}
	h := e.srv.Handler()
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism(8) // × GOMAXPROCS 2 = 16 clients on the shared machine
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		i := 0
		for pb.Next() {
			req := httptest.NewRequest("GET", "/v1/tx/status/"+hashes[i%len(hashes)], nil)
			req.Header.Set("Authorization", "Bearer "+mainnetKey)
			w := httptest.NewRecorder()
			start := time.Now()
			h.ServeHTTP(w, req)
			mine = append(mine, time.Since(start))
			if w.Code != 200 {
				b.Errorf("status %d: %s", w.Code, w.Body.String())
				return
			}
			i++
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) == 0 {
		return
	}
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
