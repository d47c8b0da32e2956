package cardano

import (
	"encoding/hex"
	"errors"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/btcsuite/btcd/btcutil/bech32"
)

// ErrInvalidPoolID: the pool id is neither bech32 pool1… nor 56 hex.
var ErrInvalidPoolID = errors.New("cardano: invalid pool id")

// PoolID is a stake pool's 28-byte key hash (pool_hash.hash_raw).
type PoolID [28]byte

// ParsePoolID accepts a bech32 pool id (human-readable part "pool", all
// lower or all upper case, 28-byte payload) or 56 hex characters (either
// case). gouroboros' NewPoolIdFromBech32 ignores the human-readable part,
// so it is checked here: stake1…, script1…, pool_vrf1… are rejected.
func ParsePoolID(s string) (PoolID, error) {
	var p PoolID
	if len(s) == 2*len(p) {
		if n, err := hex.Decode(p[:], []byte(s)); err == nil && n == len(p) {
			return p, nil
		}
	}
	if len(s) > 120 {
		return PoolID{}, ErrInvalidPoolID
	}
	hrp, data, err := bech32.DecodeNoLimit(s)
	if err != nil || hrp != "pool" {
		return PoolID{}, ErrInvalidPoolID
	}
	raw, err := bech32.ConvertBits(data, 5, 8, false)
	if err != nil || len(raw) != len(p) {
		return PoolID{}, ErrInvalidPoolID
	}
	copy(p[:], raw)
	return p, nil
}

// Hex is the pool id as 56 lower-case hex characters.
func (p PoolID) Hex() string { return hex.EncodeToString(p[:]) }

// String is the bech32 pool1… form.
func (p PoolID) String() string { return common.PoolId(p).String() }
