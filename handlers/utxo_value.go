package handlers

import "github.com/syncgate/syncgate/dbsync"

// valueJSON is the value object (OpenAPI schema Value) as a response field (the
// balance endpoints); it writes itself with appendValue.
type valueJSON struct {
	v       dbsync.Value
	grouped bool
}

func valueOf(v dbsync.Value, grouped bool) valueJSON {
	return valueJSON{v: v, grouped: grouped}
}

// MarshalJSON implements json.Marshaler.
func (j valueJSON) MarshalJSON() ([]byte, error) {
	return appendValue(make([]byte, 0, 32+96*len(j.v.Assets)), j.v, j.grouped), nil
}
