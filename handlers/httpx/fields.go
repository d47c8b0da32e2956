package httpx

import (
	"encoding/json"
	"slices"
)

// OnlyFields refuses a JSON body with fields other than allowed, naming
// them (sorted, each cut at 64 bytes, at most ten), so a misspelt field is
// never taken as "not supplied", which would answer 200 and change
// nothing, or fall back to a default.
func OnlyFields(obj map[string]json.RawMessage, allowed ...string) error {
	var unknown []string
	for k := range obj {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	for i, k := range unknown {
		if len(k) > 64 {
			unknown[i] = k[:64] + "…"
		}
	}
	if len(unknown) > 10 {
		unknown = append(unknown[:10], "…")
	}
	return ErrUnknownFields(unknown, allowed)
}
