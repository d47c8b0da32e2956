package cardano

import (
	"encoding/hex"
	"errors"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

// ErrInvalidCredential: the payment credential is neither bech32
// addr_vkh1…/script1… nor 56 hex characters.
var ErrInvalidCredential = errors.New("cardano: invalid payment credential")

// PaymentCredential is the 28-byte payment part of an address: a key hash
// or a script hash (tx_out.payment_cred). It carries no network.
type PaymentCredential [28]byte

// ParsePaymentCredential accepts bech32 addr_vkh1… (key hash) or script1…
// (script hash), all lower or all upper case, with a 28-byte payload, or
// 56 hex characters (either case). Other human-readable parts (stake_vkh,
// pool, addr_shared_vkh…) are rejected: they are not payment credentials.
func ParsePaymentCredential(s string) (PaymentCredential, error) {
	var cred PaymentCredential
	if len(s) == 2*len(cred) {
		if n, err := hex.Decode(cred[:], []byte(s)); err == nil && n == len(cred) {
			return cred, nil
		}
	}
	if len(s) > 120 {
		return PaymentCredential{}, ErrInvalidCredential
	}
	hrp, data, err := bech32.DecodeNoLimit(s)
	if err != nil || (hrp != "addr_vkh" && hrp != "script") {
		return PaymentCredential{}, ErrInvalidCredential
	}
	raw, err := bech32.ConvertBits(data, 5, 8, false)
	if err != nil || len(raw) != len(cred) {
		return PaymentCredential{}, ErrInvalidCredential
	}
	copy(cred[:], raw)
	return cred, nil
}

// Hex is the credential as 56 lower-case hex characters.
func (p PaymentCredential) Hex() string { return hex.EncodeToString(p[:]) }
