package cardano

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/btcsuite/btcd/btcutil/bech32"
)

// addressVectors is the part of testdata/addresses.json (a copy of
// shared/vectors/addresses.json: CIP-19 and real mainnet addresses) the
// parsers are checked against.
type addressVectors struct {
	CIP19 struct {
		Vectors []struct {
			Network string `json:"network"`
			Type    int    `json:"type"`
			Address string `json:"address"`
			RawHex  string `json:"raw_hex"`
			Stake   string `json:"stake_cred_hex"`
			Derived string `json:"derived_stake_address"`
		} `json:"vectors"`
	} `json:"cip19"`
	Base []struct {
		Address      string `json:"address"`
		StakeAddress string `json:"stake_address"`
		StakeCred    string `json:"stake_credential_hex"`
		StakeRaw     string `json:"stake_address_raw_hex"`
		StakeScript  bool   `json:"stake_is_script"`
	} `json:"mainnet_base_addresses_with_stake"`
	Enterprise []struct {
		Address string `json:"address"`
	} `json:"enterprise_addresses"`
	Byron []struct {
		Address          string `json:"address"`
		NetworkMagicAttr *int64 `json:"network_magic_attr"`
	} `json:"byron_addresses"`
	Unusual []struct {
		Address string `json:"address"`
	} `json:"unusual_but_valid_onchain"`
	PaymentCreds []struct {
		Bech32 string `json:"bech32"`
	} `json:"payment_credentials"`
	Pools []struct {
		PoolID string `json:"pool_id"`
		Hex    string `json:"hex"`
	} `json:"pool_ids"`
	Negative []struct {
		Input string `json:"input"`
	} `json:"negative_cases"`
}

func loadAddressVectors(t *testing.T) addressVectors {
	t.Helper()
	b, err := os.ReadFile("testdata/addresses.json")
	if err != nil {
		t.Fatal(err)
	}
	var v addressVectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.CIP19.Vectors) != 20 || len(v.Base) == 0 || len(v.Byron) == 0 || len(v.Negative) == 0 {
		t.Fatalf("vectors not loaded: %d cip19, %d base, %d byron", len(v.CIP19.Vectors), len(v.Base), len(v.Byron))
	}
	return v
}

func TestParseAddressVectors(t *testing.T) {
	v := loadAddressVectors(t)
	for _, vec := range v.CIP19.Vectors {
		mainnet := vec.Network == "mainnet"
		isStake := vec.Type == 14 || vec.Type == 15
		t.Run(vec.Address, func(t *testing.T) {
			a, err := ParseAddress(vec.Address, mainnet)
			if isStake {
				if !errors.Is(err, ErrInvalidAddress) {
					t.Fatalf("stake address accepted on an address route: %v", err)
				}
				return
			}
			if err != nil || a.String() != vec.Address {
				t.Fatalf("ParseAddress = %q, %v", a, err)
			}
			if _, err := ParseAddress(vec.Address, !mainnet); !errors.Is(err, ErrInvalidAddress) {
				t.Fatalf("other network's address accepted: %v", err)
			}
			// bech32 may be written all upper case; db-sync stores lower case.
			if a, err := ParseAddress(strings.ToUpper(vec.Address), mainnet); err != nil || a.String() != vec.Address {
				t.Fatalf("upper case: %q, %v", a, err)
			}
			mixed := strings.ToUpper(vec.Address[:6]) + vec.Address[6:]
			if _, err := ParseAddress(mixed, mainnet); !errors.Is(err, ErrInvalidAddress) {
				t.Fatalf("mixed case accepted: %v", err)
			}
		})
	}
	var valid []string
	for _, b := range v.Base {
		valid = append(valid, b.Address)
	}
	for _, e := range v.Enterprise {
		valid = append(valid, e.Address)
	}
	for _, u := range v.Unusual {
		if strings.HasPrefix(u.Address, "addr1") {
			valid = append(valid, u.Address)
		}
	}
	for _, s := range valid {
		if a, err := ParseAddress(s, true); err != nil || a.String() != s {
			t.Errorf("mainnet %s: %q, %v", s, a, err)
		}
		if _, err := ParseAddress(s, false); !errors.Is(err, ErrInvalidAddress) {
			t.Errorf("mainnet %s accepted on a testnet: %v", s, err)
		}
	}
	for _, u := range v.Unusual {
		if strings.HasPrefix(u.Address, "addr_test1") {
			if _, err := ParseAddress(u.Address, false); err != nil {
				t.Errorf("testnet %s: %v", u.Address, err)
			}
		}
	}
}

