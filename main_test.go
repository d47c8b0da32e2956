package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The dispatcher: help is printed with exit code 0; an unknown command is
// an error on stderr with the usage and exit code 1.
func TestRunExitCodes(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"help"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "usage: syncgate") {
		t.Errorf("help: exit %d, printed %q", code, out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"frobnicate"}, &out, &errOut); code != 1 || out.Len() != 0 ||
		!strings.HasPrefix(errOut.String(), `syncgate: unknown command "frobnicate"`) || !strings.Contains(errOut.String(), "usage: syncgate") {
		t.Errorf("unknown command: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
