package testdb

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestProbeClosedPort: a service on a closed port is reported at once, and
// the answer is kept for the binary's later tests.
func TestProbeClosedPort(t *testing.T) {
	t.Setenv("TEST_DATABASE_URL", "postgres://postgres:secret@127.0.0.1:1/postgres?sslmode=disable")
	t.Setenv("TEST_REDIS_URL", "redis://127.0.0.1:1/0")
	for name, check := range map[string]func() error{
		"postgres": func() error { var p probe; return p.do(probePostgres) },
		"redis":    func() error { var p probe; return p.do(probeRedis) },
	} {
		start := time.Now()
		if err := check(); err == nil {
			t.Errorf("%s on a closed port answered", name)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: refused connection reported after %v", name, d)
		}
	}
	var p probe
	first := p.do(probeRedis)
	t.Setenv("TEST_REDIS_URL", "redis://127.0.0.1:2/0")
	if again := p.do(func(ctx context.Context) error { return nil }); again != first {
		t.Errorf("probe ran again: %v, then %v", first, again)
	}
	if s := redactURL(ServerURL()); strings.Contains(s, "secret") {
		t.Errorf("password in message: %s", s)
	}
}
