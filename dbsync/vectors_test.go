package dbsync

import (
	"encoding/json"
	"os"
	"testing"
)

// readVectors decodes testdata/<name> (copies of shared/vectors files).
func readVectors(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
