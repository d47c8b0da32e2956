package jsclients

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// DefaultTimeout bounds a script whose context has no earlier deadline.
// Importing Lucid or Mesh alone takes 3-5 s on an idle two-core machine,
// and was seen taking over a minute on a shared, loaded one.
const DefaultTimeout = 5 * time.Minute

// stderrLimit is how much of a failed script's stderr its error keeps
// (the end: where node prints the exception).
const stderrLimit = 16 << 10

// Run runs a node script with the pinned packages resolvable from it and
// returns what it printed on stdout. script is either a file (a name
// ending in .js, .mjs or .cjs, relative to the test's working directory,
// typically testdata/x.mjs of the calling package) or the text of an ES
// module. env is added to the test's environment (BF_URL, BF_KEY…).
//
// Bare imports resolve from Dir()'s node_modules wherever the script
// lives: `import` through a resolve hook (register.mjs, hooks.mjs here),
// `require` through NODE_PATH. The script runs in the test's working
// directory and is killed at ctx's deadline or after DefaultTimeout. A
// script that exits non-zero, or is killed, returns an error carrying its
// stderr; the stdout it printed is returned beside it.
func Run(t testing.TB, ctx context.Context, script string, env map[string]string) ([]byte, error) {
	t.Helper()
	dir := Require(t)
	path, err := scriptFile(t, script)
	if err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	register := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "register.mjs")}).String()
	cmd := exec.CommandContext(ctx, "node", "--import", register, path)
	cmd.Env = scriptEnv(dir, env)
	cmd.WaitDelay = 5 * time.Second // output pipes held open by a child must not hang the test
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	name := script
	if path != script {
		name = "inline script"
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("%w after %s", ctx.Err(), time.Since(start).Round(time.Millisecond))
	}
	return stdout.Bytes(), fmt.Errorf("node %s: %v\nstderr:\n%s", name, err, tail(stderr.Bytes(), stderrLimit))
}

// scriptFile returns the file to run: script itself when it names one,
// else script's text written to a module in a temporary folder.
func scriptFile(t testing.TB, script string) (string, error) {
	if !strings.ContainsAny(script, "\n;") {
		switch filepath.Ext(script) {
		case ".js", ".mjs", ".cjs":
			abs, err := filepath.Abs(script)
			if err != nil {
				return "", err
			}
			if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
				return "", fmt.Errorf("jsclients: script %s: not a file (%v)", script, err)
			}
			return abs, nil
		}
	}
	path := filepath.Join(t.TempDir(), "inline.mjs")
	return path, os.WriteFile(path, []byte(script), 0o644)
}

// scriptEnv is the test's environment with NODE_PATH leading to the
// installed packages (for require) and env on top, in a stable order.
func scriptEnv(dir string, env map[string]string) []string {
	nodePath := filepath.Join(dir, "node_modules")
	if prev := os.Getenv("NODE_PATH"); prev != "" {
		nodePath += string(os.PathListSeparator) + prev
	}
	out := append(os.Environ(), "NODE_PATH="+nodePath)
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+env[k])
	}
	return out
}

// tail is the last n bytes of b, marked when cut.
func tail(b []byte, n int) []byte {
	b = bytes.TrimSpace(b)
	if len(b) <= n {
		return b
	}
	return append([]byte("…"), b[len(b)-n:]...)
}
