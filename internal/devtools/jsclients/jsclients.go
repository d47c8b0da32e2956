// Package jsclients gives tests the JavaScript clients of Blockfrost's API
// (blockfrost-js, Lucid Evolution, Mesh) and Blockfrost's OpenAPI
// document, as pinned npm packages (package.json, package-lock.json in
// this folder), and runs node scripts that use them. Imported only by
// tests and tools. The packages are installed by install.sh here (npm ci
// into node_modules, skipped when installed from the same lock), which
// `.ci/services --browser` (make test) runs; a test that finds them
// missing runs it itself. Under `go test -short` every helper skips the
// test; otherwise a package that cannot be installed fails it, it never
// skips.
package jsclients

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// shortReason is the skip message under -short: it says how to run the test.
const shortReason = "needs node and the pinned npm packages (internal/devtools/jsclients); runs without -short (make test)"

// Dir is the folder holding package.json, install.sh and, once
// installed, node_modules: this source file's folder, or, in a binary
// built without its source paths (-trimpath), the folder below the
// module root that holds the working directory.
func Dir() string {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		return filepath.Dir(file)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "internal/devtools/jsclients"
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, "internal", "devtools", "jsclients")
		}
		if filepath.Dir(d) == d {
			return filepath.Join(wd, "internal", "devtools", "jsclients")
		}
	}
}

// Require skips the test under -short; otherwise it makes sure the pinned
// packages are installed (running install.sh once per test binary: a
// no-op when they are) and returns Dir. A machine where they cannot be
// installed fails the test with install.sh's output.
func Require(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip(shortReason)
	}
	if err := installOnce(); err != nil {
		t.Fatalf("jsclients: %v", err)
	}
	return Dir()
}

// Package is the installed folder of one npm package of the lock (such as
// "@blockfrost/openapi"), after Require.
func Package(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(Require(t), "node_modules", filepath.FromSlash(name))
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		t.Fatalf("jsclients: %s is not installed (is it in package.json?): %v", name, err)
	}
	return dir
}

var (
	install    sync.Once
	installErr error
)

// installTimeout bounds install.sh: a cold npm ci took 45-80 s on the
// shared two-core machine; apt installing Node.js adds a minute.
const installTimeout = 10 * time.Minute

func installOnce() error {
	install.Do(func() {
		if _, err := exec.LookPath("bash"); err != nil {
			installErr = errors.New("bash not found")
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
		defer cancel()
		script := filepath.Join(Dir(), "install.sh")
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, "bash", script)
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			installErr = fmt.Errorf("%s: %v (run it by hand to see why; it needs node and npm, or root to apt-get install them, and the npm registry)\n%s",
				script, err, out.Bytes())
			return
		}
		if _, err := exec.LookPath("node"); err != nil {
			installErr = fmt.Errorf("node is not on PATH after %s: %v", script, err)
		}
	})
	return installErr
}
