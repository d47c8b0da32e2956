package handlers

import (
	"bytes"
	"encoding/json"
	"testing"
)

// decodeStrict decodes b into v, a type mirroring a shape the client SDK
// declares, refusing fields v does not name: a field renamed or added on
// one side only fails the test.
func decodeStrict(t *testing.T, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decode %.300s as %T: %v", b, v, err)
	}
}
