package cardano

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/btcsuite/btcd/btcutil/bech32"
)

// Identifier parse errors. Handlers turn each into the spec's 400 message.
var (
	ErrInvalidAddress  = errors.New("cardano: invalid address")
	ErrInvalidStakeKey = errors.New("cardano: invalid stake key")
	ErrInvalidTxHash   = errors.New("cardano: invalid transaction hash")
)

// maxAddressLen bounds what we hand to the decoders. Real Byron addresses
// reach about 8 KB of base58 (db-sync stores them); nothing valid is longer.
const maxAddressLen = 16 << 10

// Address is a payment address accepted for the caller's network, in the
// exact text db-sync stores in tx_out.address.
type Address struct{ text string }

// String returns the address as db-sync stores it.
func (a Address) String() string { return a.text }

// ParseAddress accepts a Shelley payment address in bech32 (addr1… on
// mainnet, addr_test1… on testnets; all-lower or all-upper case) or a Byron
// address in base58 whose network matches. Stake (reward) addresses, the
// other network's addresses, Byron payloads written in bech32 and anything
// undecodable are ErrInvalidAddress.
func ParseAddress(s string, mainnet bool) (addr Address, err error) {
	if s == "" || len(s) > maxAddressLen {
		return Address{}, ErrInvalidAddress
	}
	// bech32 text is decoded once here (gouroboros' NewAddress would decode
	// it again: 3 % of a cold UTxO request's CPU); anything else goes to
	// NewAddress, which reads base58.
	var a common.Address
	hrp, data, derr := bech32.DecodeNoLimit(s)
	isBech32 := derr == nil
	if isBech32 {
		raw, err := bech32.ConvertBits(data, 5, 8, false)
		if err != nil {
			return Address{}, ErrInvalidAddress
		}
		if a, err = addressFromBytes(raw); err != nil || !strings.EqualFold(hrp, paymentHRP(mainnet)) {
			return Address{}, ErrInvalidAddress
		}
	} else if a, err = decodeAddress(s); err != nil {
		return Address{}, ErrInvalidAddress
	}
	switch t := a.Type(); {
	case t == common.AddressTypeNoneKey || t == common.AddressTypeNoneScript:
		return Address{}, ErrInvalidAddress // a stake address is not a payment address
	case isBech32 && t == common.AddressTypeByron, !isBech32 && t != common.AddressTypeByron:
		// Byron must be base58; base58 text that happens to decode to a
		// Shelley header is not an address anyone wrote.
		return Address{}, ErrInvalidAddress
	}
	if !networkMatches(a, mainnet) {
		return Address{}, ErrInvalidAddress
	}
	if isBech32 {
		// bech32 is case-insensitive (all one case); db-sync stores lower case.
		return Address{text: strings.ToLower(s)}, nil
	}
	// base58 is case-sensitive and db-sync stores the text as it appeared
	// on chain; re-encoding a Byron address need not give the same bytes.
	return Address{text: s}, nil
}

// StakeKey is a reward account accepted for the caller's network: the
// candidate stake_address.hash_raw values (header byte + 28-byte
// credential), in order of preference.
type StakeKey struct{ candidates [][]byte }

// Candidates returns the hash_raw values to look up, preferred first.
func (k StakeKey) Candidates() [][]byte { return k.candidates }

// ParseStakeKey accepts a bech32 stake address (stake1… on mainnet,
// stake_test1… on testnets) or a 56-hex stake credential. A bare credential
// does not say whether it is a key or a script hash, so both reward
// addresses are candidates, the key one (header e1/e0) first and the script
// one (f1/f0) second; the query uses whichever exists.
func ParseStakeKey(s string, mainnet bool) (StakeKey, error) {
	if len(s) == 2*common.AddressHashSize {
		cred, err := hex.DecodeString(s)
		if err != nil {
			return StakeKey{}, ErrInvalidStakeKey
		}
		var net byte = common.AddressNetworkTestnet
		if mainnet {
			net = common.AddressNetworkMainnet
		}
		key := append([]byte{common.AddressTypeNoneKey<<4 | net}, cred...)
		script := append([]byte{common.AddressTypeNoneScript<<4 | net}, cred...)
		return StakeKey{candidates: [][]byte{key, script}}, nil
	}
	if s == "" || len(s) > 200 {
		return StakeKey{}, ErrInvalidStakeKey
	}
	if _, _, err := bech32.DecodeNoLimit(s); err != nil {
		return StakeKey{}, ErrInvalidStakeKey
	}
	a, err := decodeAddress(s)
	if err != nil {
		return StakeKey{}, ErrInvalidStakeKey
	}
	if t := a.Type(); t != common.AddressTypeNoneKey && t != common.AddressTypeNoneScript {
		return StakeKey{}, ErrInvalidStakeKey
	}
	if !networkMatches(a, mainnet) {
		return StakeKey{}, ErrInvalidStakeKey
	}
	raw, err := a.Bytes()
	if err != nil || len(raw) != 1+common.AddressHashSize {
		return StakeKey{}, ErrInvalidStakeKey
	}
	return StakeKey{candidates: [][]byte{raw}}, nil
}

