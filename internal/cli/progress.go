package cli

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress reports a long command's advance: on a terminal one line
// rewritten in place at most 10 times a second, otherwise (a log file, CI)
// a full line every few seconds.
type progress struct {
	out      io.Writer
	what     string
	now      func() time.Time
	start    time.Time
	last     time.Time
	terminal bool
	every    time.Duration
}

func newProgress(out io.Writer, what string, now func() time.Time) *progress {
	p := &progress{out: out, what: what, now: now, start: now(), every: 5 * time.Second}
	p.last = p.start
	if f, ok := out.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal, p.every = true, 100*time.Millisecond
		}
	}
	return p
}

// report is the chaingen.Options.Progress callback.
func (p *progress) report(done, total int) {
	t := p.now()
	if done < total && t.Sub(p.last) < p.every {
		return
	}
	p.last = t
	elapsed := t.Sub(p.start)
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
	line := fmt.Sprintf("%s: %d/%d transactions (%.1f%%), %.0f tx/s, ETA %s", p.what, done, total, pct, rate, eta)
	if p.terminal {
		end := ""
		if done >= total {
			end = "\n"
		}
		fmt.Fprintf(p.out, "\r\033[K%s%s", line, end)
		return
	}
	fmt.Fprintln(p.out, line)
}

// statusLine shows a long command's log lines as one line rewritten in
// place on a terminal, so a banner printed afterwards is not buried under
// them; elsewhere (a log file, CI) it keeps a line every few seconds and
// the last one.
type statusLine struct {
	out      io.Writer
	terminal bool
	now      func() time.Time
	last     time.Time
	// lastProgress throttles progress lines to ten a second.
	lastProgress time.Time
	pending      string
	shown        bool
}

func newStatusLine(out io.Writer, now func() time.Time) *statusLine {
	s := &statusLine{out: out, now: now}
	if f, ok := out.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			s.terminal = true
		}
	}
	return s
}

// logf is a chaingen Logf: the line replaces the previous one.
func (s *statusLine) logf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if s.terminal {
		fmt.Fprintf(s.out, "\r\033[K%s", line)
		s.shown = true
		return
	}
	if t := s.now(); t.Sub(s.last) >= 5*time.Second {
		s.last = t
		fmt.Fprintln(s.out, line)
		s.pending = ""
		return
	}
	s.pending = line
}

// progress is a chaingen Progress callback on the same line.
func (s *statusLine) progress(done, total int) {
	t := s.now()
	if done < total && (!s.terminal || t.Sub(s.lastProgress) < 100*time.Millisecond) {
		return
	}
	s.lastProgress = t
	s.logf("seeding: %d/%d transactions", done, total)
}

// done ends the line (and prints the last one it held back).
func (s *statusLine) done() {
	switch {
	case s.terminal && s.shown:
		fmt.Fprintln(s.out)
	case !s.terminal && s.pending != "":
		fmt.Fprintln(s.out, s.pending)
	}
	s.shown, s.pending = false, ""
}
