package demonode

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Metadatum is one label of a transaction's metadata as db-sync stores it
// in tx_metadata: the value under the label rendered as JSON without a
// schema (ints as numbers, text as strings, bytes as "0x<hex>" strings,
// also as map keys; int keys as their decimal text; other keys as their
// JSON text), and bytes, the CBOR of the one-entry map {label: value}.
type Metadatum struct {
	Label uint64
	JSON  string
	Bytes []byte
}

// maxMetadataLen is the ledger's bound on a metadata text or byte string.
const maxMetadataLen = 64

// errInvalidMetadata: a string longer than 64 bytes (the ledger's
// InvalidMetadata); errMalformedMetadata: not metadata at all.
var (
	errInvalidMetadata   = errors.New("a metadata string or byte string is longer than 64 bytes")
	errMalformedMetadata = errors.New("malformed metadata")
)

// parseMetadata reads the metadata map {label: metadatum} (raw CBOR), by
// label as db-sync writes its rows.
func parseMetadata(raw []byte) ([]Metadatum, error) {
	r := &cborReader{b: raw}
	major, n, indef, err := r.head()
	if err != nil || major != 5 {
		return nil, errMalformedMetadata
	}
	var out []Metadatum
	invalid := false
	for i := uint64(0); indef || i < n; i++ {
		if indef && r.breakNext() {
			break
		}
		km, label, kIndef, err := r.head()
		if err != nil || km != 0 || kIndef {
			return nil, errMalformedMetadata
		}
		start := r.pos
		v, err := r.metadatum(0)
		if errors.Is(err, errInvalidMetadata) {
			invalid = true
		} else if err != nil {
			return nil, err
		}
		js, err := json.Marshal(v)
		if err != nil {
			return nil, errMalformedMetadata
		}
		b := appendHead([]byte{0xa1}, 0, label)
		out = append(out, Metadatum{Label: label, JSON: string(js), Bytes: append(b, raw[start:r.pos]...)})
	}
	if r.pos != len(raw) {
		return nil, errMalformedMetadata
	}
	if invalid {
		return nil, errInvalidMetadata
	}
	slices.SortStableFunc(out, func(a, b Metadatum) int {
		switch {
		case a.Label < b.Label:
			return -1
		case a.Label > b.Label:
			return 1
		}
		return 0
	})
	return out, nil
}

// cborReader walks CBOR items: just what metadata holds (ints, byte and
// text strings, arrays and maps, definite or indefinite).
type cborReader struct {
	b   []byte
	pos int
}

func (r *cborReader) head() (major byte, arg uint64, indefinite bool, err error) {
	if r.pos >= len(r.b) {
		return 0, 0, false, errMalformedMetadata
	}
	ib := r.b[r.pos]
	r.pos++
	major, info := ib>>5, ib&0x1f
	switch {
	case info < 24:
		return major, uint64(info), false, nil
	case info <= 27:
		size := 1 << (info - 24)
		if r.pos+size > len(r.b) {
			return 0, 0, false, errMalformedMetadata
		}
		var buf [8]byte
		copy(buf[8-size:], r.b[r.pos:r.pos+size])
		r.pos += size
		return major, binary.BigEndian.Uint64(buf[:]), false, nil
	case info == 31 && major >= 2 && major <= 5:
		return major, 0, true, nil
	}
	return 0, 0, false, errMalformedMetadata
}

// breakNext consumes an indefinite item's "break" when it comes next.
func (r *cborReader) breakNext() bool {
	if r.pos < len(r.b) && r.b[r.pos] == 0xff {
		r.pos++
		return true
	}
	return false
}

// metadatum reads one value and returns it ready for encoding/json. A
// string over 64 bytes is read whole and reported (errInvalidMetadata)
// after the rest of the value.
func (r *cborReader) metadatum(depth int) (any, error) {
	if depth > 64 {
		return nil, errMalformedMetadata
	}
	major, n, indef, err := r.head()
	if err != nil {
		return nil, err
	}
	switch major {
	case 0:
		return json.Number(strconv.FormatUint(n, 10)), nil
	case 1:
		if n == math.MaxUint64 {
			return json.Number("-18446744073709551616"), nil
		}
		return json.Number("-" + strconv.FormatUint(n+1, 10)), nil
	case 2, 3:
		s, err := r.str(major, n, indef)
		if err != nil {
			return nil, err
		}
		var v any = string(s)
		if major == 2 {
			v = "0x" + hex.EncodeToString(s)
		}
		if len(s) > maxMetadataLen {
			return v, errInvalidMetadata
		}
		return v, nil
	case 4:
		list := []any{}
		var bad error
		for i := uint64(0); indef || i < n; i++ {
			if indef && r.breakNext() {
				break
			}
			v, err := r.metadatum(depth + 1)
			if err != nil && !errors.Is(err, errInvalidMetadata) {
				return nil, err
			}
			bad = cmpErr(bad, err)
			list = append(list, v)
		}
		return list, bad
	case 5:
		obj := map[string]any{}
		var bad error
		for i := uint64(0); indef || i < n; i++ {
			if indef && r.breakNext() {
				break
			}
			k, err := r.metadatum(depth + 1)
			if err != nil && !errors.Is(err, errInvalidMetadata) {
				return nil, err
			}
			bad = cmpErr(bad, err)
			v, err := r.metadatum(depth + 1)
			if err != nil && !errors.Is(err, errInvalidMetadata) {
				return nil, err
			}
			bad = cmpErr(bad, err)
			obj[jsonKey(k)] = v
		}
		return obj, bad
	}
	return nil, errMalformedMetadata
}

func cmpErr(prev, err error) error {
	if prev != nil {
		return prev
	}
	return err
}

// str reads a byte or text string's content (chunks of an indefinite one
// joined).
func (r *cborReader) str(major byte, n uint64, indef bool) ([]byte, error) {
	if !indef {
		if n > uint64(len(r.b)-r.pos) {
			return nil, errMalformedMetadata
		}
		s := r.b[r.pos : r.pos+int(n)]
		r.pos += int(n)
		return s, nil
	}
	var out []byte
	for !r.breakNext() {
		m, cn, ci, err := r.head()
		if err != nil || m != major || ci {
			return nil, errMalformedMetadata
		}
		chunk, err := r.str(major, cn, false)
		if err != nil {
			return nil, err
		}
		out = append(out, chunk...)
	}
	return out, nil
}

// jsonKey is a rendered map key as an object key: strings as they are
// (bytes are already "0x…"), numbers as their text, anything else as its
// JSON text.
func jsonKey(k any) string {
	switch x := k.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	}
	b, err := json.Marshal(k)
	if err != nil {
		return fmt.Sprint(k)
	}
	return string(b)
}

// appendHead appends a CBOR head with the shortest argument encoding.
func appendHead(b []byte, major byte, n uint64) []byte {
	m := major << 5
	switch {
	case n < 24:
		return append(b, m|byte(n))
	case n <= math.MaxUint8:
		return append(b, m|24, byte(n))
	case n <= math.MaxUint16:
		return append(b, m|25, byte(n>>8), byte(n))
	case n <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(b, m|26), uint32(n))
	}
	return binary.BigEndian.AppendUint64(append(b, m|27), n)
}