func TestParseAddressByron(t *testing.T) {
	v := loadAddressVectors(t)
	for _, b := range v.Byron {
		mainnet := b.NetworkMagicAttr == nil
		a, err := ParseAddress(b.Address, mainnet)
		if err != nil || a.String() != b.Address {
			t.Errorf("Byron %s (mainnet=%v): %q, %v", b.Address, mainnet, a, err)
		}
		if _, err := ParseAddress(b.Address, !mainnet); !errors.Is(err, ErrInvalidAddress) {
			t.Errorf("Byron %s accepted on the other network: %v", b.Address, err)
		}
		// base58 is case-sensitive: flipping case breaks the CRC.
		if _, err := ParseAddress(strings.ToLower(b.Address), mainnet); !errors.Is(err, ErrInvalidAddress) {
			t.Errorf("lower-cased Byron %s accepted: %v", b.Address, err)
		}
	}
}

func TestParseAddressRejects(t *testing.T) {
	v := loadAddressVectors(t)
	bad := []string{
		"",
		"notanaddress",
		"addr1",
		"Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAX", // Byron-looking, broken CRC
		"Ae2tdPwUPEZ",
		"DdzFFzCqrhstmqBkaU98vdHu6PdqjqotmgudToWYEeRmQKDrn4cAgGv9EZKtu1DevLrMA1pdVazufUCK4zhFkUcQZ5Gm88mVHnrwmXvX",
		"0000000000000000000000000000000000000000000000000000000000000000",
		"11111111111111111111",
		"addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3y", // checksum
		"stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw",
		"addr1 qx2f",
		"%00",
		strings.Repeat("A", maxAddressLen+1),
	}
	for _, p := range v.Pools {
		bad = append(bad, p.PoolID, p.Hex)
	}
	for _, c := range v.PaymentCreds {
		bad = append(bad, c.Bech32)
	}
	for _, n := range v.Negative {
		bad = append(bad, n.Input)
	}
	for _, s := range bad {
		for _, mainnet := range []bool{true, false} {
			if a, err := ParseAddress(s, mainnet); !errors.Is(err, ErrInvalidAddress) {
				t.Errorf("ParseAddress(%.60q, mainnet=%v) = %q, %v; want ErrInvalidAddress", s, mainnet, a, err)
			}
		}
	}
}

// A base58 string that decodes to well-formed Shelley bytes is not an
// address anyone wrote: Shelley addresses are bech32 only.
func TestParseAddressShelleyBytesInBase58(t *testing.T) {
	v := loadAddressVectors(t)
	raw, _ := hex.DecodeString(v.CIP19.Vectors[6].RawHex) // mainnet key enterprise
	if _, err := ParseAddress(base58Encode(raw), true); !errors.Is(err, ErrInvalidAddress) {
		t.Fatalf("Shelley bytes in base58 accepted: %v", err)
	}
}

