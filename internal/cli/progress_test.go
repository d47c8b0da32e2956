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
	s := newStatusLine(&buf, func() time.Time { return clock })
	s.progress(0, 1000)
	for done := 100; done <= 1000; done += 100 {
		clock = clock.Add(time.Second)
		s.progress(done, 1000)
	}
	s.done()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{
		"seed: 0/1000 transactions (0.0%), 0 tx/s, ETA ?",
		"seed: 500/1000 transactions (50.0%), 100 tx/s, ETA 5s",
		"seed: 1000/1000 transactions (100.0%), 100 tx/s, ETA 0s",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lines:\n%s\nwant:\n%s", buf.String(), strings.Join(want, "\n"))
	}
}

// TestStatusLine: off a terminal, a burst of log lines becomes one line
// (the first) plus the last one when the status line ends.
func TestStatusLine(t *testing.T) {
	var out strings.Builder
	now := time.Unix(0, 0)
	s := newStatusLine(&out, func() time.Time { return now })
	for i := 0; i < 100; i++ {
		s.logf("index %d built", i)
	}
	s.done()
	if got := out.String(); got != "index 0 built\nindex 99 built\n" {
		t.Fatalf("got %q", got)
	}
}
