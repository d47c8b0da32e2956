package wire

import "github.com/syncgate/syncgate/dbsync"

// Value is the spec's value object (OpenAPI "Value") as a response field (the
// balance endpoints); it writes itself with AppendValue.
type Value struct {
	v       dbsync.Value
	grouped bool
}

// ValueOf is v as a response field, its assets grouped by policy or not.
func ValueOf(v dbsync.Value, grouped bool) Value {
	return Value{v: v, grouped: grouped}
}

// MarshalJSON implements json.Marshaler.
func (j Value) MarshalJSON() ([]byte, error) {
	return AppendValue(make([]byte, 0, 32+96*len(j.v.Assets)), j.v, j.grouped), nil
}