func TestParseStakeKey(t *testing.T) {
	v := loadAddressVectors(t)
	for _, b := range v.Base {
		k, err := ParseStakeKey(b.StakeAddress, true)
		if err != nil || len(k.Candidates()) != 1 || hex.EncodeToString(k.Candidates()[0]) != b.StakeRaw {
			t.Errorf("%s: %x, %v; want %s", b.StakeAddress, k.Candidates(), err, b.StakeRaw)
		}
		if _, err := ParseStakeKey(b.StakeAddress, false); !errors.Is(err, ErrInvalidStakeKey) {
			t.Errorf("mainnet %s accepted on a testnet: %v", b.StakeAddress, err)
		}
		if _, err := ParseStakeKey(strings.ToUpper(b.StakeAddress), true); err != nil {
			t.Errorf("upper case %s: %v", b.StakeAddress, err)
		}
		// 56 hex: key credential first, then the script one.
		for _, cred := range []string{b.StakeCred, strings.ToUpper(b.StakeCred)} {
			k, err = ParseStakeKey(cred, true)
			if err != nil || len(k.Candidates()) != 2 ||
				hex.EncodeToString(k.Candidates()[0]) != "e1"+b.StakeCred ||
				hex.EncodeToString(k.Candidates()[1]) != "f1"+b.StakeCred {
				t.Errorf("hex %s: %x, %v", cred, k.Candidates(), err)
			}
		}
		k, err = ParseStakeKey(b.StakeCred, false)
		if err != nil || hex.EncodeToString(k.Candidates()[0]) != "e0"+b.StakeCred ||
			hex.EncodeToString(k.Candidates()[1]) != "f0"+b.StakeCred {
			t.Errorf("testnet hex %s: %x, %v", b.StakeCred, k.Candidates(), err)
		}
	}
	for _, vec := range v.CIP19.Vectors {
		mainnet := vec.Network == "mainnet"
		_, err := ParseStakeKey(vec.Address, mainnet)
		if vec.Type == 14 || vec.Type == 15 {
			if err != nil {
				t.Errorf("%s: %v", vec.Address, err)
			}
			if _, err := ParseStakeKey(vec.Address, !mainnet); !errors.Is(err, ErrInvalidStakeKey) {
				t.Errorf("%s accepted on the other network: %v", vec.Address, err)
			}
		} else if !errors.Is(err, ErrInvalidStakeKey) {
			t.Errorf("payment address %s accepted as a stake key: %v", vec.Address, err)
		}
	}
	bad := []string{"", "stake1", "zz7b62cfff6403a06a3acbc34f8c46003c69fe79a3628cefa9c47251",
		"337b62cfff6403a06a3acbc34f8c46003c69fe79a3628cefa9c472", "337b62cfff6403a06a3acbc34f8c46003c69fe79a3628cefa9c4725100",
		"stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgx", v.Byron[0].Address, v.Pools[0].PoolID}
	for _, n := range v.Negative {
		bad = append(bad, n.Input)
	}
	for _, s := range bad {
		if _, err := ParseStakeKey(s, true); !errors.Is(err, ErrInvalidStakeKey) {
			t.Errorf("ParseStakeKey(%q) = %v; want ErrInvalidStakeKey", s, err)
		}
	}
}

func TestParseTxHash(t *testing.T) {
	const h = "7ec5dd9f4b3d4f3e0d6a1f1c2b3a4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e"
	got, err := ParseTxHash(h)
	if err != nil || got.String() != h {
		t.Fatalf("%s: %s, %v", h, got, err)
	}
	if got, err := ParseTxHash(strings.ToUpper(h)); err != nil || got.String() != h {
		t.Fatalf("upper case: %s, %v", got, err)
	}
	for _, s := range []string{"", "00", h[:63], h + "0", "g" + h[1:], " " + h[1:], "0x" + h[2:]} {
		if _, err := ParseTxHash(s); !errors.Is(err, ErrInvalidTxHash) {
			t.Errorf("ParseTxHash(%q) = %v; want ErrInvalidTxHash", s, err)
		}
	}
}

// base58Encode is a plain Bitcoin-alphabet encoder, so the test does not
// lean on the decoder's own package to build its input.
func base58Encode(b []byte) string {
	const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	digits := []int{0}
	for _, c := range b {
		carry := int(c)
		for i := range digits {
			carry += digits[i] << 8
			digits[i] = carry % 58
			carry /= 58
		}
		for carry > 0 {
			digits = append(digits, carry%58)
			carry /= 58
		}
	}
	var out []byte
	for _, c := range b {
		if c != 0 {
			break
		}
		out = append(out, '1')
	}
	for i := len(digits) - 1; i >= 0; i-- {
		out = append(out, alphabet[digits[i]])
	}
	return string(out)
}

