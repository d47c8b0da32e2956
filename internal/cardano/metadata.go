package cardano

import (
	"bytes"
	"encoding/hex"
	"encoding/json"

	"strings"
	"unicode/utf8"
)

// AssetMetadata is the metadata object (OpenAPI schema AssetMetadata). Name is always
// present; the other fields appear when the source carries them. Decimals
// is set (default 0) for cip68 and registry metadata and never for cip25.
type AssetMetadata struct {
	Name        string  `json:"name"`
	Ticker      *string `json:"ticker,omitempty"`
	Description *string `json:"description,omitempty"`
	Decimals    *int64  `json:"decimals,omitempty"`
	Image       *string `json:"image,omitempty"`
	URL         *string `json:"url,omitempty"`
	Logo        *string `json:"logo,omitempty"`
}

// maxDecimals bounds a credible decimals value; anything else is ignored
// and the default (0) is used.
const maxDecimals = 255

// decodeJSONAny decodes JSON keeping numbers exact (big integers appear in
// datums and metadata).
func decodeJSONAny(raw []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// ---- CIP-68: db-sync datum.value, ScriptDataJsonDetailedSchema ----

// plutusPair is one entry of a Plutus map.
type plutusPair struct{ k, v any }

// plutusMap returns the entries of {"map":[{"k":…,"v":…},…]}.
func plutusMap(v any) ([]plutusPair, bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	entries, ok := obj["map"].([]any)
	if !ok {
		return nil, false
	}
	pairs := make([]plutusPair, 0, len(entries))
	for _, e := range entries {
		kv, ok := e.(map[string]any)
		if !ok {
			continue
		}
		pairs = append(pairs, plutusPair{k: kv["k"], v: kv["v"]})
	}
	return pairs, true
}

// plutusBytes returns the bytes of {"bytes":"<hex>"}, or the concatenation
// of a {"list":[{"bytes":…},…]} of chunks (long strings are split into
// chunks of at most 64 bytes on chain).
func plutusBytes(v any) ([]byte, bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	if h, ok := obj["bytes"].(string); ok {
		b, err := hex.DecodeString(h)
		return b, err == nil
	}
	list, ok := obj["list"].([]any)
	if !ok || len(list) == 0 {
		return nil, false
	}
	var out []byte
	for _, item := range list {
		chunk, ok := plutusBytes(item)
		if !ok {
			return nil, false
		}
		out = append(out, chunk...)
	}
	return out, true
}

// plutusInt returns the integer of {"int":n}, when it fits in an int64.
func plutusInt(v any) (int64, bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		return 0, false
	}
	n, ok := obj["int"].(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// plutusText returns a bytes (or chunked bytes) value as text when it is
// valid UTF-8.
func plutusText(v any) (string, bool) {
	b, ok := plutusBytes(v)
	if !ok || !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}

// DecodeCIP68 reads the metadata of a CIP-68 reference datum given as
// db-sync's datum.value JSON. The datum must be constructor 0 whose first
// field is the metadata map and whose second is the version integer (any
// value is accepted: versions 0 and 100 exist on mainnet); the "extra"
// third field is optional. Keys are UTF-8 bytes; known text fields are
// decoded from (possibly chunked) bytes, non-UTF-8 values are ignored, and
// property values of any other shape (constructors, lists, maps, big
// integers) are skipped. A version-4 style nested "721" map is followed.
// A datum of any other shape, or one without a text name, yields ok=false.
// It never panics.
func DecodeCIP68(datum []byte, asset AssetID) (*AssetMetadata, bool) {
	v, ok := decodeJSONAny(datum)
	if !ok {
		return nil, false
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	if c, ok := obj["constructor"].(json.Number); !ok || c.String() != "0" {
		return nil, false
	}
	fields, ok := obj["fields"].([]any)
	if !ok || len(fields) < 2 {
		return nil, false
	}
	version, ok := fields[1].(map[string]any)
	if !ok {
		return nil, false
	}
	if _, ok := version["int"].(json.Number); !ok {
		return nil, false
	}
	pairs, ok := plutusMap(fields[0])
	if !ok {
		return nil, false
	}
	props := map[string]any{}
	for _, p := range pairs {
		if k, ok := plutusText(p.k); ok {
			if _, dup := props[k]; !dup {
				props[k] = p.v
			}
		}
	}
	if nested, ok := props["721"]; ok {
		if inner, ok := cip68Nested(nested, asset); ok {
			props = inner
		}
	}
	nameV, ok := props["name"]
	if !ok {
		return nil, false
	}
	name, ok := plutusText(nameV)
	if !ok {
		return nil, false
	}
	md := &AssetMetadata{Name: name}
	text := func(key string) *string {
		if v, ok := props[key]; ok {
			if s, ok := plutusText(v); ok && s != "" {
				return &s
			}
		}
		return nil
	}
	md.Description = text("description")
	md.Ticker = text("ticker")
	md.Image = text("image")
	if md.URL = text("url"); md.URL == nil {
		md.URL = text("website")
	}
	var decimals int64
	if v, ok := props["decimals"]; ok {
		if d, ok := plutusInt(v); ok && d >= 0 && d <= maxDecimals {
			decimals = d
		}
	}
	md.Decimals = &decimals
	return md, true
}

// cip68Nested follows {"721": {policy: {name without label: metadata}}}
// (CIP-68 version 4); the policy level may be absent.
func cip68Nested(v any, asset AssetID) (map[string]any, bool) {
	suffix := asset.Name
	if len(suffix) >= 4 {
		suffix = suffix[4:]
	}
	find := func(v any, key []byte) (any, bool) {
		pairs, ok := plutusMap(v)
		if !ok {
			return nil, false
		}
		for _, p := range pairs {
			if b, ok := plutusBytes(p.k); ok && bytes.Equal(b, key) {
				return p.v, true
			}
		}
		return nil, false
	}
	level := v
	if byPolicy, ok := find(v, asset.Policy[:]); ok {
		level = byPolicy
	}
	md, ok := find(level, suffix)
	if !ok {
		return nil, false
	}
	pairs, ok := plutusMap(md)
	if !ok {
		return nil, false
	}
	props := map[string]any{}
	for _, p := range pairs {
		if k, ok := plutusText(p.k); ok {
			if _, dup := props[k]; !dup {
				props[k] = p.v
			}
		}
	}
	return props, true
}

// ---- CIP-25: db-sync tx_metadata.json under label 721 ----

// DecodeCIP25 reads the metadata of asset from the label-721 JSON of its
// latest minting transaction. Version 2 (`"version": 2`) keys are bytes,
// which db-sync renders as "0x<hex>"; version 1 keys are the policy id in
// hex and the asset name as UTF-8 text. Both spellings are tried, the
// version's own first, and then the hex asset name as a text key (some
// minters write it so). The entry must be an object with a text name;
// string fields may be arrays of chunks, which are joined.
func DecodeCIP25(raw []byte, asset AssetID) (*AssetMetadata, bool) {
	v, ok := decodeJSONAny(raw)
	if !ok {
		return nil, false
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	policyHex, nameHex := asset.PolicyHex(), asset.NameHex()
	type keys struct{ policy, name string }
	var tries []keys
	v2 := keys{"0x" + policyHex, "0x" + nameHex}
	if cip25Version(root["version"]) == 2 {
		tries = append(tries, v2)
	}
	if utf8.Valid(asset.Name) {
		tries = append(tries, keys{policyHex, string(asset.Name)})
	}
	tries = append(tries, keys{policyHex, nameHex}, v2)
	for _, k := range tries {
		byPolicy, ok := lookupFold(root, k.policy).(map[string]any)
		if !ok {
			continue
		}
		entry, ok := byPolicy[k.name].(map[string]any)
		if !ok {
			continue
		}
		return cip25Entry(entry)
	}
	return nil, false
}

// cip25Version reads "version" as written (number or string); 0 when absent.
func cip25Version(v any) int {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
	case string:
		if x == "2" || x == "2.0" {
			return 2
		}
	}
	return 0
}

// lookupFold finds key in m exactly, else case-insensitively (policy ids
// are hex; minters occasionally write upper case).
func lookupFold(m map[string]any, key string) any {
	if v, ok := m[key]; ok {
		return v
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v
		}
	}
	return nil
}

func cip25Entry(entry map[string]any) (*AssetMetadata, bool) {
	name, ok := chunkedString(entry["name"])
	if !ok {
		return nil, false
	}
	md := &AssetMetadata{Name: name}
	text := func(key string) *string {
		if s, ok := chunkedString(entry[key]); ok && s != "" {
			return &s
		}
		return nil
	}
	md.Description = text("description")
	md.Ticker = text("ticker")
	md.Image = text("image")
	if md.URL = text("url"); md.URL == nil {
		md.URL = text("website")
	}
	return md, true
}

// chunkedString accepts a string or an array of strings (joined).
func chunkedString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []any:
		if len(x) == 0 {
			return "", false
		}
		var sb strings.Builder
		for _, item := range x {
			s, ok := item.(string)
			if !ok {
				return "", false
			}
			sb.WriteString(s)
		}
		return sb.String(), true
	}
	return "", false
}
