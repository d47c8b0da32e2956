package demonode

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

// Metadata renders as db-sync's no-schema JSON, whatever the encoding's
// lengths: bytes as "0x…" (as keys too), int keys as text, negative and
// 64-bit ints exactly, other keys as their JSON text.
func TestParseMetadata(t *testing.T) {
	for _, c := range []struct {
		name, hex, json string
	}{
		{"text list", "a102a1636d736781686869207468657265", `{"msg":["hi there"]}`},
		{"bytes value and key", "a10aa142cafe4201ff", `{"0xcafe":"0x01ff"}`},
		{"int keys and big ints", "a101a2011bffffffffffffffff203bfffffffffffffffe", `{"-1":-18446744073709551615,"1":18446744073709551615}`},
		{"list key", "a101a1820102f6", ""}, // null is not metadata
		{"indefinite", "a1019f7f626869ff5f41ab41cdffff", `["hi","0xabcd"]`},
		{"list key ok", "a101a182010203", `{"[1,2]":3}`},
	} {
		raw, _ := hex.DecodeString(c.hex)
		md, err := parseMetadata(raw)
		if c.json == "" {
			if err == nil {
				t.Errorf("%s: accepted", c.name)
			}
			continue
		}
		if err != nil || len(md) != 1 || md[0].JSON != c.json {
			t.Errorf("%s: %+v %v, want %s", c.name, md, err, c.json)
			continue
		}
		// bytes: {label: value}, the value as it came.
		want := append([]byte{0xa1}, raw[1:]...)
		if !bytes.Equal(md[0].Bytes, want) {
			t.Errorf("%s: bytes %x, want %x", c.name, md[0].Bytes, want)
		}
	}
	long, _ := cbor.Marshal(map[uint64]string{1: string(make([]byte, 65))})
	if _, err := parseMetadata(long); err != errInvalidMetadata {
		t.Errorf("a 65-byte string: %v", err)
	}
	two, _ := cbor.Marshal(map[uint64]int{674: 1, 1: 2})
	md, err := parseMetadata(two)
	if err != nil || len(md) != 2 || md[0].Label != 1 || md[1].Label != 674 {
		t.Errorf("labels out of order: %+v %v", md, err)
	}
}

// A rejection is [[6, [failure…]]] with the failures nested LEDGER →
// UTXOW → UTXO, and a value with assets in the ledger's encoding.
func TestRejectionShape(t *testing.T) {
	r := badInputs([]Input{{TxHash: [32]byte{1}, Index: 2}}).add(missingWitnesses([][28]byte{{7}}))
	b, err := r.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	d, _ := cbor.Diagnose(b)
	want := "[[6, [[1, [0, [1, 258([[h'0100000000000000000000000000000000000000000000000000000000000000', 2]])]]], " +
		"[1, [2, 258([h'07000000000000000000000000000000000000000000000000000000'])]]]]]"
	if d != want {
		t.Errorf("got  %s\nwant %s", d, want)
	}
	v := newValue()
	v.addOutput(Output{Lovelace: 5, Assets: []Asset{{Policy: [28]byte{9}, Name: []byte("A"), Quantity: 3}}})
	d, _ = cbor.Diagnose(v.cbor())
	if want := "[5, {h'09000000000000000000000000000000000000000000000000000000': {h'41': 3}}]"; d != want {
		t.Errorf("value %s, want %s", d, want)
	}
}
