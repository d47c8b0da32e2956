package bf

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/syncgate/syncgate/internal/cardano"
)

// cip68Vectors are the real reference datums of the shared CIP-68 vectors.
type cip68Vectors struct {
	RealDatums []struct {
		Name     string         `json:"name"`
		CBOR     string         `json:"datum_cbor_hex"`
		Fields   int            `json:"fields_count"`
		Version  int64          `json:"version"`
		Decoded  map[string]any `json:"decoded_metadata"`
		UserUnit string         `json:"user_token_unit_222"`
	} `json:"real_datums"`
}

// TestOnchainCIP68Vectors decodes every real datum of the vectors as a
// 222, 333 and 444 user token: versions 1 to 3 are taken (named
// CIP68v<version>) when the datum passes the standard's schema, the
// decoded text fields match the vector's, the third field comes back as
// its CBOR; other versions never are.
func TestOnchainCIP68Vectors(t *testing.T) {
	var v cip68Vectors
	b, err := os.ReadFile("../../cardano/testdata/cip68.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	taken := 0
	for _, d := range v.RealDatums {
		datum, err := hex.DecodeString(d.CBOR)
		if err != nil {
			t.Fatal(err)
		}
		for _, label := range []string{"000de140", "0014df10", "001bc280"} {
			id, _ := cardano.ParseAssetID(strings.Repeat("ab", 28) + "." + label + "4e4654")
			got, ok := onchainCIP68(datum, id)
			if d.Version < 1 || d.Version > 3 {
				if ok {
					t.Fatalf("%s (%s): version %d taken", d.Name, label, d.Version)
				}
				continue
			}
			if !ok {
				continue // fails this standard's schema (an FT datum as an NFT…)
			}
			taken++
			if *got.Standard != "CIP68v"+string(rune('0'+d.Version)) {
				t.Fatalf("%s: standard %s, want version %d", d.Name, *got.Standard, d.Version)
			}
			for _, key := range []string{"name", "description", "image", "ticker"} {
				if _, known := cip68Props[cip68Standard(id)][key]; !known {
					continue // another standard's property: its CBOR
				}
				if want, ok := d.Decoded[key].(string); ok && got.Metadata[key] != want {
					t.Fatalf("%s (%s): %s = %v, want %q", d.Name, label, key, got.Metadata[key], want)
				}
			}
			if (d.Fields > 2) != (got.Extra != nil) || got.Extra != nil && !strings.Contains(d.CBOR, *got.Extra) {
				t.Fatalf("%s: extra %v", d.Name, got.Extra)
			}
			// Every other property is the CBOR of its value.
			for k, val := range got.Metadata {
				if _, known := cip68Props[cip68Standard(id)][k]; known {
					continue
				}
				s, isText := val.(string)
				raw, err := hex.DecodeString(s)
				if !isText || err != nil || cbor.Wellformed(raw) != nil {
					t.Fatalf("%s: unknown property %s = %v, not CBOR hex", d.Name, k, val)
				}
			}
		}
	}
	if taken < 4 {
		t.Fatalf("only %d datum/standard pairs taken", taken)
	}
	if _, ok := onchainCIP68([]byte{0xd8, 0x79, 0x80}, mustAsset(t, "000de140")); ok {
		t.Fatal("a constructor without fields taken")
	}
	if _, ok := onchainCIP68([]byte{0xff, 0x00}, mustAsset(t, "000de140")); ok {
		t.Fatal("garbage taken")
	}
	if _, ok := onchainCIP68([]byte{0xd8, 0x79, 0x80}, mustAsset(t, "000643b0")); ok {
		t.Fatal("a reference NFT's own datum read as a user token's")
	}
}

func mustAsset(t *testing.T, name string) cardano.AssetID {
	t.Helper()
	id, err := cardano.ParseAssetID(strings.Repeat("ab", 28) + "." + name + "4e4654")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestOnchainCIP25 follows Blockfrost's lookup: version 1 text keys (the
// name as UTF-8, else its hex), version 2 bytes keys (checked in the
// CBOR) with a fallback to text keys that is sent but named no standard,
// and the schema (name and image) deciding the standard.
func TestOnchainCIP25(t *testing.T) {
	policy := strings.Repeat("ab", 28)
	id, _ := cardano.ParseAssetID(policy + "." + hex.EncodeToString([]byte("Bud")))
	raw, _ := cardano.ParseAssetID(policy + ".9a56") // not UTF-8
	entry := map[string]any{"name": "Bud", "image": []any{"ipfs://", "Qm"}}
	policyBytes, _ := hex.DecodeString(policy)
	cborOf := func(v any) []byte {
		b, err := cbor.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	textCBOR := cborOf(map[uint64]any{721: map[string]any{policy: map[string]any{"Bud": entry}}})
	bytesCBOR := cborOf(map[uint64]any{721: map[any]any{cbor.ByteString(policyBytes): map[any]any{cbor.ByteString("Bud"): entry}}})
	js := func(v any) *string {
		b, _ := json.Marshal(v)
		s := string(b)
		return &s
	}
	cases := []struct {
		name     string
		id       cardano.AssetID
		json     *string
		cbor     []byte
		standard string // "" none; "-" no metadata at all
	}{
		{"v1", id, js(map[string]any{policy: map[string]any{"Bud": entry}}), textCBOR, "CIP25v1"},
		{"v1 version as text", id, js(map[string]any{"version": "1", policy: map[string]any{"Bud": entry}}), textCBOR, "CIP25v1"},
		{"v1 hex name key", raw, js(map[string]any{policy: map[string]any{"9a56": entry}}), textCBOR, "CIP25v1"},
		{"v1 without image", id, js(map[string]any{policy: map[string]any{"Bud": map[string]any{"name": "Bud"}}}), textCBOR, ""},
		{"v1 other asset", id, js(map[string]any{policy: map[string]any{"Other": entry}}), textCBOR, "-"},
		{"v2 bytes keys", id, js(map[string]any{"version": 2, "0x" + policy: map[string]any{"0x" + hex.EncodeToString([]byte("Bud")): entry}}), bytesCBOR, "CIP25v2"},
		{"v2 0x text keys", id, js(map[string]any{"version": 2, "0x" + policy: map[string]any{"0x" + hex.EncodeToString([]byte("Bud")): entry}}), textCBOR, "-"},
		{"v2 text keys", id, js(map[string]any{"version": 2, policy: map[string]any{"Bud": entry}}), textCBOR, ""},
		{"v3", id, js(map[string]any{"version": 3, policy: map[string]any{"Bud": entry}}), textCBOR, "-"},
		{"entry not an object", id, js(map[string]any{policy: map[string]any{"Bud": "x"}}), textCBOR, "-"},
		{"none", id, nil, nil, "-"},
		{"not JSON", id, js("x"), textCBOR, "-"},
	}
	for _, c := range cases {
		got := onchainCIP25(c.json, c.cbor, c.id)
		switch {
		case c.standard == "-" && got.Metadata != nil:
			t.Errorf("%s: %v", c.name, got.Metadata)
		case c.standard != "-" && got.Metadata["name"] == nil:
			t.Errorf("%s: no metadata", c.name)
		case c.standard != "-" && (got.Standard == nil) != (c.standard == ""):
			t.Errorf("%s: standard %v, want %q", c.name, got.Standard, c.standard)
		case got.Standard != nil && *got.Standard != c.standard:
			t.Errorf("%s: standard %s, want %s", c.name, *got.Standard, c.standard)
		}
	}
}

// FuzzOnchain: no datum or label-721 text makes the decoders panic, and
// whatever CIP-68 takes passes its standard's schema.
func FuzzOnchain(f *testing.F) {
	f.Add([]byte{0xd8, 0x79, 0x9f, 0xa1, 0x44, 'n', 'a', 'm', 'e', 0x41, 'x', 0x01, 0xff}, `{"version":2}`)
	f.Add([]byte{0xd8, 0x66, 0x82, 0x00, 0x80}, `{"abab":{"NFT":{"name":"x","image":["a"]}}}`)
	f.Add([]byte{0xd9, 0x05, 0x00, 0x80}, `[]`)
	f.Fuzz(func(t *testing.T, datum []byte, label string) {
		for _, l := range []string{"000de140", "0014df10", "001bc280"} {
			id := mustAsset(t, l)
			if got, ok := onchainCIP68(datum, id); ok && !validCIP68(got.Metadata, cip68Standard(id)) {
				t.Fatalf("taken but invalid: %v", got.Metadata)
			}
			onchainCIP25(&label, datum, id)
		}
	})
}