// TestParseAddressAgreesWithNewAddress: ParseAddress decodes bech32 text
// itself (once); on every vector, each with its hrp, case and one
// character changed, it must decide as gouroboros' NewAddress with the
// same rules would (accepted: a payment address of the caller's network,
// Byron only in base58).
func TestParseAddressAgreesWithNewAddress(t *testing.T) {
	v := loadAddressVectors(t)
	var inputs []string
	for _, vec := range v.CIP19.Vectors {
		inputs = append(inputs, vec.Address)
	}
	for _, b := range v.Base {
		inputs = append(inputs, b.Address, b.StakeAddress)
	}
	for _, b := range v.Byron {
		inputs = append(inputs, b.Address)
	}
	for _, u := range v.Unusual {
		inputs = append(inputs, u.Address)
	}
	for _, n := range v.Negative {
		inputs = append(inputs, n.Input)
	}
	var cases []string
	for _, s := range inputs {
		cases = append(cases, s, strings.ToUpper(s), strings.Replace(s, "addr1", "addr_test1", 1),
			strings.Replace(s, "addr_test1", "addr1", 1), strings.Replace(s, "addr1", "stake1", 1))
		for _, i := range []int{len(s) / 2, len(s) - 1} {
			if i > 0 {
				cases = append(cases, s[:i]+"q"+s[i+1:], s[:i]+"2"+s[i+1:])
			}
		}
	}
	accepted := 0
	for _, s := range cases {
		for _, mainnet := range []bool{true, false} {
			a, err := ParseAddress(s, mainnet)
			want := referenceAccepts(s, mainnet)
			if (err == nil) != want {
				t.Errorf("ParseAddress(%q, mainnet=%v) = %v, reference says accepted=%v", s, mainnet, err, want)
			}
			if err == nil {
				accepted++
				if a.String() != s && a.String() != strings.ToLower(s) {
					t.Errorf("ParseAddress(%q) = %q", s, a)
				}
			}
		}
	}
	if accepted < len(inputs)/2 {
		t.Fatalf("only %d of %d cases accepted: the mutations hide the vectors", accepted, len(cases))
	}
}

// referenceAccepts is ParseAddress's rule on gouroboros' own decoder.
func referenceAccepts(s string, mainnet bool) bool {
	if s == "" || len(s) > maxAddressLen {
		return false
	}
	_, _, derr := bech32.DecodeNoLimit(s)
	isBech32 := derr == nil
	a, err := decodeAddress(s)
	if err != nil {
		return false
	}
	t := a.Type()
	if t == common.AddressTypeNoneKey || t == common.AddressTypeNoneScript ||
		isBech32 == (t == common.AddressTypeByron) {
		return false
	}
	return networkMatches(a, mainnet)
}

func TestAddressOwnParts(t *testing.T) {
	v := loadAddressVectors(t)
	for _, vec := range v.CIP19.Vectors {
		if vec.Type == 14 || vec.Type == 15 {
			continue
		}
		a, err := ParseAddress(vec.Address, vec.Network == "mainnet")
		if err != nil {
			t.Fatal(err)
		}
		script, stake, ok := a.OwnParts()
		switch {
		case vec.Type == 4 || vec.Type == 5:
			if ok {
				t.Errorf("%s: a pointer resolved without the chain", vec.Address)
			}
		case !ok || script != (vec.Type%2 == 1) || stake != vec.Derived:
			t.Errorf("%s (type %d): script %v, stake %q, ok %v; want stake %q", vec.Address, vec.Type, script, stake, ok, vec.Derived)
		}
	}
	for _, b := range v.Base {
		a, err := ParseAddress(b.Address, true)
		if err != nil {
			t.Fatal(err)
		}
		if _, stake, ok := a.OwnParts(); !ok || stake != b.StakeAddress {
			t.Errorf("%s: stake %q, ok %v; want %q", b.Address, stake, ok, b.StakeAddress)
		}
	}
	for _, b := range v.Byron {
		a, err := ParseAddress(b.Address, b.NetworkMagicAttr == nil)
		if err != nil {
			continue // a testnet Byron address of another magic
		}
		if script, stake, ok := a.OwnParts(); !ok || script || stake != "" {
			t.Errorf("Byron %s: script %v, stake %q, ok %v", b.Address, script, stake, ok)
		}
	}
}
