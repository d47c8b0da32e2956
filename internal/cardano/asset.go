package cardano

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blinklabs-io/gouroboros/ledger/common"
)

// ErrInvalidAssetID: the asset identifier is not <56 hex>.<0–64 hex>.
var ErrInvalidAssetID = errors.New("cardano: invalid asset identifier")

// Asset id limits (the ledger's): a policy id is 28 bytes, a name 0–32 bytes.
const (
	policyIDSize     = 28
	maxAssetNameSize = 32
)

// AssetID names a native asset: its minting policy and its name bytes.
type AssetID struct {
	Policy [policyIDSize]byte
	Name   []byte
}

// ParseAssetID accepts "<policy_id>.<asset_name>": 56 hex characters, a
// dot, and 0 to 64 hex characters of even length (an empty name is written
// as a trailing dot). Upper-case hex is accepted and normalised. Anything
// else, including the dot-less "unit" form, is ErrInvalidAssetID.
func ParseAssetID(s string) (AssetID, error) {
	policy, name, found := strings.Cut(s, ".")
	if !found || len(policy) != 2*policyIDSize || len(name) > 2*maxAssetNameSize || len(name)%2 != 0 {
		return AssetID{}, ErrInvalidAssetID
	}
	var id AssetID
	if n, err := hex.Decode(id.Policy[:], []byte(policy)); err != nil || n != policyIDSize {
		return AssetID{}, ErrInvalidAssetID
	}
	nb, err := hex.DecodeString(name)
	if err != nil {
		return AssetID{}, ErrInvalidAssetID
	}
	id.Name = nb
	return id, nil
}

// PolicyHex is the policy id as 56 lower-case hex characters.
func (a AssetID) PolicyHex() string { return hex.EncodeToString(a.Policy[:]) }

// NameHex is the asset name as lower-case hex (possibly empty).
func (a AssetID) NameHex() string { return hex.EncodeToString(a.Name) }

// String is the canonical "<policy>.<name>" form.
func (a AssetID) String() string { return a.PolicyHex() + "." + a.NameHex() }

// Unit is policy hex followed by name hex, the CIP-26 registry subject.
func (a AssetID) Unit() string { return a.PolicyHex() + a.NameHex() }

// Fingerprint is the CIP-14 asset fingerprint (asset1…).
func (a AssetID) Fingerprint() string {
	return common.NewAssetFingerprint(a.Policy[:], a.Name).String()
}

// NameText is the asset name as text when the bytes are valid UTF-8 made
// only of printable characters (letters, marks, numbers, punctuation,
// symbols and the ASCII space); otherwise ok is false. Control characters
// (NUL, tabs, newlines…) and invalid UTF-8 never produce text, so the
// CIP-67 label prefixes (000de140…) make a CIP-68 name non-textual. An
// empty name is the empty text.
func (a AssetID) NameText() (text string, ok bool) {
	if !utf8.Valid(a.Name) {
		return "", false
	}
	s := string(a.Name)
	for _, r := range s {
		if r != ' ' && !unicode.IsPrint(r) {
			return "", false
		}
	}
	return s, true
}

// CIP-67 asset name label prefixes (4 bytes each) used by CIP-68.
var (
	cip67Reference = []byte{0x00, 0x06, 0x43, 0xb0} // (100) reference NFT
	cip67NFT       = []byte{0x00, 0x0d, 0xe1, 0x40} // (222) NFT
	cip67FT        = []byte{0x00, 0x14, 0xdf, 0x10} // (333) FT
	cip67RFT       = []byte{0x00, 0x1b, 0xc2, 0x80} // (444) RFT
)

// CIP68Reference returns the reference NFT (label 100, same policy, same
// name suffix) of a CIP-68 user token (label 222, 333 or 444). ok is false
// for every other asset, including a reference NFT itself.
func (a AssetID) CIP68Reference() (ref AssetID, ok bool) {
	if len(a.Name) < 4 {
		return AssetID{}, false
	}
	prefix := a.Name[:4]
	if !bytes.Equal(prefix, cip67NFT) && !bytes.Equal(prefix, cip67FT) && !bytes.Equal(prefix, cip67RFT) {
		return AssetID{}, false
	}
	name := make([]byte, 0, len(a.Name))
	name = append(name, cip67Reference...)
	name = append(name, a.Name[4:]...)
	return AssetID{Policy: a.Policy, Name: name}, true
}
