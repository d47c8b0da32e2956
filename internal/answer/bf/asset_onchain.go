package bf

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/fxamacker/cbor/v2"

	"github.com/syncgate/syncgate/internal/cardano"
)

// On-chain metadata as Blockfrost's /assets/{asset} renders it (its
// @blockfrost/openapi getOnchainMetadata and validateCIP68Metadata, and
// blockfrost-utils' getMetadataFromOutputDatum): a CIP-68 user token's
// reference datum first, when it passes its standard's schema, else the
// asset's entry under label 721, sent even when it does not pass (then
// with no standard).

// Onchain is an asset's on-chain metadata, its standard and, for CIP-68,
// the datum's third field (CBOR hex).
type Onchain struct {
	Metadata map[string]any
	Standard *string
	Extra    *string
}

// cip68Standard is the CIP-68 token standard of a user token's label.
func cip68Standard(id cardano.AssetID) string {
	switch {
	case len(id.Name) < 4:
		return ""
	case bytes.Equal(id.Name[:4], []byte{0x00, 0x0d, 0xe1, 0x40}):
		return "nft"
	case bytes.Equal(id.Name[:4], []byte{0x00, 0x14, 0xdf, 0x10}):
		return "ft"
	case bytes.Equal(id.Name[:4], []byte{0x00, 0x1b, 0xc2, 0x80}):
		return "rft"
	}
	return ""
}

// propKind is how a known CIP-68 property is converted.
type propKind int

const (
	kindBytes propKind = iota + 1
	kindNumber
	kindFiles
)

// cip68Props are each standard's known properties; others are sent as
// their CBOR in hex.
var cip68Props = map[string]map[string]propKind{
	"ft":  {"name": kindBytes, "description": kindBytes, "ticker": kindBytes, "url": kindBytes, "logo": kindBytes, "decimals": kindNumber},
	"nft": {"name": kindBytes, "image": kindBytes, "mediaType": kindBytes, "description": kindBytes, "files": kindFiles},
	"rft": {"name": kindBytes, "image": kindBytes, "mediaType": kindBytes, "description": kindBytes, "decimals": kindNumber, "files": kindFiles},
}

// fileProps are the known properties of a CIP-68 file entry.
var fileProps = map[string]bool{"name": true, "mediaType": true, "src": true}

// maxSafe is JavaScript's largest exact integer: a CBOR integer beyond it
// is not a number to Blockfrost's decoder.
const maxSafe = 1<<53 - 1

// onchainCIP68 reads a CIP-68 user token's reference datum (CBOR); ok is
// false when it is absent, not CIP-68 metadata, or fails its standard's
// schema.
func onchainCIP68(datum []byte, id cardano.AssetID) (Onchain, bool) {
	standard := cip68Standard(id)
	if datum == nil || standard == "" {
		return Onchain{}, false
	}
	fields, ok := constrFields(datum)
	if !ok || len(fields) < 2 {
		return Onchain{}, false
	}
	var entries map[any]cbor.RawMessage
	if err := cbor.Unmarshal(fields[0], &entries); err != nil {
		return Onchain{}, false
	}
	var version int64
	if err := cbor.Unmarshal(fields[1], &version); err != nil || version < 1 || version > 3 {
		// Blockfrost accepts 0 to 3, but names only CIP68v1–v3.
		return Onchain{}, false
	}
	props := cip68Props[standard]
	md := make(map[string]any, len(entries))
	for k, raw := range entries {
		key, ok := mapKey(k)
		if !ok {
			continue
		}
		md[key] = cip68Value(raw, props[key])
	}
	if !validCIP68(md, standard) {
		return Onchain{}, false
	}
	out := Onchain{Metadata: md, Standard: ptr("CIP68v" + strconv.FormatInt(version, 10))}
	if len(fields) > 2 {
		out.Extra = ptr(hex.EncodeToString(fields[2]))
	}
	return out, true
}

