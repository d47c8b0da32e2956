package cardano

import (
	"encoding/hex"
	"strings"
	"testing"
)

// A DRep's three spellings (CIP-105, CIP-129, hex) name one DRep.
func TestParseDRepIDForms(t *testing.T) {
	const (
		cip105 = "drep1fcwj52pvrep5luusk0068v3pha84h5758w0tx8hgjr7q7k9e55q"
		cip129 = "drep1yf8p623g9s0yxnlnjzealgajyxl57k7n6saeavc7azg0crcahnul9"
		hash   = "4e1d2a282c1e434ff390b3dfa3b221bf4f5bd3d43b9eb31ee890fc0f"
	)
	for _, s := range []string{cip105, cip129, hash, "22" + hash, strings.ToUpper(cip105)} {
		d, err := ParseDRepID(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if hex.EncodeToString(d.Hash[:]) != hash || d.Script || d.CIP105() != cip105 || d.CIP129String() != cip129 {
			t.Errorf("%s: %+v %s %s", s, d, d.CIP105(), d.CIP129String())
		}
		if d.CIP129 != (s == cip129 || len(s) == 58) {
			t.Errorf("%s: CIP129 %v", s, d.CIP129)
		}
	}
	// A script DRep: drep_script1… (CIP-105) and drep1… with header 0x23.
	var h [28]byte
	h[0] = 7
	script := DRepID{Hash: h, Script: true}
	for _, s := range []string{script.CIP105(), script.CIP129String(), "23" + hex.EncodeToString(h[:])} {
		d, err := ParseDRepID(s)
		if err != nil || !d.Script || d.Hash != h {
			t.Errorf("%s: %+v %v", s, d, err)
		}
	}
	if !strings.HasPrefix(script.CIP105(), "drep_script1") || DRepCIP129(h[:], true) != script.CIP129String() {
		t.Errorf("script spellings %s %s", script.CIP105(), script.CIP129String())
	}
	for _, s := range []string{DRepAlwaysAbstain, DRepAlwaysNoConfidence} {
		if d, err := ParseDRepID(s); err != nil || d.Special != s || d.CIP105() != s || d.CIP129String() != s {
			t.Errorf("%s: %+v %v", s, d, err)
		}
	}
}

func TestParseDRepIDRefusals(t *testing.T) {
	var h [28]byte
	cc := CommitteeString(true, h[:], false)
	for _, s := range []string{"", "drep", "drep1", "drep_always_yes", "pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy",
		"zz" + strings.Repeat("0", 54), "12" + strings.Repeat("0", 56), "2" + strings.Repeat("0", 56), cc,
		encodeBech32("drep", append([]byte{0x24}, h[:]...)), encodeBech32("drep_script", append([]byte{0x23}, h[:]...)),
		encodeBech32("drep", h[:27]), "Drep1fcwj52pvrep5luusk0068v3pha84h5758w0tx8hgjr7q7k9e55q", strings.Repeat("q", 200)} {
		if d, err := ParseDRepID(s); err == nil {
			t.Errorf("%q accepted: %+v", s, d)
		}
	}
}

// Blockfrost's document's examples parse, and an id spelt again is the id.
func TestGovActionID(t *testing.T) {
	const example = "gov_action1zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygsq6dmejn"
	g, err := ParseGovActionID(example)
	if err != nil || g.String() != example || g.Index != 0 || g.TxHash[0] != 0x11 {
		t.Fatalf("%+v %v %s", g, err, g.String())
	}
	for _, idx := range []uint32{0, 1, 255, 256, 70000} {
		g.Index = idx
		back, err := ParseGovActionID(g.String())
		if err != nil || back != g {
			t.Errorf("%d: %+v %v", idx, back, err)
		}
		if GovActionString(hex.EncodeToString(g.TxHash[:]), idx) != g.String() {
			t.Errorf("%d: GovActionString differs", idx)
		}
	}
	// 32 bytes only: index 0 (Blockfrost reads the empty index as 0).
	if g, err := ParseGovActionID(encodeBech32("gov_action", make([]byte, 32))); err != nil || g.Index != 0 {
		t.Errorf("bare hash: %+v %v", g, err)
	}
	for _, s := range []string{"", "gov_action1", encodeBech32("gov_action", make([]byte, 31)),
		encodeBech32("gov_action", make([]byte, 37)), encodeBech32("drep", make([]byte, 33)), example[:len(example)-1] + "x"} {
		if _, err := ParseGovActionID(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestCommitteeID(t *testing.T) {
	// (Blockfrost's document's cc_hot1… example fails its own checksum.)
	var h [28]byte
	h[3] = 9
	example := CommitteeString(true, h[:], false)
	c, err := ParseCommitteeID(example)
	if err != nil || !c.Hot || c.Hash != h || CommitteeString(true, c.Hash[:], c.Script) != example {
		t.Fatalf("%+v %v", c, err)
	}
	cold := CommitteeString(false, c.Hash[:], true)
	if c2, err := ParseCommitteeID(cold); err != nil || c2.Hot || !c2.Script || c2.Hash != c.Hash {
		t.Errorf("%s: %+v %v", cold, c2, err)
	}
	for _, s := range []string{"", "cc_hot1", encodeBech32("cc_hot", append([]byte{0x12}, c.Hash[:]...)),
		encodeBech32("cc_cold", append([]byte{0x02}, c.Hash[:]...)), encodeBech32("cc_hot", c.Hash[:]),
		encodeBech32("cc_hot", append([]byte{0x05}, c.Hash[:]...))} {
		if _, err := ParseCommitteeID(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}
