package cardano

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	"filippo.io/edwards25519"
	"github.com/btcsuite/btcd/btcutil/bech32"
	"golang.org/x/crypto/blake2b"
)

// Errors of account-key derivation. Each wraps into a message that says
// what was wrong; handlers match them with errors.Is.
var (
	ErrInvalidXpub  = errors.New("cardano: invalid account public key")
	ErrInvalidRole  = errors.New("cardano: invalid derivation role")
	ErrInvalidIndex = errors.New("cardano: invalid derivation index")
)

// CIP-1852 roles below an account key.
const (
	RoleExternal uint32 = 0 // receiving addresses
	RoleInternal uint32 = 1 // change addresses
	RoleStake    uint32 = 2 // stake keys
)

// MaxSoftIndex is the largest soft (non-hardened) derivation index: a
// public key cannot derive hardened children (2^31 and above).
const MaxSoftIndex uint32 = 1<<31 - 1

// xpubHexLen is the only form Blockfrost's /utils/addresses/xpub accepts:
// 32-byte Ed25519 public key then 32-byte chain code, in hex.
const xpubHexLen = 128

// Xpub is a BIP32-Ed25519 extended public key: an Ed25519 public key and
// the chain code its children are derived with.
type Xpub struct {
	Key       [32]byte
	ChainCode [32]byte
}

// KeyHash is the blake2b-224 hash of an Ed25519 public key: the payment
// or stake credential an address carries.
type KeyHash [28]byte

// Hex is the hash as 56 lower-case hex characters.
func (h KeyHash) Hex() string { return hex.EncodeToString(h[:]) }

// ParseAccountXpub accepts an account-level extended public key
// (m/1852'/1815'/account') as 128 hex characters, either case, as
// Blockfrost does; bech32 acct_xvk…/xpub… are not accepted there, so not
// here either. The public key must be a point on the curve, or no child
// can be derived from it.
func ParseAccountXpub(s string) (Xpub, error) {
	var x Xpub
	if len(s) != xpubHexLen {
		return Xpub{}, fmt.Errorf("%w: want %d hex characters, got %d characters", ErrInvalidXpub, xpubHexLen, len(s))
	}
	var raw [64]byte
	if _, err := hex.Decode(raw[:], []byte(s)); err != nil {
		return Xpub{}, fmt.Errorf("%w: not hex", ErrInvalidXpub)
	}
	copy(x.Key[:], raw[:32])
	copy(x.ChainCode[:], raw[32:])
	if _, err := new(edwards25519.Point).SetBytes(x.Key[:]); err != nil {
		return Xpub{}, fmt.Errorf("%w: the public key is not a curve point", ErrInvalidXpub)
	}
	return x, nil
}

// Hex is the key then the chain code, 128 lower-case hex characters.
func (x Xpub) Hex() string { return hex.EncodeToString(x.Key[:]) + hex.EncodeToString(x.ChainCode[:]) }

// Hash is the key hash of the public key.
func (x Xpub) Hash() KeyHash {
	var h KeyHash
	d, _ := blake2b.New(len(h), nil) // only fails for a bad size or key
	d.Write(x.Key[:])
	copy(h[:], d.Sum(nil))
	return h
}

// Derive returns the key at role/index below an account key (the last
// two, soft, steps of m/1852'/1815'/account'/role/index). Roles are not
// limited to CIP-1852's 0–2 (CIP-105 adds 3–5, and Blockfrost takes any
// soft role); both must be at most MaxSoftIndex.
func (x Xpub) Derive(role, index uint32) (Xpub, error) {
	if role > MaxSoftIndex {
		return Xpub{}, fmt.Errorf("%w: %d is hardened; a public key derives only 0..%d", ErrInvalidRole, role, MaxSoftIndex)
	}
	if index > MaxSoftIndex {
		return Xpub{}, fmt.Errorf("%w: %d is hardened; a public key derives only 0..%d", ErrInvalidIndex, index, MaxSoftIndex)
	}
	r, err := x.child(role)
	if err != nil {
		return Xpub{}, err
	}
	return r.child(index)
}