// constrFields returns the fields of a Plutus constructor (any
// alternative: Blockfrost does not check it).
func constrFields(datum []byte) ([]cbor.RawMessage, bool) {
	var tag cbor.RawTag
	if err := cbor.Unmarshal(datum, &tag); err != nil {
		return nil, false
	}
	var fields []cbor.RawMessage
	switch n := tag.Number; {
	case n >= 121 && n <= 127, n >= 1280 && n <= 1400:
		if err := cbor.Unmarshal(tag.Content, &fields); err != nil {
			return nil, false
		}
	case n == 102:
		var general []cbor.RawMessage
		if err := cbor.Unmarshal(tag.Content, &general); err != nil || len(general) != 2 {
			return nil, false
		}
		if err := cbor.Unmarshal(general[1], &fields); err != nil {
			return nil, false
		}
	default:
		return nil, false
	}
	return fields, true
}

// mapKey is a datum map key as Blockfrost names it: bytes as UTF-8 text
// when valid, else hex; a text or an integer as written.
func mapKey(k any) (string, bool) {
	switch v := k.(type) {
	case cbor.ByteString:
		return utf8OrHex([]byte(v)), true
	case string:
		return v, true
	case uint64:
		return strconv.FormatUint(v, 10), true
	case int64:
		return strconv.FormatInt(v, 10), true
	}
	return "", false
}

func utf8OrHex(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return hex.EncodeToString(b)
}

// cip68Value converts a known property as its kind says, falling back to
// the value's CBOR in hex (an unknown property, or one of another shape).
func cip68Value(raw cbor.RawMessage, kind propKind) any {
	switch kind {
	case kindBytes:
		var b []byte
		if err := cbor.Unmarshal(raw, &b); err == nil && isBytes(raw) {
			return utf8OrHex(b)
		}
	case kindNumber:
		if n, ok := safeInt(raw); ok {
			return n
		}
	case kindFiles:
		if files, ok := cip68Files(raw); ok {
			return files
		}
	}
	return hex.EncodeToString(raw)
}

// isBytes reports whether raw is a CBOR byte string (major type 2).
func isBytes(raw cbor.RawMessage) bool { return len(raw) > 0 && raw[0]>>5 == 2 }

// safeInt reads a CBOR integer JavaScript holds exactly.
func safeInt(raw cbor.RawMessage) (int64, bool) {
	if len(raw) == 0 || raw[0]>>5 > 1 {
		return 0, false
	}
	var n big.Int
	if err := cbor.Unmarshal(raw, &n); err != nil || !n.IsInt64() {
		return 0, false
	}
	v := n.Int64()
	return v, v >= -maxSafe && v <= maxSafe
}

// cip68Files converts a files list: every entry a map whose every
// property is a known one of its kind (bytes), else the whole list is
// sent as CBOR (Blockfrost's rule).
func cip68Files(raw cbor.RawMessage) ([]any, bool) {
	var items []cbor.RawMessage
	if err := cbor.Unmarshal(raw, &items); err != nil || len(raw) == 0 || raw[0]>>5 != 4 {
		return nil, false
	}
	out := make([]any, 0, len(items))
	for _, item := range items {
		var entries map[any]cbor.RawMessage
		if err := cbor.Unmarshal(item, &entries); err != nil {
			return nil, false
		}
		file := make(map[string]any, len(entries))
		for k, v := range entries {
			key, ok := mapKey(k)
			var b []byte
			if !ok || !fileProps[key] || !isBytes(v) || cbor.Unmarshal(v, &b) != nil {
				return nil, false
			}
			file[key] = utf8OrHex(b)
		}
		out = append(out, file)
	}
	return out, true
}

// onchainCIP25 reads the asset's entry of the label-721 metadata (db-sync's
// JSON, and the CBOR of {721: …} that says whether a version-2 entry's
// keys are bytes).
func onchainCIP25(jsonText *string, cborMap []byte, id cardano.AssetID) Onchain {
	if jsonText == nil || cborMap == nil {
		return Onchain{}
	}
	var root map[string]any
	dec := json.NewDecoder(bytes.NewReader([]byte(*jsonText)))
	dec.UseNumber()
	if dec.Decode(&root) != nil {
		return Onchain{}
	}
	policy, nameHex := id.PolicyHex(), id.NameHex()
	nameText := string(bytes.ToValidUTF8(id.Name, []byte("\uFFFD")))
	entry := func(policyKey, nameKey string) (any, bool) {
		byPolicy, ok := root[policyKey].(map[string]any)
		if !ok {
			return nil, false
		}
		v, ok := byPolicy[nameKey]
		return v, ok
	}
	var found any
	var valid bool
	switch cip25Version(root["version"]) {
	case 1:
		if v, ok := entry(policy, nameText); ok {
			found, valid = v, true
		} else if v, ok := entry(policy, nameHex); ok && truthy(v) {
			found, valid = v, true
		}
	case 2:
		if v, ok := entry("0x"+policy, "0x"+nameHex); ok && truthy(v) && bytesKeyed(cborMap, id) {
			found, valid = v, true
		} else if v, ok := entry(policy, nameText); ok && truthy(v) {
			found = v // text keys under version 2: sent, but no standard
		}
	}
	md, isObject := found.(map[string]any)
	if !isObject {
		return Onchain{}
	}
	out := Onchain{Metadata: md}
	if valid && validCIP25(md) {
		out.Standard = ptr("CIP25v" + strconv.Itoa(cip25Version(root["version"])))
	}
	return out
}

