package dbsync_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
)

// neverSeen is a valid mainnet address (CIP-19 test vector) that no
// generated chain holds.
const neverSeen = "addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8"

// utxoLine renders one UTxO as the tests' independent SQL renders it.
func utxoLine(u dbsync.UTxO) string {
	return fmt.Sprintf("%s#%d %s %s [%s] datum=%s script=%s slot=%d block=%s",
		u.TxHash, u.OutputIndex, u.Address, u.Value.Lovelace, assetsLine(u.Value.Assets),
		deref(u.DatumHash), deref(u.ScriptHash), u.SlotNo, u.BlockHash)
}

func assetsLine(assets []dbsync.AssetQuantity) string {
	parts := make([]string, len(assets))
	for i, a := range assets {
		parts[i] = a.Policy + "." + a.Name + "=" + a.Quantity.String()
	}
	return strings.Join(parts, ",")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// unspentFilter is each mode's own notion of "not spent", written
// differently from the store's queries (NOT IN over all of tx_in).
func unspentFilter(c *chain) string {
	if c.mode == "consumed" {
		return "o.consumed_by_tx_id IS NULL"
	}
	return "(o.tx_id, o.index) NOT IN (SELECT tx_out_id, tx_out_index FROM tx_in)"
}

// independentUTxOs lists the unspent outputs matching where ($1 is arg)
// in (slot, block index, output index) order, rendered like utxoLine.
func independentUTxOs(t *testing.T, c *chain, where string, arg any) []string {
	t.Helper()
	var lines []string
	err := c.raw.Select(&lines, `
		SELECT encode(t.hash, 'hex') || '#' || o.index || ' ' || o.address || ' ' || o.value::text || ' [' ||
		  COALESCE((SELECT string_agg(encode(ma.policy, 'hex') || '.' || encode(ma.name, 'hex') || '=' || m.quantity::text,
		                              ',' ORDER BY ma.policy, ma.name)
		            FROM ma_tx_out m JOIN multi_asset ma ON ma.id = m.ident WHERE m.tx_out_id = o.id), '') ||
		  '] datum=' || COALESCE(encode(o.data_hash, 'hex'), '') ||
		  ' script=' || CASE WHEN o.address_has_script THEN encode(o.payment_cred, 'hex') ELSE '' END ||
		  ' slot=' || COALESCE(b.slot_no, 0) || ' block=' || encode(b.hash, 'hex')
		FROM tx_out o JOIN tx t ON t.id = o.tx_id JOIN block b ON b.id = t.block_id
		WHERE `+where+` AND `+unspentFilter(c)+`
		ORDER BY b.slot_no NULLS FIRST, t.block_index, o.index`, arg)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

func compareLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d items, want %d", what, len(got), len(want))
	}
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] != want[i] {
			t.Errorf("%s: item %d\n got %s\nwant %s", what, i, got[i], want[i])
			return
		}
	}
}

// sameAcrossModes checks that both seeded modes gave identical answers.
func sameAcrossModes(t *testing.T, what string, perMode []any) {
	t.Helper()
	var first []byte
	for i, v := range perMode {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = b
		} else if string(b) != string(first) {
			t.Errorf("%s differs between modes:\n%s: %.400s\n%s: %.400s", what, chains[0].mode, first, chains[i].mode, b)
		}
	}
}

// inChunks runs f with the default UTxO chunk and again with chunks of two
// outputs, so every listing of more than two outputs crosses chunk
// boundaries (keyset resumption inside one snapshot) and must still match.
func inChunks(t *testing.T, f func(t *testing.T)) {
	needChains(t)
	for _, n := range []int{500, 2} {
		t.Run(fmt.Sprintf("chunk=%d", n), func(t *testing.T) {
			for _, c := range chains {
				c.db.SetUTxOChunk(n)
			}
			t.Cleanup(func() {
				for _, c := range chains {
					c.db.SetUTxOChunk(500)
				}
			})
			f(t)
		})
	}
}

func TestUTxOsByAddress(t *testing.T) { inChunks(t, testUTxOsByAddress) }

func TestUTxOsByStake(t *testing.T) { inChunks(t, testUTxOsByStake) }

func testUTxOsByAddress(t *testing.T) {
	ctx := t.Context()
	for _, a := range append(samples.Addresses(), neverSeen) {
		var perMode []any
		for _, c := range chains {
			got, err := c.db.UTxOsByAddress(ctx, mustAddress(t, a))
			if err != nil {
				t.Fatalf("%s %s: %v", c.mode, a, err)
			}
			lines := make([]string, len(got))
			for i, u := range got {
				lines[i] = utxoLine(u)
			}
			compareLines(t, string(c.mode)+" "+a, lines, independentUTxOs(t, c, "o.address = $1", a))
			perMode = append(perMode, got)
		}
		sameAcrossModes(t, "UTxOs of "+a, perMode)
	}
	for _, c := range chains {
		if got, _ := c.db.UTxOsByAddress(ctx, mustAddress(t, samples.Whale)); len(got) == 0 {
			t.Errorf("%s: the whale has no UTxOs: the comparison above proves little", c.mode)
		}
		if got, err := c.db.UTxOsByAddress(ctx, mustAddress(t, neverSeen)); err != nil || got == nil || len(got) != 0 {
			t.Errorf("%s: never-seen address: %v, %v; want an empty, non-nil list", c.mode, got, err)
		}
	}
}

func testUTxOsByStake(t *testing.T) {
	ctx := t.Context()
	if len(samples.StakeKeys) == 0 {
		t.Fatal("the seeded chain has no stake addresses")
	}
	for _, raw := range samples.StakeKeys {
		bech := stakeBech32(t, raw)
		var perMode []any
		for _, c := range chains {
			for _, form := range []string{bech, hex.EncodeToString(raw[1:])} {
				key, err := cardano.ParseStakeKey(form, true)
				if err != nil {
					t.Fatalf("%s: %v", form, err)
				}
				got, err := c.db.UTxOsByStake(ctx, key)
				if err != nil {
					t.Fatalf("%s %s: %v", c.mode, form, err)
				}
				lines := make([]string, len(got))
				for i, u := range got {
					lines[i] = utxoLine(u)
				}
				compareLines(t, string(c.mode)+" "+form, lines,
					independentUTxOs(t, c, "o.stake_address_id = (SELECT id FROM stake_address WHERE hash_raw = $1)", raw))
				if form == bech {
					perMode = append(perMode, got)
				}
			}
		}
		sameAcrossModes(t, "UTxOs of stake "+bech, perMode)
	}
	unknown, _ := cardano.ParseStakeKey(strings.Repeat("ab", 28), true)
	for _, c := range chains {
		if got, err := c.db.UTxOsByStake(ctx, unknown); err != nil || got == nil || len(got) != 0 {
			t.Errorf("%s: unknown stake key: %v, %v; want an empty, non-nil list", c.mode, got, err)
		}
	}
}

// stakeBech32 renders a stake_address.hash_raw as its stake1… form.
func stakeBech32(t *testing.T, raw []byte) string {
	t.Helper()
	var view string
	if err := chains[0].raw.Get(&view, `SELECT view FROM stake_address WHERE hash_raw = $1`, raw); err != nil {
		t.Fatal(err)
	}
	return view
}
