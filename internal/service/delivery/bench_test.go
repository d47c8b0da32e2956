package delivery

import (
	"context"
	"net/http"
	"net/http/httptest"
	"syscall"
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
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	cpu0 := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
	elapsed := time.Since(start)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "events/s")
	// This process's CPU (workers, river, the receiver) per event: with the
	// machine shared, the rate above says little alone.
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		cpu := time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) - cpu0
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/event")
	}
}
