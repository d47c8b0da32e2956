package delivery

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/events"
)

// BenchmarkThroughput is one instance pushing b.N decided events to a fast
// local receiver (run with a fixed count, e.g. -benchtime=20000x; the
// events/s figure goes in docs/PERFORMANCE.md, nothing is asserted).
func BenchmarkThroughput(b *testing.B) {
	e := newEnv(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	hook := e.webhook(b, srv.URL, randomKey(b))
	s := e.service(b, Options{AllowPrivate: true}, false)
	for left := b.N; left > 0; left -= 1000 {
		e.decide(b, hook, min(left, 1000))
	}
	b.ResetTimer()
	start := time.Now()
	if err := s.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer s.Stop(context.Background()) //nolint:errcheck
	for {
		var n int
		if err := e.db.Get(&n, `SELECT count(*) FROM syncgate.webhook_deliveries WHERE status = $1`, events.DeliverySucceeded); err != nil {
			b.Fatal(err)
		}
		if n == b.N {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
}
