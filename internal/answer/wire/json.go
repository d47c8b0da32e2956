package wire

import (
	"bytes"
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/syncgate/syncgate/dbsync"
)

// The chain answers that carry many values (transactions with their inputs
// and outputs, UTxO lists) are written by hand, byte for byte what
// encoding/json writes for the spec's objects (tests compare the two).
// Through encoding/json, reflection over maps of *big.Int, key sorting,
// one MarshalJSON per quantity and the re-scan of each one's output took a
// fifth of the detailed history's server CPU.

// AppendValue writes the spec's value object (OpenAPI "Value"): {"lovelace": n,
// "assets": {...}}, quantities as exact JSON integers at any size. Assets
// is the flat map ("<policy>.<namehex>": qty) or, grouped, {policy:
// {namehex: qty}}; an empty object when there are none. Keys come sorted,
// as encoding/json writes a map's.
func AppendValue(b []byte, v dbsync.Value, grouped bool) []byte {
	b = append(b, `{"lovelace":`...)
	if v.Lovelace == nil {
		b = append(b, '0') // a value always has lovelace
	} else {
		b = appendQuantity(b, v.Lovelace)
	}
	b = append(b, `,"assets":{`...)
	assets := sortedAssets(v.Assets, grouped)
	for i, a := range assets {
		if i > 0 {
			b = append(b, ',')
		}
		switch {
		case !grouped:
			b = appendFlatKey(b, a.Policy, a.Name)
		case i > 0 && assets[i-1].Policy == a.Policy:
			b = appendJSONString(b, a.Name)
		default:
			if i > 0 {
				b = append(b[:len(b)-1], "},"...) // close the previous policy
			}
			b = appendJSONString(b, a.Policy)
			b = append(b, ":{"...)
			b = appendJSONString(b, a.Name)
		}
		b = append(b, ':')
		b = appendQuantity(b, a.Quantity)
	}
	if grouped && len(assets) > 0 {
		b = append(b, '}')
	}
	return append(b, "}}"...)
}

// sortedAssets orders assets by policy, then name, with the quantities of
// any repeated unit added up (never from db-sync, but never drop units).
// db-sync's rows come sorted already; only other input is copied. With
// policies of one length (db-sync's are all 28 bytes) this is also the
// byte order of the flat keys "<policy>.<name>"; otherwise flat values are
// ordered (and merged) by those keys, so both shapes come out as
// encoding/json sorts and merges map keys.
func sortedAssets(assets []dbsync.AssetQuantity, grouped bool) []dbsync.AssetQuantity {
	cmp := func(a, b dbsync.AssetQuantity) int {
		if c := strings.Compare(a.Policy, b.Policy); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	}
	for _, a := range assets {
		if !grouped && len(a.Policy) != len(assets[0].Policy) {
			cmp = func(a, b dbsync.AssetQuantity) int {
				return strings.Compare(a.Policy+"."+a.Name, b.Policy+"."+b.Name)
			}
			break
		}
	}
	strictlySorted := true
	for i := 1; i < len(assets) && strictlySorted; i++ {
		strictlySorted = cmp(assets[i-1], assets[i]) < 0
	}
	if strictlySorted {
		return assets
	}
	sorted := slices.Clone(assets)
	slices.SortStableFunc(sorted, cmp)
	out := sorted[:0]
	for _, a := range sorted {
		if n := len(out); n > 0 && cmp(out[n-1], a) == 0 {
			sum := new(big.Int).Add(quantityOrZero(out[n-1].Quantity), quantityOrZero(a.Quantity))
			out[n-1].Quantity = sum
			continue
		}
		out = append(out, a)
	}
	return out
}

func quantityOrZero(q *big.Int) *big.Int {
	if q == nil {
		return new(big.Int)
	}
	return q
}

