package cli

import "testing"

// needServices skips a test that needs the real PostgreSQL and Redis (or
// starts its own servers) under -short, so `go test -short` runs with no
// service at all.
func needServices(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL and Redis; skipped with -short")
	}
}
