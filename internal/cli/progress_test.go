package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressLines: off a terminal, a line at most every 5 s with count,
// percent, rate and ETA, and always the last one.
func TestProgressLines(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := newProgress(&buf, "seed", func() time.Time { return clock })
	for done := 100; done <= 1000; done += 100 {
		clock = clock.Add(time.Second)
		p.report(done, 1000)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{
		"seed: 500/1000 transactions (50.0%), 100 tx/s, ETA 5s",
		"seed: 1000/1000 transactions (100.0%), 100 tx/s, ETA 0s",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lines:\n%s\nwant:\n%s", buf.String(), strings.Join(want, "\n"))
	}
}
