package answer

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/assets"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// holdersSQL is, independently of dbsync, an asset's holder list at the
// database's tip as Blockfrost's items (core layout).
func holdersSQL(t *testing.T, k *keptChain, ident int64) [][]byte {
	t.Helper()
	rows, err := k.raw.QueryContext(t.Context(), `
SELECT o.address, sum(mto.quantity)::text
FROM ma_tx_out mto JOIN tx_out o ON o.id = mto.tx_out_id
WHERE mto.ident = $1 AND mto.quantity > 0
  AND NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)
GROUP BY 1 ORDER BY min(o.id)`, ident)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var h assets.Holder
		if err := rows.Scan(&h.Address, &h.Quantity); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(h)
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// movedSQL reports, independently of the tracker, whether a block above
// height created or spent an output holding the asset (core layout).
func movedSQL(t *testing.T, k *keptChain, ident, above int64) bool {
	t.Helper()
	var moved bool
	err := k.raw.QueryRowContext(t.Context(), `
SELECT EXISTS (
  SELECT 1 FROM block b JOIN tx ON tx.block_id = b.id JOIN tx_out o ON o.tx_id = tx.id
  JOIN ma_tx_out mto ON mto.tx_out_id = o.id
  WHERE b.block_no > $2 AND mto.ident = $1
  UNION ALL
  SELECT 1 FROM block b JOIN tx ON tx.block_id = b.id JOIN tx_in i ON i.tx_in_id = tx.id
  JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index
  JOIN ma_tx_out mto ON mto.tx_out_id = o.id
  WHERE b.block_no > $2 AND mto.ident = $1)`, ident, above).Scan(&moved)
	if err != nil {
		t.Fatal(err)
	}
	return moved
}

// heldAsset is an asset of the seeded chain with its multi_asset id.
type heldAsset struct {
	ident int64
	id    cardano.AssetID
}

// mostHeld returns the two assets with the most holders, most first.
func mostHeld(t *testing.T, k *keptChain) (a, b heldAsset) {
	t.Helper()
	rows, err := k.raw.QueryContext(t.Context(), `
SELECT ma.id, encode(ma.policy, 'hex') || '.' || encode(ma.name, 'hex')
FROM multi_asset ma JOIN ma_tx_out mto ON mto.ident = ma.id JOIN tx_out o ON o.id = mto.tx_out_id
WHERE NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)
GROUP BY ma.id ORDER BY count(DISTINCT o.address) DESC, ma.id LIMIT 2`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []heldAsset
	for rows.Next() {
		var h heldAsset
		var unit string
		if err := rows.Scan(&h.ident, &unit); err != nil {
			t.Fatal(err)
		}
		if h.id, err = cardano.ParseAssetID(unit); err != nil {
			t.Fatal(err)
		}
		out = append(out, h)
	}
	if len(out) != 2 {
		t.Fatalf("%d assets held", len(out))
	}
	return out[0], out[1]
}

// payAsset appends a block whose payment to addr also carries 5 of the
// asset (an output holding it created), as db-sync writes it.
func (k *keptChain) payAsset(addr string, a heldAsset) {
	k.t.Helper()
	k.writeInBlock(addr, `
INSERT INTO ma_tx_out (id, quantity, tx_out_id, ident)
SELECT (SELECT max(id) FROM ma_tx_out) + 1000000 + o.index, 5, o.id, $2
FROM tx t JOIN tx_out o ON o.tx_id = t.id WHERE t.hash = $1`, a.ident)
}

// spendAsset appends a block whose payment also spends the oldest unspent
// output holding the asset.
func (k *keptChain) spendAsset(a heldAsset) {
	k.t.Helper()
	k.writeInBlock(k.m.ByronAddress.Address, `
INSERT INTO tx_in (id, tx_in_id, tx_out_id, tx_out_index)
SELECT (SELECT max(id) FROM tx_in) + 1000000, t.id, s.tx_id, s.index
FROM tx t, (
  SELECT o.tx_id, o.index FROM ma_tx_out mto JOIN tx_out o ON o.id = mto.tx_out_id
  WHERE mto.ident = $2
    AND NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)
  ORDER BY o.id LIMIT 1) s
WHERE t.hash = $1`, a.ident)
}

// writeInBlock appends a block paying to addr, runs stmt ($1 the payment's
// hash, $2 arg) before anyone reads the block, and waits until the
// services see it.
func (k *keptChain) writeInBlock(addr, stmt string, arg any) {
	k.t.Helper()
	k.appendBlockWith(addr, func(hash []byte) {
		res, err := k.raw.ExecContext(k.t.Context(), stmt, hash, arg)
		if err != nil {
			k.t.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			k.t.Fatal("the block's payment was not changed")
		}
	})
}

// An asset's holder list (a list of several blocks, and one of one) is
// kept across tips: not read again at a tip whose blocks did not move the
// asset, read again after a block pays it or spends an output holding it,
// and after a rollback; every page equals SQL's list at the tip.
func TestAssetHoldersKeptAcrossTips(t *testing.T) {
	k := newKeptChain(t, chaingen.ModeCore)
	long, short := mostHeld(t, k)
	if n := len(holdersSQL(t, k, long.ident)); n <= listBlock {
		t.Fatalf("the most held asset has %d holders, want a list of more than one block (%d)", n, listBlock)
	}
	reads := map[int64]int{}
	list := func(a heldAsset) DialectList {
		about := AssetSubject(a.id)
		return DialectList{Params: []string{"test", "holders", a.id.Unit()}, About: &about, MaxKept: 10 * listBlock,
			Each: func(ctx context.Context, db *dbsync.DB, fn func([]byte) error) error {
				reads[a.ident]++
				holders, err := assets.Holders(ctx, db, a.id)
				if err != nil {
					return err
				}
				for _, h := range holders {
					b, _ := json.Marshal(h)
					if err := fn(b); err != nil {
						return err
					}
				}
				return nil
			}}
	}
	// check walks every page (oldest first, and a page from the newest
	// end) and compares them with SQL at the tip.
	check := func(a heldAsset) {
		t.Helper()
		want := holdersSQL(t, k, a.ident)
		var got [][]byte
		for off := 0; ; off += listBlock {
			b, err := k.s.DialectPage(t.Context(), k.db, list(a), ListPage{Offset: off, Count: listBlock})
			if err != nil {
				t.Fatal(err)
			}
			items, ok := splitArray(bytes.TrimSuffix(b, []byte("\n")))
			if !ok {
				t.Fatalf("page %d: %s", off, b)
			}
			if len(items) == 0 {
				break
			}
			got = append(got, items...)
		}
		if !bytes.Equal(arrayOf(got), arrayOf(want)) {
			t.Fatalf("asset %s: %d holders answered, SQL has %d (or they differ)", a.id.Unit(), len(got), len(want))
		}
		desc := ListPage{Offset: 3, Count: 7, Desc: true}
		b, err := k.s.DialectPage(t.Context(), k.db, list(a), desc)
		if err != nil {
			t.Fatal(err)
		}
		if w := cutPage(len(want), desc, nil, want...); !bytes.Equal(b, w) {
			t.Fatalf("asset %s, newest first: %s, want %s", a.id.Unit(), b, w)
		}
	}
	// expect checks both assets and how often each list was read: once
	// when a block since the last check moved its asset (by SQL; it must
	// have, when the step names it), never otherwise; after a rollback,
	// once.
	last := k.tipNow()
	expect := func(step string, must *heldAsset, rolledBack bool) {
		t.Helper()
		k.requireTracked()
		before := map[int64]int{long.ident: reads[long.ident], short.ident: reads[short.ident]}
		check(long)
		check(short)
		for _, a := range []heldAsset{long, short} {
			moved := movedSQL(t, k, a.ident, *last.BlockNo)
			if must != nil && must.ident == a.ident && !moved {
				t.Fatalf("%s: asset %s not moved", step, a.id.Unit())
			}
			want := 0
			if moved || rolledBack {
				want = 1
			}
			if got := reads[a.ident] - before[a.ident]; got != want {
				t.Errorf("%s: asset %s read %d times, want %d (moved: %v)", step, a.id.Unit(), got, want, moved)
			}
		}
		last = k.tipNow()
	}
	// A first ask is read and not stored, the second stores the list (and
	// keeps it); every page after comes from it.
	check(long)
	check(short)
	if reads[long.ident] != 2 || reads[short.ident] != 2 {
		t.Fatalf("at the start: read %d and %d times, want twice each", reads[long.ident], reads[short.ident])
	}
	k.appendBlock("")
	expect("an empty block", nil, false)
	k.appendBlock(k.m.ByronAddress.Address)
	expect("a block paying another address", nil, false)
	k.payAsset(k.m.ByronAddress.Address, long)
	expect("a block paying the long list's asset", &long, false)
	k.spendAsset(short)
	expect("a block spending an output of the short list's asset", &short, false)
	k.appendBlock("")
	expect("an empty block, again", nil, false)
	// The spend's block and the one after go: the short list is whole
	// again, and nothing read before the rollback is vouched for.
	if _, err := k.f.Rollback(t.Context(), 2); err != nil {
		t.Fatal(err)
	}
	last = k.tipNow()
	k.appendBlock("")
	expect("after a rollback", nil, true)
	k.appendBlock("")
	expect("an empty block after the rollback", nil, false)

	// A new tip the trackers have not read yet: a list allowed several
	// blocks waits for its tracker rather than being read again.
	if _, err := k.f.AppendBlock(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitTip(t, k.db, k.tipNow().BlockHash)
	before := reads[long.ident]
	check(long)
	if reads[long.ident] != before {
		t.Errorf("at a tip the tracker had not read: the long list read %d times, want 0", reads[long.ident]-before)
	}
}
