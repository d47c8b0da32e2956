package cardano

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

func TestDRepCIP129(t *testing.T) {
	hash := strings.Repeat("4f", 28)
	raw, _ := hex.DecodeString(hash)
	for _, tc := range []struct {
		script bool
		header byte
	}{{false, 0x22}, {true, 0x23}} {
		id, err := DRepCIP129(hash, tc.script)
		if err != nil {
			t.Fatal(err)
		}
		hrp, data, err := bech32.Decode(id)
		if err != nil || hrp != "drep" {
			t.Fatalf("%s: hrp %q, %v", id, hrp, err)
		}
		b, err := bech32.ConvertBits(data, 5, 8, false)
		if err != nil || len(b) != 29 || b[0] != tc.header || !bytes.Equal(b[1:], raw) {
			t.Fatalf("%s: % x, want header %#x and the hash", id, b, tc.header)
		}
	}
	for _, bad := range []string{"", "zz", strings.Repeat("4f", 27), strings.Repeat("4f", 29)} {
		if id, err := DRepCIP129(bad, false); err == nil {
			t.Errorf("%q: %s, want an error", bad, id)
		}
	}
}
