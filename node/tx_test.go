package node

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// txVectors is testdata/tx-cbor.json, a copy of the shared vectors file
// (shared/vectors/tx-cbor.json): real signed transactions with known hashes,
// and malformed inputs.
type txVectors struct {
	Vectors []struct {
		ID      string `json:"id"`
		TxHash  string `json:"tx_hash"`
		CborHex string `json:"cbor_hex"`
	} `json:"vectors"`
	Negative []struct {
		ID        string `json:"id"`
		CborHex   string `json:"cbor_hex"`
		BodyBytes string `json:"body_bytes_hex"`
		BodyText  string `json:"body_text"`
		TxHash    string `json:"tx_hash_computed"`
	} `json:"negative_cases"`
}

func loadVectors(t testing.TB) txVectors {
	t.Helper()
	raw, err := os.ReadFile("testdata/tx-cbor.json")
	if err != nil {
		t.Fatal(err)
	}
	var v txVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Vectors) != 23 || len(v.Negative) != 11 {
		t.Fatalf("vectors file changed: %d valid, %d negative", len(v.Vectors), len(v.Negative))
	}
	return v
}

func TestDecodeTxVectors(t *testing.T) {
	for _, v := range loadVectors(t).Vectors {
		t.Run(v.ID, func(t *testing.T) {
			tx, err := DecodeTxHex(v.CborHex)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if tx.Hash != v.TxHash {
				t.Errorf("hash %s, want %s", tx.Hash, v.TxHash)
			}
			if hex.EncodeToString(tx.CBOR) != v.CborHex {
				t.Error("CBOR not kept byte for byte")
			}
			if len(tx.Inputs) == 0 || len(tx.Inputs[0].TxHash) != 64 {
				t.Errorf("inputs %v", tx.Inputs)
			}
			if tx.EraID > 7 {
				t.Errorf("era %d", tx.EraID)
			}
		})
	}
	// Upper-case hex is hex too.
	v := loadVectors(t).Vectors[0]
	tx, err := DecodeTxHex(strings.ToUpper(v.CborHex))
	if err != nil || tx.Hash != v.TxHash {
		t.Errorf("upper-case hex: %v %v", tx, err)
	}
}

func TestDecodeTxEraAndInputs(t *testing.T) {
	byID := map[string]string{}
	for _, v := range loadVectors(t).Vectors {
		byID[v.ID] = v.CborHex
	}
	cases := []struct {
		id      string
		era     uint16
		inputs  int
		first   string
		firstIx uint32
	}{
		{"pallas-byron1", 0, 1, "da832fb5ef57df5b91817e9a7448d26e92552afb34f8ee5adb491b24bbe990d5", 14},
		{"gouroboros-shelleyTxCborHex", 1, 1, "", 0},
		{"blockfrost-e781decc5945", 6, 1, "f8fa2918ec7821f5d11e", 0},
		{"pallas-alonzo2", 6, 7, "117325a52d60be3a1e4072af39", 0},
	}
	for _, tc := range cases {
		tx, err := DecodeTxHex(byID[tc.id])
		if err != nil {
			t.Fatalf("%s: %v", tc.id, err)
		}
		if tx.EraID != tc.era || len(tx.Inputs) != tc.inputs {
			t.Errorf("%s: era %d inputs %d, want %d %d", tc.id, tx.EraID, len(tx.Inputs), tc.era, tc.inputs)
		}
		if tc.first != "" && (!strings.HasPrefix(tx.Inputs[0].TxHash, tc.first) || tx.Inputs[0].Index != tc.firstIx) {
			t.Errorf("%s: first input %s", tc.id, tx.Inputs[0])
		}
	}
}

