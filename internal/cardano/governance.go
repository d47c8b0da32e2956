package cardano

import (
	"encoding/hex"
	"errors"
	"strings"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

// Governance identifiers: DReps (CIP-105 and CIP-129), governance actions
// (CIP-129 gov_action1…) and constitutional committee credentials
// (CIP-129 cc_hot1… / cc_cold1…).
var (
	ErrInvalidDRepID      = errors.New("cardano: invalid drep id")
	ErrInvalidGovActionID = errors.New("cardano: invalid governance action id")
	ErrInvalidCommitteeID = errors.New("cardano: invalid committee credential")
)

// The two predefined DReps, as db-sync names them in drep_hash.view.
const (
	DRepAlwaysAbstain      = "drep_always_abstain"
	DRepAlwaysNoConfidence = "drep_always_no_confidence"
)

// CIP-129 header nibbles: the key type (high) and the credential type
// (low) of a governance credential's first byte.
const (
	keyTypeCCHot  = 0x0
	keyTypeCCCold = 0x1
	keyTypeDRep   = 0x2
	credKeyHash   = 0x2
	credScript    = 0x3
)

// DRepID is a DRep: a predefined one (Special set) or a credential's
// 28-byte hash, a script's or a key's. CIP129 records that the client
// wrote it with CIP-129's header byte, which Blockfrost answers in kind.
type DRepID struct {
	Special string
	Hash    [28]byte
	Script  bool
	CIP129  bool
}

// ParseDRepID accepts drep_always_abstain, drep_always_no_confidence,
// CIP-105 bech32 (drep1… of a key hash, drep_script1… of a script hash),
// CIP-129 bech32 (drep1… of the header byte and the hash), and hex of
// either payload (56 characters: a key hash; 58: CIP-129).
func ParseDRepID(s string) (DRepID, error) {
	if s == DRepAlwaysAbstain || s == DRepAlwaysNoConfidence {
		return DRepID{Special: s}, nil
	}
	var raw []byte
	script := false
	b, herr := hex.DecodeString(s)
	switch {
	case herr == nil && (len(b) == 28 || len(b) == 29):
		raw = b
	case len(s) > 120:
		return DRepID{}, ErrInvalidDRepID
	default:
		hrp, b, err := decodeBech32(s)
		if err != nil || (hrp != "drep" && hrp != "drep_script") {
			return DRepID{}, ErrInvalidDRepID
		}
		raw, script = b, hrp == "drep_script"
		if script && len(raw) != 28 {
			return DRepID{}, ErrInvalidDRepID
		}
	}
	var d DRepID
	switch len(raw) {
	case 28:
		d.Script = script
		copy(d.Hash[:], raw)
	case 29:
		if raw[0]>>4 != keyTypeDRep {
			return DRepID{}, ErrInvalidDRepID
		}
		switch raw[0] & 0x0f {
		case credKeyHash:
		case credScript:
			d.Script = true
		default:
			return DRepID{}, ErrInvalidDRepID
		}
		d.CIP129 = true
		copy(d.Hash[:], raw[1:])
	default:
		return DRepID{}, ErrInvalidDRepID
	}
	return d, nil
}

// CIP105 is the DRep's db-sync view: drep1…/drep_script1… of the hash, or
// the predefined DRep's name.
func (d DRepID) CIP105() string {
	if d.Special != "" {
		return d.Special
	}
	hrp := "drep"
	if d.Script {
		hrp = "drep_script"
	}
	return encodeBech32(hrp, d.Hash[:])
}

// CIP129Bytes is the header byte and the hash (nil for a predefined DRep).
func (d DRepID) CIP129Bytes() []byte {
	if d.Special != "" {
		return nil
	}
	return append([]byte{header(keyTypeDRep, d.Script)}, d.Hash[:]...)
}

// CIP129String is drep1… of the header byte and the hash, or the
// predefined DRep's name.
func (d DRepID) CIP129String() string {
	if d.Special != "" {
		return d.Special
	}
	return encodeBech32("drep", d.CIP129Bytes())
}

// DRepCIP129 spells a DRep of db-sync's drep_hash (raw hash, has_script)
// in CIP-129.
func DRepCIP129(raw []byte, script bool) string {
	return encodeBech32("drep", append([]byte{header(keyTypeDRep, script)}, raw...))
}

// GovActionID is a governance action: its proposal transaction and the
// proposal's index in it.
type GovActionID struct {
	TxHash [32]byte
	Index  uint32
}

// ParseGovActionID accepts CIP-129 gov_action1…: the transaction hash and
// the index in big-endian bytes (none for index 0, at most four).
func ParseGovActionID(s string) (GovActionID, error) {
	var g GovActionID
	if len(s) > 120 {
		return g, ErrInvalidGovActionID
	}
	hrp, raw, err := decodeBech32(s)
	if err != nil || hrp != "gov_action" || len(raw) < 32 || len(raw) > 36 {
		return g, ErrInvalidGovActionID
	}
	copy(g.TxHash[:], raw)
	for _, b := range raw[32:] {
		g.Index = g.Index<<8 | uint32(b)
	}
	return g, nil
}

// String is the CIP-129 id: the transaction hash and the index in the
// fewest big-endian bytes (one for index 0), as Blockfrost writes it.
func (g GovActionID) String() string {
	idx := []byte{}
	for n := g.Index; n > 0; n >>= 8 {
		idx = append([]byte{byte(n)}, idx...)
	}
	if len(idx) == 0 {
		idx = []byte{0}
	}
	return encodeBech32("gov_action", append(g.TxHash[:], idx...))
}

// GovActionString is the CIP-129 id of the proposal (hex transaction
// hash, index), "" when the hash is not 32 bytes of hex.
func GovActionString(txHash string, index uint32) string {
	b, err := hex.DecodeString(txHash)
	if err != nil || len(b) != 32 {
		return ""
	}
	g := GovActionID{Index: index}
	copy(g.TxHash[:], b)
	return g.String()
}

// CommitteeID is a constitutional committee credential: a hot or a cold
// one, a key's or a script's 28-byte hash.
type CommitteeID struct {
	Hot    bool
	Hash   [28]byte
	Script bool
}

// ParseCommitteeID accepts CIP-129 cc_hot1… and cc_cold1… (the header
// byte's key type must agree with the prefix).
func ParseCommitteeID(s string) (CommitteeID, error) {
	var c CommitteeID
	if len(s) > 120 {
		return c, ErrInvalidCommitteeID
	}
	hrp, raw, err := decodeBech32(s)
	if err != nil || (hrp != "cc_hot" && hrp != "cc_cold") || len(raw) != 29 {
		return c, ErrInvalidCommitteeID
	}
	c.Hot = hrp == "cc_hot"
	want := byte(keyTypeCCCold)
	if c.Hot {
		want = keyTypeCCHot
	}
	if raw[0]>>4 != want {
		return c, ErrInvalidCommitteeID
	}
	switch raw[0] & 0x0f {
	case credKeyHash:
	case credScript:
		c.Script = true
	default:
		return c, ErrInvalidCommitteeID
	}
	copy(c.Hash[:], raw[1:])
	return c, nil
}

// CommitteeString spells a committee credential (raw hash, has_script)
// as CIP-129 cc_hot1… or cc_cold1….
func CommitteeString(hot bool, raw []byte, script bool) string {
	kt, hrp := byte(keyTypeCCCold), "cc_cold"
	if hot {
		kt, hrp = keyTypeCCHot, "cc_hot"
	}
	return encodeBech32(hrp, append([]byte{header(kt, script)}, raw...))
}

func header(keyType byte, script bool) byte {
	if script {
		return keyType<<4 | credScript
	}
	return keyType<<4 | credKeyHash
}

// decodeBech32 decodes bech32 text (one case) into its prefix and bytes.
func decodeBech32(s string) (string, []byte, error) {
	if s != strings.ToLower(s) && s != strings.ToUpper(s) {
		return "", nil, errors.New("mixed case")
	}
	hrp, data, err := bech32.DecodeNoLimit(s)
	if err != nil {
		return "", nil, err
	}
	raw, err := bech32.ConvertBits(data, 5, 8, false)
	if err != nil {
		return "", nil, err
	}
	return strings.ToLower(hrp), raw, nil
}

func encodeBech32(hrp string, raw []byte) string {
	data, err := bech32.ConvertBits(raw, 8, 5, true)
	if err != nil {
		return ""
	}
	s, err := bech32.Encode(hrp, data)
	if err != nil {
		return ""
	}
	return s
}