// TxHash is a 32-byte transaction id.
type TxHash [32]byte

// String returns the hash as 64 lower-case hex characters.
func (h TxHash) String() string { return hex.EncodeToString(h[:]) }

// ParseTxHash accepts exactly 64 hex characters (either case).
func ParseTxHash(s string) (TxHash, error) {
	var h TxHash
	if len(s) != 64 {
		return h, ErrInvalidTxHash
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return h, ErrInvalidTxHash
	}
	return h, nil
}

// decodeAddress wraps common.NewAddress: its CBOR path (Byron) and its
// String/Bytes helpers panic on some malformed inputs, and user input must
// never take a request down.
func decodeAddress(s string) (a common.Address, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("address decoder panicked: %v", r)
		}
	}()
	a, err = common.NewAddress(s)
	if err == nil {
		_, err = a.Bytes() // Byron re-encoding can fail on odd attributes
	}
	return a, err
}

// addressFromBytes is decodeAddress for an address's raw bytes.
func addressFromBytes(raw []byte) (a common.Address, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("address decoder panicked: %v", r)
		}
	}()
	a, err = common.NewAddressFromBytes(raw)
	if err == nil {
		_, err = a.Bytes()
	}
	return a, err
}

// paymentHRP is the human-readable part of a payment address on the
// caller's network.
func paymentHRP(mainnet bool) string {
	if mainnet {
		return "addr"
	}
	return "addr_test"
}

// networkMatches compares the address's network tag with the caller's
// network (a Byron address is mainnet unless it carries a network magic).
func networkMatches(a common.Address, mainnet bool) bool {
	if mainnet {
		return a.NetworkId() == common.AddressNetworkMainnet
	}
	return a.NetworkId() == common.AddressNetworkTestnet
}

// Bech32 is the stake address of the preferred candidate (the key
// credential for a bare 56-hex credential): what an account never seen on
// chain is answered as.
func (k StakeKey) Bech32() string { return stakeBech32(k.candidates[0]) }

// CandidateAddresses returns the bech32 stake address of every candidate,
// preferred first: db-sync's stake_address.view of each.
func (k StakeKey) CandidateAddresses() []string {
	out := make([]string, len(k.candidates))
	for i, raw := range k.candidates {
		out[i] = stakeBech32(raw)
	}
	return out
}

// stakeBech32 spells reward-address bytes in bech32 ("" when they cannot
// be: never for a parsed key's candidates).
func stakeBech32(raw []byte) string {
	hrp := "stake_test"
	if raw[0]&0x0f == 1 {
		hrp = "stake"
	}
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

// OwnParts is what the address's own bytes say of it, with no chain read:
// whether its payment part is a script, and the stake address its stake
// part names in bech32 ("" for none: an enterprise or Byron address).
// ok is false for a pointer address (only the chain resolves a pointer)
// and for text that does not decode.
func (a Address) OwnParts() (script bool, stake string, ok bool) {
	if !strings.HasPrefix(a.text, "addr") {
		return false, "", true // Byron: base58, no script payment, no stake part
	}
	_, data, err := bech32.DecodeNoLimit(a.text)
	if err != nil {
		return false, "", false
	}
	raw, err := bech32.ConvertBits(data, 5, 8, false)
	if err != nil || len(raw) < 29 {
		return false, "", false
	}
	kind := raw[0] >> 4
	script = kind&1 == 1
	switch {
	case kind <= 3 && len(raw) == 57: // base: key or script stake credential written out
		reward := make([]byte, 29)
		reward[0] = 0xe0 | (kind&2)<<3 | raw[0]&0x0f
		copy(reward[1:], raw[29:])
		return script, stakeBech32(reward), true
	case kind == 6 || kind == 7: // enterprise
		return script, "", true
	}
	return false, "", false
}