// KeyHash is the key hash at role/index below an account key: with
// RoleExternal or RoleInternal a payment credential, with RoleStake a
// stake credential.
func (x Xpub) KeyHash(role, index uint32) (KeyHash, error) {
	k, err := x.Derive(role, index)
	if err != nil {
		return KeyHash{}, err
	}
	return k.Hash(), nil
}

// StakeKeyHash is the account's first stake key hash (role 2, index 0):
// the stake part of the account's base addresses.
func (x Xpub) StakeKeyHash() (KeyHash, error) { return x.KeyHash(RoleStake, 0) }

// child is BIP32-Ed25519 soft public derivation as Cardano uses it
// (Khovratovich–Law, the "V2" scheme: index little-endian, 28 bytes of
// Z, child key A + 8·ZL·B). index must be soft; the callers check.
func (x Xpub) child(index uint32) (Xpub, error) {
	parent, err := new(edwards25519.Point).SetBytes(x.Key[:])
	if err != nil {
		return Xpub{}, fmt.Errorf("%w: the public key is not a curve point", ErrInvalidXpub)
	}
	var msg [1 + 32 + 4]byte
	copy(msg[1:], x.Key[:])
	binary.LittleEndian.PutUint32(msg[33:], index)

	msg[0] = 0x02 // tag of the key's tweak
	mac := hmac.New(sha512.New, x.ChainCode[:])
	mac.Write(msg[:])
	z := mac.Sum(nil)

	// 8·ZL, ZL the first 28 bytes little-endian: below 2^227, so a
	// canonical scalar (the group order is about 2^252).
	var s [32]byte
	var carry byte
	for i := 0; i < 28; i++ {
		s[i] = z[i]<<3 | carry
		carry = z[i] >> 5
	}
	s[28] = carry
	tweak, err := edwards25519.NewScalar().SetCanonicalBytes(s[:])
	if err != nil {
		return Xpub{}, fmt.Errorf("cardano: derivation scalar: %w", err) // cannot happen: 8·ZL < 2^227
	}
	childKey := new(edwards25519.Point).ScalarBaseMult(tweak)
	childKey.Add(parent, childKey)

	msg[0] = 0x03 // tag of the chain code
	mac = hmac.New(sha512.New, x.ChainCode[:])
	mac.Write(msg[:])
	cc := mac.Sum(nil)

	var out Xpub
	copy(out.Key[:], childKey.Bytes())
	copy(out.ChainCode[:], cc[32:])
	return out, nil
}

// DeriveAddress is the address Blockfrost's GET
// /utils/addresses/xpub/{xpub}/{role}/{index} answers for an account key
// on the caller's network: for RoleStake the reward address of the stake
// key at 2/index; for any other role the base address whose payment key is
// at role/index and whose stake key is the account's first (2/0).
func DeriveAddress(account Xpub, role, index uint32, net Network) (string, error) {
	k, err := account.Derive(role, index)
	if err != nil {
		return "", err
	}
	var netTag byte // Shelley header network: 1 on mainnet, 0 on the testnets
	if net.Mainnet {
		netTag = 1
	}
	if role == RoleStake {
		h := k.Hash()
		return stakeBech32(append([]byte{0xe0 | netTag}, h[:]...)), nil
	}
	stake, err := account.StakeKeyHash()
	if err != nil {
		return "", err
	}
	pay := k.Hash()
	raw := make([]byte, 0, 1+2*len(pay))
	raw = append(raw, 0x00|netTag) // type 0: key payment, key stake
	raw = append(raw, pay[:]...)
	raw = append(raw, stake[:]...)
	data, err := bech32.ConvertBits(raw, 8, 5, true)
	if err != nil {
		return "", fmt.Errorf("cardano: base address: %w", err)
	}
	addr, err := bech32.Encode(paymentHRP(net.Mainnet), data)
	if err != nil {
		return "", fmt.Errorf("cardano: base address: %w", err)
	}
	return addr, nil
}
