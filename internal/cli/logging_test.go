package cli

import (
	"strings"
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// serve's log holds info lines briefly but writes a warning at once, with
// the lines before it, in order; flush writes the rest. Loggers derived
// with attributes keep the behaviour.
func TestServiceLoggerWritesWarningsAtOnce(t *testing.T) {
	out := &testdb.LogBuffer{}
	log, flush := newServiceLogger(out, "info")
	log.Info("first")
	if got := out.String(); got != "" {
		t.Fatalf("an info line was written at once: %q", got)
	}
	log.With("request_id", "r1").Warn("second")
	got := out.String()
	if i, j := strings.Index(got, `"msg":"first"`), strings.Index(got, `"msg":"second"`); i < 0 || j < i || !strings.Contains(got, `"request_id":"r1"`) {
		t.Fatalf("after a warning: %q", got)
	}
	log.Info("third")
	flush()
	if !strings.Contains(out.String(), `"msg":"third"`) {
		t.Fatalf("flush left a line held: %q", out.String())
	}
}
