package events

import (
	"encoding/hex"
	"strings"

	"github.com/btcsuite/btcd/btcutil/bech32"

	"github.com/syncgate/syncgate/internal/cardano"
)

// The two predefined DReps, as db-sync's drep_hash.view names them.
const (
	DRepAlwaysAbstain      = "drep_always_abstain"
	DRepAlwaysNoConfidence = "drep_always_no_confidence"
)

// CIP-129 header bytes of a DRep id: key hash or script hash.
const (
	drepKeyHeader    = 0x22
	drepScriptHeader = 0x23
)

// CanonicalDRep reads a DRep id: CIP-129 drep1… (header and hash),
// CIP-105 drep1… (a key hash) or drep_script1… (a script hash), or one
// of the predefined DReps; it returns the CIP-129 bech32 (the predefined
// ones as named). ok false: none of these.
func CanonicalDRep(s string) (string, bool) {
	if s == DRepAlwaysAbstain || s == DRepAlwaysNoConfidence {
		return s, true
	}
	if len(s) > 120 || strings.ToLower(s) != s && strings.ToUpper(s) != s {
		return "", false
	}
	hrp, data, err := bech32.DecodeNoLimit(strings.ToLower(s))
	if err != nil {
		return "", false
	}
	raw, err := bech32.ConvertBits(data, 5, 8, false)
	if err != nil {
		return "", false
	}
	switch {
	case hrp == "drep" && len(raw) == 29 && (raw[0] == drepKeyHeader || raw[0] == drepScriptHeader):
		return drepID(raw[1:], raw[0] == drepScriptHeader), true
	case hrp == "drep" && len(raw) == 28:
		return drepID(raw, false), true
	case hrp == "drep_script" && len(raw) == 28:
		return drepID(raw, true), true
	}
	return "", false
}

// DRepOf is the canonical id of a DRep as db-sync stores it: its hash in
// hex and whether it is a script, or (no hash) its view.
func DRepOf(rawHex string, script bool, view string) string {
	raw, err := hex.DecodeString(rawHex)
	if rawHex == "" || err != nil || len(raw) != 28 {
		return view
	}
	return drepID(raw, script)
}

// drepID is the CIP-129 bech32 of a 28-byte DRep hash.
func drepID(hash []byte, script bool) string {
	h := byte(drepKeyHeader)
	if script {
		h = drepScriptHeader
	}
	data, err := bech32.ConvertBits(append([]byte{h}, hash...), 8, 5, true)
	if err != nil {
		return ""
	}
	s, err := bech32.Encode("drep", data)
	if err != nil {
		return ""
	}
	return s
}

// canonicalPool reads a pool id (pool1… or 56 hex) as its bech32.
func canonicalPool(s string) (string, bool) {
	p, err := cardano.ParsePoolID(s)
	if err != nil {
		return "", false
	}
	return p.String(), true
}
