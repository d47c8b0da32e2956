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
