package supply_test

import (
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync/supply"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// TestSupplyAcrossLayouts: the pots as ada_pots holds them, and the
// lovelace at script addresses as SQL of the test's own sums the unspent
// outputs, the same in every layout that keeps the UTxO set.
func TestSupplyAcrossLayouts(t *testing.T) {
	var want string
	for _, v := range []chaingen.Variant{{Mode: chaingen.ModeCore}, {Mode: chaingen.ModeConsumed},
		{Mode: chaingen.ModeCore, AddressTable: true}, {Mode: chaingen.ModePrune}} {
		chain := testdb.SharedDBSync(t, v, 3000)
		db := testdb.MustOpenDBSync(t, chain.DSN)
		raw := testdb.Open(t, chain.DSN)
		if v.Mode == chaingen.ModeCore && !v.AddressTable {
			if err := raw.Get(&want, `SELECT sum(o.value)::text FROM tx_out o LEFT JOIN tx_in i ON i.tx_out_id = o.tx_id AND i.tx_out_index = o.index
				WHERE o.address_has_script AND i.id IS NULL`); err != nil {
				t.Fatal(err)
			}
		}
		locked, tip, err := supply.ScriptLocked(t.Context(), db, time.Minute)
		if err != nil || locked != want || want == "" || tip.BlockHash != chain.Manifest.Tip.BlockHash {
			t.Fatalf("%s: locked %q at %s (%v), want %q at %s", v, locked, tip.BlockHash, err, want, chain.Manifest.Tip.BlockHash)
		}
		p, err := supply.LatestPots(t.Context(), db)
		var treasury, utxo string
		if err := raw.QueryRow(`SELECT treasury::text, utxo::text FROM ada_pots ORDER BY epoch_no DESC LIMIT 1`).Scan(&treasury, &utxo); err != nil {
			t.Fatal(err)
		}
		if err != nil || p.Epoch != int64(chain.Manifest.Tip.Epoch) || p.Treasury != treasury || p.UTxO != utxo {
			t.Fatalf("%s: pots %+v %v", v, p, err)
		}
	}
}
