package addresses_test

import (
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestOwnPartsAgreeWithChain: what Blockfrost's /addresses/{a} answers
// from an address's own bytes (its stake address and script flag, when
// the address holds something) must be what db-sync recorded on its
// first output, for every address of the seeded chain.
func TestOwnPartsAgreeWithChain(t *testing.T) {
	testdb.EachMode(t, seedTxs, func(t *testing.T, _ *testdb.Chain, raw *sqlx.DB, _ chaingen.Mode) {
		var rows []struct {
			Address string  `db:"address"`
			Stake   *string `db:"stake"`
			Script  bool    `db:"script"`
		}
		if err := raw.Select(&rows, `SELECT DISTINCT ON (o.address) o.address, sa.view AS stake, o.address_has_script AS script
			FROM tx_out o LEFT JOIN stake_address sa ON sa.id = o.stake_address_id ORDER BY o.address, o.id`); err != nil {
			t.Fatal(err)
		}
		kinds := map[string]int{}
		for _, r := range rows {
			a, err := cardano.ParseAddress(r.Address, true)
			if err != nil {
				t.Fatalf("%s: %v", r.Address, err)
			}
			script, stake, ok := a.OwnParts()
			if !ok {
				kinds["pointer"]++
				continue
			}
			want := ""
			if r.Stake != nil {
				want = *r.Stake
			}
			if script != r.Script || stake != want {
				t.Fatalf("%s: script %v stake %q, db-sync has %v %q", r.Address, script, stake, r.Script, want)
			}
			switch {
			case stake != "" && script:
				kinds["script base"]++
			case stake != "":
				kinds["base"]++
			case script:
				kinds["script enterprise"]++
			default:
				kinds["enterprise or Byron"]++
			}
		}
		for _, k := range []string{"base", "script base", "enterprise or Byron"} {
			if kinds[k] == 0 {
				t.Errorf("no %s address on the chain: the check proves nothing for it (%v)", k, kinds)
			}
		}
		t.Logf("%d addresses: %v", len(rows), kinds)
	})
}
