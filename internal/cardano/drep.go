package cardano

import (
	"encoding/hex"
	"errors"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

// DRepCIP129 is a DRep's id as CIP-129 writes it (Blockfrost's drep_id):
// bech32 "drep" of a header byte (0x22 for a key hash, 0x23 for a script
// hash) followed by the 28-byte credential, given as hex.
func DRepCIP129(hashHex string, script bool) (string, error) {
	raw, err := hex.DecodeString(hashHex)
	if err != nil || len(raw) != 28 {
		return "", errors.New("cardano: a DRep credential is 28 bytes")
	}
	header := byte(0x22)
	if script {
		header = 0x23
	}
	data, err := bech32.ConvertBits(append([]byte{header}, raw...), 8, 5, true)
	if err != nil {
		return "", err
	}
	return bech32.Encode("drep", data)
}
