package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// statusLine shows a long command's log and progress lines as one line
// rewritten in place on a terminal (at most ten times a second), so that
// what is printed afterwards, a banner say, is not buried under them.
// Elsewhere (a log file, CI) it keeps a line every few seconds and the
// last one.
type statusLine struct {
	// mu: the generator logs and reports progress from several goroutines.
	mu       sync.Mutex
	out      io.Writer
	terminal bool
	now      func() time.Time
	every    time.Duration
	last     time.Time
	pending  string
	shown    bool
	// start is when the first progress report came (rate and ETA).
	start time.Time
}

func newStatusLine(out io.Writer, now func() time.Time) *statusLine {
	s := &statusLine{out: out, now: now, every: 5 * time.Second}
	if f, ok := out.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			s.terminal, s.every = true, 100*time.Millisecond
		}
	}
	return s
}

// logf is a chaingen Logf: the line replaces the previous one.
func (s *statusLine) logf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.show(line, false)
}

// show writes or holds back a line; s.mu is held.
func (s *statusLine) show(line string, force bool) {
	t := s.now()
	if !force && t.Sub(s.last) < s.every {
		s.pending = line
		return
	}
	s.last, s.pending = t, ""
	if s.terminal {
		fmt.Fprintf(s.out, "\r\033[K%s", line)
		s.shown = true
		return
	}
	fmt.Fprintln(s.out, line)
}

// progress is a chaingen Progress callback: count, percent, rate and ETA,
// always shown when done.
func (s *statusLine) progress(done, total int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.now()
	if s.start.IsZero() {
		s.start = t
	}
	elapsed := t.Sub(s.start)
	rate := 0.0
	if elapsed > 0 {
		rate = float64(done) / elapsed.Seconds()
	}
	pct := 100.0
	if total > 0 {
		pct = 100 * float64(done) / float64(total)
	}
	eta := "?"
	if rate > 0 && done <= total {
		eta = time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	s.show(fmt.Sprintf("seed: %d/%d transactions (%.1f%%), %.0f tx/s, ETA %s", done, total, pct, rate, eta), done >= total)
}

// done ends the line (and prints the last one it held back).
func (s *statusLine) done() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending != "" {
		s.show(s.pending, true)
	}
	if s.terminal && s.shown {
		fmt.Fprintln(s.out)
	}
	s.shown = false
}
