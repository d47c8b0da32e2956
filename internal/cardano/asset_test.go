package cardano

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

// readVectors decodes testdata/<name> (copies of shared/vectors files).
func readVectors(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

type fingerprintVector struct {
	PolicyID    string `json:"policy_id"`
	AssetName   string `json:"asset_name"`
	Fingerprint string `json:"asset_fingerprint"`
}

// TestAssetFingerprint checks every CIP-14 vector: the 8 official ones and
// the 29 real assets whose fingerprints Blockfrost states.
func TestAssetFingerprint(t *testing.T) {
	var v struct {
		Vectors    []fingerprintVector `json:"vectors"`
		RealAssets struct {
			Vectors []fingerprintVector `json:"vectors"`
		} `json:"real_assets"`
	}
	readVectors(t, "cip14.json", &v)
	all := append(v.Vectors, v.RealAssets.Vectors...)
	if len(v.Vectors) != 8 || len(v.RealAssets.Vectors) != 29 {
		t.Fatalf("vectors not loaded: %d official, %d real", len(v.Vectors), len(v.RealAssets.Vectors))
	}
	for _, vec := range all {
		id, err := ParseAssetID(vec.PolicyID + "." + vec.AssetName)
		if err != nil {
			t.Errorf("ParseAssetID(%s.%s): %v", vec.PolicyID, vec.AssetName, err)
			continue
		}
		if got := id.Fingerprint(); got != vec.Fingerprint {
			t.Errorf("%s.%s: fingerprint %s, want %s", vec.PolicyID, vec.AssetName, got, vec.Fingerprint)
		}
		if id.String() != vec.PolicyID+"."+vec.AssetName {
			t.Errorf("round trip: %s", id.String())
		}
	}
}

func TestParseAssetIDRejects(t *testing.T) {
	policy := "7eae28af2208be856f7a119668ae52a49b73725e326dc16579dcc373"
	bad := []string{
		"",
		".",
		policy,                                 // no dot (unit form without separator)
		policy + "504154415445",                // unit form
		policy[:54] + ".5041",                  // short policy
		policy + "aa.5041",                     // long policy
		"zz" + policy[2:] + ".5041",            // non-hex policy
		policy + ".50415",                      // odd-length name
		policy + ".zz",                         // non-hex name
		policy + "." + strings.Repeat("a", 66), // name over 32 bytes
		policy + ".5041.5041",                  // two dots
		" " + policy + ".5041",                 // whitespace
		"asset1rjklcrnsdzqp65wjgrg55sy9723kw09mlgvlc3", // a fingerprint is not an asset id
	}
	for _, s := range bad {
		if _, err := ParseAssetID(s); !errors.Is(err, ErrInvalidAssetID) {
			t.Errorf("ParseAssetID(%q) = %v, want ErrInvalidAssetID", s, err)
		}
	}
	good := map[string]string{
		policy + ".":                           policy + ".",
		strings.ToUpper(policy) + ".504154":    policy + ".504154",
		policy + "." + strings.Repeat("a", 64): policy + "." + strings.Repeat("a", 64),
	}
	for in, want := range good {
		id, err := ParseAssetID(in)
		if err != nil || id.String() != want {
			t.Errorf("ParseAssetID(%q) = %v, %v; want %s", in, id, err, want)
		}
	}
}

func TestAssetNameText(t *testing.T) {
	cases := []struct {
		nameHex string
		text    string
		ok      bool
	}{
		{"", "", true},
		{"504154415445", "PATATE", true},
		{"48656c6c6f20576f726c64", "Hello World", true},
		{"e282ac313030", "€100", true},
		{"9a56", "", false},                         // invalid UTF-8
		{"000de140426c6f636b66726f7374", "", false}, // CIP-67 prefix: NUL byte
		{"4869096869", "", false},                   // tab
		{"48690a", "", false},                       // newline
	}
	for _, c := range cases {
		name, _ := hex.DecodeString(c.nameHex)
		text, ok := AssetID{Name: name}.NameText()
		if text != c.text || ok != c.ok {
			t.Errorf("NameText(%s) = %q, %v; want %q, %v", c.nameHex, text, ok, c.text, c.ok)
		}
	}
}

func TestCIP68Reference(t *testing.T) {
	policy := "96288f45458f51428187ded7b6dcb560b7ff74d9ad00fca13d5773a4"
	suffix := "426c6f636b66726f737423303138"
	for _, label := range []string{"000de140", "0014df10", "001bc280"} {
		id, _ := ParseAssetID(policy + "." + label + suffix)
		ref, ok := id.CIP68Reference()
		if !ok || ref.String() != policy+".000643b0"+suffix {
			t.Errorf("label %s: reference %s, %v", label, ref, ok)
		}
	}
	for _, name := range []string{"000643b0" + suffix, "001f4d70" + suffix, suffix, "000de1", ""} {
		id, _ := ParseAssetID(policy + "." + name)
		if ref, ok := id.CIP68Reference(); ok {
			t.Errorf("%s: unexpected reference %s", name, ref)
		}
	}
}

func TestParsePoolID(t *testing.T) {
	var v struct {
		Pools []struct {
			PoolID string `json:"pool_id"`
			Hex    string `json:"hex"`
		} `json:"pool_ids"`
		Base []struct {
			StakeAddress string `json:"stake_address"`
		} `json:"mainnet_base_addresses_with_stake"`
	}
	readVectors(t, "addresses.json", &v)
	if len(v.Pools) < 10 || len(v.Base) == 0 {
		t.Fatalf("vectors not loaded")
	}
	for _, p := range v.Pools {
		for _, in := range []string{p.PoolID, strings.ToUpper(p.PoolID), p.Hex, strings.ToUpper(p.Hex)} {
			id, err := ParsePoolID(in)
			if err != nil {
				t.Errorf("ParsePoolID(%s): %v", in, err)
				continue
			}
			if id.Hex() != p.Hex || id.String() != p.PoolID {
				t.Errorf("ParsePoolID(%s) = %s / %s, want %s / %s", in, id.Hex(), id, p.Hex, p.PoolID)
			}
		}
	}
	// Well formed but unregistered on mainnet (Blockfrost answers 404): valid here.
	if _, err := ParsePoolID("pool1y6chk7x7fup4ms9leesdr57r4qy9cwxuee0msan72x976a6u0nc"); err != nil {
		t.Errorf("unregistered but well-formed pool id rejected: %v", err)
	}
	raw, _ := hex.DecodeString(v.Pools[0].Hex)
	conv, _ := bech32.ConvertBits(raw, 8, 5, true)
	wrongHRP := func(hrp string) string {
		s, err := bech32.Encode(hrp, conv)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	bad := []string{
		"",
		"pool1kek",
		"pool1y6chk7x7fup4ms9leesdr57r4qy9cwxuee0msan72x976a6u0nd", // bad checksum
		v.Base[0].StakeAddress, // stake1…: right shape, wrong kind
		wrongHRP("script"),     // 28-byte payload, wrong human-readable part
		wrongHRP("pool_vrf"),
		wrongHRP("stake"),
		v.Pools[0].Hex[:54],       // 54 hex
		v.Pools[0].Hex + "00",     // 58 hex
		"zz" + v.Pools[0].Hex[2:], // 56 chars, not hex
		v.Pools[0].PoolID[:10] + strings.ToUpper(v.Pools[0].PoolID[10:]), // mixed case
		strings.Repeat("pool1", 40),
	}
	for _, s := range bad {
		if _, err := ParsePoolID(s); !errors.Is(err, ErrInvalidPoolID) {
			t.Errorf("ParsePoolID(%q) = %v, want ErrInvalidPoolID", s, err)
		}
	}
}