// AppendTx writes the spec's detailed transaction (OpenAPI "Tx").
func AppendTx(b []byte, t dbsync.Tx, grouped bool) []byte {
	b = appendTxRefFields(append(b, '{'), t.TxRef)
	b = append(b, `,"fee":`...)
	b = appendQuantity(b, t.Fee)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, t.Size, 10)
	b = append(b, `,"inputs":[`...)
	for i, in := range t.Inputs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"tx_hash":`...)
		b = appendJSONString(b, in.TxHash)
		b = append(b, `,"output_index":`...)
		b = strconv.AppendInt(b, int64(in.OutputIndex), 10)
		b = append(b, `,"address":`...)
		b = appendJSONString(b, in.Address)
		b = append(b, `,"value":`...)
		b = AppendValue(b, in.Value, grouped)
		b = append(b, '}')
	}
	b = append(b, `],"outputs":[`...)
	for i, o := range t.Outputs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"output_index":`...)
		b = strconv.AppendInt(b, int64(o.OutputIndex), 10)
		b = append(b, `,"address":`...)
		b = appendJSONString(b, o.Address)
		b = append(b, `,"value":`...)
		b = AppendValue(b, o.Value, grouped)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// AppendTxRef writes the spec's transaction reference (OpenAPI "TxRef").
func AppendTxRef(b []byte, r dbsync.TxRef) []byte {
	return append(appendTxRefFields(append(b, '{'), r), '}')
}

// appendTxRefFields writes a reference's fields, which a detailed
// transaction opens with too.
func appendTxRefFields(b []byte, r dbsync.TxRef) []byte {
	b = append(b, `"tx_hash":`...)
	b = appendJSONString(b, r.Hash)
	b = append(b, `,"block_hash":`...)
	b = appendJSONString(b, r.BlockHash)
	b = append(b, `,"slot_no":`...)
	b = strconv.AppendInt(b, r.SlotNo, 10)
	b = append(b, `,"block_no":`...)
	b = strconv.AppendInt(b, r.BlockNo, 10)
	b = append(b, `,"block_time":`...)
	return appendBlockTime(b, r.BlockTime)
}

// appendBlockTime writes BlockTime(t) as a JSON string without building it.
func appendBlockTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"')
}

// AppendUTxO writes the spec's UTxO (OpenAPI "UTxO").
func AppendUTxO(b []byte, u dbsync.UTxO) []byte {
	b = append(b, `{"transaction_id":`...)
	b = appendJSONString(b, u.TxHash)
	b = append(b, `,"output_index":`...)
	b = strconv.AppendInt(b, int64(u.OutputIndex), 10)
	b = append(b, `,"address":`...)
	b = appendJSONString(b, u.Address)
	b = append(b, `,"value":`...)
	b = AppendValue(b, u.Value, false)
	b = append(b, `,"datum_hash":`...)
	b = appendNullableString(b, u.DatumHash)
	b = append(b, `,"script_hash":`...)
	b = appendNullableString(b, u.ScriptHash)
	b = append(b, `,"created_at":{"slot_no":`...)
	b = strconv.AppendInt(b, u.SlotNo, 10)
	b = append(b, `,"header_hash":`...)
	b = appendJSONString(b, u.BlockHash)
	return append(b, "}}"...)
}

// appendQuantity writes q as a JSON integer (nil as null, as encoding/json
// writes a nil *big.Int); strconv for the amounts that fit in an int64
// (big.Int.Append allocates and is ~5x slower).
func appendQuantity(b []byte, q *big.Int) []byte {
	switch {
	case q == nil:
		return append(b, "null"...)
	case q.IsInt64():
		return strconv.AppendInt(b, q.Int64(), 10)
	}
	return q.Append(b, 10)
}

func appendNullableString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
}

// appendFlatKey writes the flat asset key "<policy>.<name>" as a JSON
// string without building it first.
func appendFlatKey(b []byte, policy, name string) []byte {
	if !plain(policy) || !plain(name) {
		return appendJSONString(b, policy+"."+name)
	}
	b = append(b, '"')
	b = append(b, policy...)
	b = append(b, '.')
	b = append(b, name...)
	return append(b, '"')
}

// appendJSONString writes s as a JSON string the way the response encoder
// does (no HTML escaping). Addresses, hashes and hex are plain ASCII and are
// copied as they are; anything else goes through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	if !plain(s) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s) // a string always encodes
		return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plain reports whether s is printable ASCII that JSON needs no escape for.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}
