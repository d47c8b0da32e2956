package node

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/blinklabs-io/gouroboros/ledger"
	"github.com/fxamacker/cbor/v2"
)

// factVectors are the vectors with what the vectors file says of each body
// (parsed by a script of its own, not by gouroboros).
func factVectors(t *testing.T) []struct {
	ID       string  `json:"id"`
	CborHex  string  `json:"cbor_hex"`
	BodyKeys []int   `json:"body_keys"`
	TTL      *uint64 `json:"ttl_slot"`
	Start    *uint64 `json:"validity_start_slot"`
	IsValid  *bool   `json:"is_valid_flag"`
	Era      string  `json:"era"`
} {
	t.Helper()
	raw, err := os.ReadFile("testdata/tx-cbor.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Vectors []struct {
			ID       string  `json:"id"`
			CborHex  string  `json:"cbor_hex"`
			BodyKeys []int   `json:"body_keys"`
			TTL      *uint64 `json:"ttl_slot"`
			Start    *uint64 `json:"validity_start_slot"`
			IsValid  *bool   `json:"is_valid_flag"`
			Era      string  `json:"era"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v.Vectors
}

// Each vector's facts agree with its body's keys as the vectors file
// lists them: a validity bound, collateral, reference inputs, a collateral
// return, a mint or certificates only where the body has that field, and
// the bounds' values (an explicit 0 kept).
func TestMempoolFactsVectors(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range factVectors(t) {
		raw, _ := hex.DecodeString(v.CborHex)
		era, _ := ledger.DetermineTransactionType(raw)
		tx, err := decodeMempoolTx(uint8(era), raw)
		if err != nil {
			t.Fatalf("%s: %v", v.ID, err)
		}
		f := tx.Facts
		if f == nil {
			t.Fatalf("%s: no facts", v.ID)
		}
		has := func(k int) bool { return slices.Contains(v.BodyKeys, k) && !emptyField(t, raw, k) }
		if eq := func(a, b *uint64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }; !eq(f.InvalidHereafter, v.TTL) || !eq(f.InvalidBefore, v.Start) {
			t.Errorf("%s: validity [%v, %v), want [%v, %v)", v.ID, f.InvalidBefore, f.InvalidHereafter, v.Start, v.TTL)
		}
		if v.Era != "Byron" && f.Fee.Sign() <= 0 {
			t.Errorf("%s: fee %s", v.ID, f.Fee)
		}
		if len(f.Collateral) > 0 != has(13) || len(f.References) > 0 != has(18) || (f.CollateralReturn != nil) != has(16) ||
			(f.MintCount > 0) != has(9) || (len(f.Certificates) > 0) != has(4) || (f.WithdrawalCount > 0) != has(5) {
			t.Errorf("%s: facts %+v disagree with body keys %v", v.ID, f, v.BodyKeys)
		}
		if v.IsValid != nil && f.Valid != *v.IsValid || v.IsValid == nil && !f.Valid {
			t.Errorf("%s: valid %v", v.ID, f.Valid)
		}
		if f.CollateralReturn != nil && f.CollateralReturn.Index != uint32(len(tx.Outputs)) {
			t.Errorf("%s: collateral return index %d, want %d", v.ID, f.CollateralReturn.Index, len(tx.Outputs))
		}
		// Plutus transactions carry redeemers with a budget.
		if has(11) != (len(f.Redeemers) > 0) {
			t.Errorf("%s: redeemers %+v with script data hash %v", v.ID, f.Redeemers, has(11))
		}
		for _, r := range f.Redeemers {
			if r.Mem <= 0 || r.Steps <= 0 || r.Tag > 5 {
				t.Errorf("%s: redeemer %+v", v.ID, r)
			}
		}
		for _, c := range f.Certificates {
			seen["cert"+string(rune('0'+c.Kind))] = true
			if c.Kind == 3 && len(c.Pool) != 28 {
				t.Errorf("%s: pool registration without its operator: %+v", v.ID, c)
			}
		}
		for _, o := range append(tx.Outputs, outputsOf(f.CollateralReturn)...) {
			if o.InlineDatum != nil {
				seen["inline"] = true
				if o.DatumHash == nil {
					t.Errorf("%s: inline datum without its hash", v.ID)
				}
			}
		}
	}
	// What the vectors cover, so a fact no vector has is not thought tested.
	for _, k := range []string{"cert0", "cert2", "cert3", "cert6", "inline"} {
		if !seen[k] {
			t.Errorf("no vector has %s", k)
		}
	}
}

// emptyField reports whether body field k is an empty array, map or set
// (Alonzo bodies may list an empty collateral).
func emptyField(t *testing.T, raw []byte, k int) bool {
	t.Helper()
	var parts []cbor.RawMessage
	var body map[int]cbor.RawMessage
	if cbor.Unmarshal(raw, &parts) != nil || cbor.Unmarshal(parts[0], &body) != nil {
		return false
	}
	v := hex.EncodeToString(body[k])
	return v == "80" || v == "a0" || v == "d9010280"
}

func outputsOf(o *Output) []Output {
	if o == nil {
		return nil
	}
	return []Output{*o}
}

// validityInterval tells an absent bound from an explicit 0 and reads
// nothing from bytes that are not a transaction (Byron's: the vectors).
func TestValidityInterval(t *testing.T) {
	for _, c := range []struct {
		name   string
		hex    string
		before *uint64
		after  *uint64
	}{
		{"neither", "84a0a0f5f6", nil, nil},
		{"start 0, ttl 5", "84a2080003 05a0f5f6", ptr(0), ptr(5)},
		{"ttl only", "84a1031a000f4240a0f5f6", nil, ptr(1_000_000)},
		{"not cbor", "ff", nil, nil},
	} {
		raw, _ := hex.DecodeString(stripSpaces(c.hex))
		b, a := validityInterval(raw)
		if !sameSlot(b, c.before) || !sameSlot(a, c.after) {
			t.Errorf("%s: [%v, %v), want [%v, %v)", c.name, b, a, c.before, c.after)
		}
	}
}

func ptr(n uint64) *uint64 { return &n }

func sameSlot(a, b *uint64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func stripSpaces(s string) string {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			out = append(out, s[i])
		}
	}
	return string(out)
}
