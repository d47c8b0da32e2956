package dbsync_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxPackageLines bounds package dbsync's own code. Past it, a query
// family moves into a subpackage of its own, as dbsync/account did.
const maxPackageLines = 2500

// TestPackageSize fails when dbsync's non-test Go files (this directory
// only: subpackages have their own budgets) hold more than
// maxPackageLines lines.
func TestPackageSize(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	total, counted := 0, 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += bytes.Count(data, []byte("\n"))
		counted++
	}
	if counted == 0 || !slices.Contains(files, "db.go") {
		t.Fatalf("found %d files, no db.go: not run in dbsync/", counted)
	}
	if total > maxPackageLines {
		t.Errorf("package dbsync holds %d non-test lines in %d files, over %d: move a query family into a subpackage", total, counted, maxPackageLines)
	}
}