func TestDecodeTxInvalid(t *testing.T) {
	v := loadVectors(t)
	neg := map[string]string{}
	for _, n := range v.Negative {
		h := n.CborHex
		if n.BodyBytes != "" {
			h = n.BodyBytes
		}
		if n.ID == "hex-text-instead-of-binary" {
			// Our API takes hex: the mistake's equivalent is hex of the hex text.
			h = hex.EncodeToString([]byte(n.BodyText))
		}
		neg[n.ID] = h
	}
	big := strings.Repeat("00", MaxTxSize+1)
	cases := []struct{ name, hex, reason string }{
		{"ascii-invalid-cbor", neg["ascii-invalid-cbor"], "not a transaction: expected a CBOR array"},
		{"truncated-real-tx", neg["truncated-real-tx"], "malformed CBOR: unexpected EOF"},
		{"trailing-byte", neg["trailing-byte"], "trailing bytes after the transaction"},
		{"empty-body", neg["empty-body"], "empty"},
		{"map-not-array", neg["map-not-array"], "not a transaction: expected a CBOR array"},
		{"lone-break", neg["lone-break"], `malformed CBOR: unexpected "break" code`},
		{"huge-declared-length", neg["huge-declared-length"], "malformed CBOR: array length 18446744073709551615 is too large, it would cause integer overflow"},
		{"reserved-additional-info", neg["reserved-additional-info"], "malformed CBOR: invalid additional information 28 for type positive integer"},
		{"one-element-array", neg["one-element-array"], "not a transaction: unknown transaction type"},
		{"hex-text-instead-of-binary", neg["hex-text-instead-of-binary"], "not a transaction: expected a CBOR array"},
		{"nearly empty Conway tx", "84a0a0f5f6", "transaction has no inputs"},
		{"odd-length hex", "84a", "not hex"},
		{"not hex at all", "zz", "not hex"},
		{"0x prefix", "0x84a0a0f5f6", "not hex"},
		{"too large", big, "larger than 16384 bytes"},
		{"too large, not even hex", big + "z", "larger than 16384 bytes"},
		{"array of garbage", "83010203", "not a transaction: unknown transaction type"},
	}
	if len(neg) != 11 {
		t.Fatalf("negative vectors: %d", len(neg))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tx, err := DecodeTxHex(tc.hex)
			var inv *InvalidTxError
			if !errors.As(err, &inv) {
				t.Fatalf("got %v, %v; want InvalidTxError", tx, err)
			}
			if inv.Reason != tc.reason {
				t.Errorf("reason %q, want %q", inv.Reason, tc.reason)
			}
		})
	}
}

// The already-spent negative vector is a well-formed transaction: it decodes
// (the node is the one to refuse it).
func TestDecodeTxAlreadySpentVectorDecodes(t *testing.T) {
	for _, n := range loadVectors(t).Negative {
		if n.ID != "valid-cbor-already-spent" {
			continue
		}
		tx, err := DecodeTxHex(n.CborHex)
		if err != nil || tx.Hash != n.TxHash {
			t.Fatalf("got %+v %v, want hash %s", tx, err, n.TxHash)
		}
		return
	}
	t.Fatal("vector missing")
}

func TestEraName(t *testing.T) {
	for id, want := range map[uint16]string{0: "Byron", 6: "Conway", 99: "era 99", 300: "era 300"} {
		if got := EraName(id); got != want {
			t.Errorf("EraName(%d) = %q, want %q", id, got, want)
		}
	}
}

// FuzzDecodeTx: arbitrary bytes are either a transaction or an
// InvalidTxError; never a panic, never another error.
func FuzzDecodeTx(f *testing.F) {
	v := loadVectors(f)
	for _, x := range v.Vectors {
		b, _ := hex.DecodeString(x.CborHex)
		f.Add(b)
	}
	for _, n := range v.Negative {
		b, _ := hex.DecodeString(n.CborHex)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := DecodeTx(b)
		var inv *InvalidTxError
		switch {
		case err == nil:
			if len(tx.Hash) != 64 || len(tx.Inputs) == 0 {
				t.Fatalf("bad tx %+v", tx)
			}
		case !errors.As(err, &inv) || inv.Reason == "":
			t.Fatalf("unexpected error %v", err)
		}
	})
}

// BenchmarkDecodeTx decodes and hashes every valid vector once per op.
func BenchmarkDecodeTx(b *testing.B) {
	var raws [][]byte
	for _, v := range loadVectors(b).Vectors {
		r, _ := hex.DecodeString(v.CborHex)
		raws = append(raws, r)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range raws {
			if _, err := DecodeTx(r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// The validity interval comes from the body as the chain explorers show
// it: Byron has none, Shelley always a TTL, later eras either bound.
func TestDecodeTxValidityInterval(t *testing.T) {
	want := map[string][2]uint64{
		"pallas-byron1":           {0, 0},
		"pallas-shelley1":         {0, 5288520},
		"pallas-alonzo2":          {58924382, 58927082},
		"blockfrost-1a43e381a072": {151426837, 151427737},
		"blockfrost-e1157373ab32": {0, 0},
	}
	seen := 0
	for _, v := range loadVectors(t).Vectors {
		w, ok := want[v.ID]
		if !ok {
			continue
		}
		seen++
		tx, err := DecodeTxHex(v.CborHex)
		if err != nil {
			t.Fatal(err)
		}
		if got := [2]uint64{tx.InvalidBefore, tx.InvalidHereafter}; got != w {
			t.Errorf("%s: interval %v, want %v", v.ID, got, w)
		}
	}
	if seen != len(want) {
		t.Fatalf("found %d of %d vectors", seen, len(want))
	}
}
