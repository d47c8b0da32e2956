package blocks_test

import (
	"fmt"
	"testing"

	"github.com/syncgate/syncgate/dbsync/blocks"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestAddressesAcrossLayouts: the same chain in the layouts that keep
// spent outputs (core, consumed, each with the address table) gives the
// same addresses for a block, all of its pages.
func TestAddressesAcrossLayouts(t *testing.T) {
	var first string
	for _, v := range []chaingen.Variant{{Mode: chaingen.ModeCore}, {Mode: chaingen.ModeConsumed},
		{Mode: chaingen.ModeCore, AddressTable: true}, {Mode: chaingen.ModeConsumed, AddressTable: true}} {
		chain := testdb.SharedDBSync(t, v, seedTxs)
		db := testdb.MustOpenDBSync(t, chain.DSN)
		ref := blocks.Ref{Hash: mustHex(t, chain.Manifest.BusySlot.BlockHash)}
		var all []blocks.AddressTxs
		for offset := 0; ; offset += 40 {
			page, err := blocks.Addresses(t.Context(), db, ref, blocks.Page{Offset: offset, Count: 40})
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, page...)
			if len(page) < 40 {
				break
			}
		}
		got := fmt.Sprint(all)
		if len(all) < 50 {
			t.Fatalf("%s: %d addresses", v, len(all))
		}
		if first == "" {
			first = got
		} else if got != first {
			t.Fatalf("%s: the busy block's addresses differ from core's", v)
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	var b []byte
	if _, err := fmt.Sscanf(s, "%x", &b); err != nil {
		t.Fatal(err)
	}
	return b
}