// cip25Version is Blockfrost's reading of "version": 1 when absent or
// falsy, else its number (0 for one that is not).
func cip25Version(v any) int {
	switch x := v.(type) {
	case nil:
		return 1
	case json.Number:
		f, err := x.Float64()
		switch {
		case err != nil:
			return 0
		case f == 0:
			return 1
		case f == 1 || f == 2:
			return int(f)
		}
		return 0
	case string:
		if x == "" {
			return 1
		}
		if f, err := strconv.ParseFloat(x, 64); err == nil && (f == 1 || f == 2) {
			return int(f)
		}
		return 0
	case bool:
		if !x {
			return 1
		}
		return 1 // Number(true) is 1
	}
	return 0
}

// truthy is JavaScript's truthiness of a JSON value.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err == nil && f != 0
	}
	return true
}

// bytesKeyed reports whether the CBOR {721: {policy: {name: …}}} keys the
// asset's policy and name as bytes (CIP-25 version 2).
func bytesKeyed(cborMap []byte, id cardano.AssetID) bool {
	var top map[uint64]cbor.RawMessage
	if cbor.Unmarshal(cborMap, &top) != nil {
		return false
	}
	var policies map[any]cbor.RawMessage
	if cbor.Unmarshal(top[721], &policies) != nil {
		return false
	}
	for k, v := range policies {
		if p, ok := k.(cbor.ByteString); !ok || !bytes.Equal([]byte(p), id.Policy[:]) {
			continue
		}
		var names map[any]cbor.RawMessage
		if cbor.Unmarshal(v, &names) != nil {
			continue
		}
		for n := range names {
			if b, ok := n.(cbor.ByteString); ok && bytes.Equal([]byte(b), id.Name) {
				return true
			}
		}
	}
	return false
}

// validCIP25 is Blockfrost's asset_onchain_metadata_cip25 schema.
func validCIP25(md map[string]any) bool {
	return isString(md["name"]) && stringOrStrings(md["image"]) &&
		optional(md, "description", stringOrStrings) && optional(md, "mediaType", isString) &&
		optional(md, "files", validFiles)
}

// validCIP68 is Blockfrost's schema of the standard's metadata.
func validCIP68(md map[string]any, standard string) bool {
	switch standard {
	case "ft":
		return isString(md["name"]) && isString(md["description"]) && optional(md, "logo", isString) &&
			optional(md, "ticker", isString) && optional(md, "decimals", isNumber)
	case "nft", "rft":
		ok := isString(md["name"]) && isString(md["image"]) && optional(md, "description", isString) &&
			optional(md, "mediaType", isString) && optional(md, "files", validFiles)
		return ok && (standard == "nft" || optional(md, "decimals", isNumber))
	}
	return false
}

func optional(md map[string]any, key string, check func(any) bool) bool {
	v, ok := md[key]
	return !ok || check(v)
}

func isString(v any) bool { _, ok := v.(string); return ok }

func isNumber(v any) bool {
	switch v.(type) {
	case json.Number, int64:
		return true
	}
	return false
}

func stringOrStrings(v any) bool {
	if isString(v) {
		return true
	}
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, item := range list {
		if !isString(item) {
			return false
		}
	}
	return true
}

func validFiles(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, item := range list {
		f, ok := item.(map[string]any)
		if !ok || !isString(f["mediaType"]) || !stringOrStrings(f["src"]) || !optional(f, "name", isString) {
			return false
		}
	}
	return true
}

func ptr[T any](v T) *T { return &v }
