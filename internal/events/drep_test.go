package events

import (
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

// A DRep is stored as its CIP-129 id whatever form it came in; a pool as
// its bech32; anything else is refused.
func TestCanonicalPoolAndDRep(t *testing.T) {
	const cip129 = "drep1ytf29wgf5llmd22ankjewqrdcjvsx9zvyru2qlpwjyr042gajpq70"
	_, data, err := bech32.DecodeNoLimit(cip129)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := bech32.ConvertBits(data, 5, 8, false)
	five, _ := bech32.ConvertBits(raw[1:], 8, 5, true)
	cip105, _ := bech32.Encode("drep", five)
	script, _ := bech32.Encode("drep_script", five)
	scriptID := drepID(raw[1:], true)
	for in, want := range map[string]string{cip129: cip129, cip105: cip129, script: scriptID, scriptID: scriptID,
		"drep_always_abstain": "drep_always_abstain", "drep_always_no_confidence": "drep_always_no_confidence"} {
		it, err := CanonicalItem(KindDRep, in, true)
		if err != nil || it.Value != want {
			t.Errorf("drep %s: %+v %v, want %s", in, it, err, want)
		}
	}
	if DRepOf("", false, "drep_always_abstain") != "drep_always_abstain" || DRepOf(hexOf(raw[1:]), false, "x") != cip129 {
		t.Error("DRepOf does not give the canonical id")
	}
	for _, bad := range []string{"", "drep1", cip129[:len(cip129)-1] + "x", "pool1" + cip129[5:], "drep_always", hexOf(raw[1:])} {
		if _, err := CanonicalItem(KindDRep, bad, true); err != ErrItemDRep {
			t.Errorf("drep %q: %v", bad, err)
		}
	}
	const poolHex = "0f292fcaa02b8b2f9b3c8f9fd8e0bb21abedb692a6d5058df3ef2735"
	const poolBech = "pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy"
	for _, in := range []string{poolHex, poolBech} {
		if it, err := CanonicalItem(KindPool, in, true); err != nil || it.Value != poolBech {
			t.Errorf("pool %s: %+v %v", in, it, err)
		}
	}
	if _, err := CanonicalItem(KindPool, cip129, true); err != ErrItemPool {
		t.Errorf("a DRep as a pool: %v", err)
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
