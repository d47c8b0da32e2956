package wiretest

import (
	"bytes"
	"encoding/json"
	"testing"
)

// EncodeNoHTML is encoding/json's encoding of v as the service writes it
// (no HTML escaping, trailing newline): the reference bytes.
func EncodeNoHTML(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
