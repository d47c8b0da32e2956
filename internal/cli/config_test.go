package cli

import (
	"testing"

	"github.com/syncgate/syncgate/config"
)

// `syncgate config --markdown` prints the settings table the README
// carries; anything else is a usage error.
func TestConfigCommand(t *testing.T) {
	if out := captureStdout(t, func() error { return Config([]string{"--markdown"}) }); out != config.Markdown() {
		t.Errorf("printed %q", out)
	}
	for _, args := range [][]string{nil, {"--markdown", "extra"}, {"--html"}} {
		if err := Config(args); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
}
