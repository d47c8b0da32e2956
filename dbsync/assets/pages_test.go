package assets_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/assets"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// facts are a list's assets in id order with their quantities, read
// whole by SQL.
func facts(t *testing.T, raw *sqlx.DB, policy []byte) []assets.Quantity {
	t.Helper()
	where, args := "", []any{}
	if policy != nil {
		where, args = "WHERE ma.policy = $1", []any{policy}
	}
	var out []assets.Quantity
	err := raw.Select(&out, `SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') AS asset,
		(SELECT COALESCE(sum(quantity), 0) FROM ma_tx_mint WHERE ident = ma.id)::text AS quantity
		FROM multi_asset ma `+where+` ORDER BY ma.id`, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// want is the page of the facts a LIMIT/OFFSET read returns.
func want(all []assets.Quantity, p assets.Page) []assets.Quantity {
	list := all
	if p.Desc {
		list = make([]assets.Quantity, len(all))
		for i, q := range all {
			list[len(all)-1-i] = q
		}
	}
	from := min(p.Offset, len(list))
	return list[from:min(from+p.Limit, len(list))]
}

func same(a, b []assets.Quantity) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// checkPages reads the pages a client walks (offset += limit, both orders)
// and pages asked in a scattered order, and compares each with the facts.
func checkPages(t *testing.T, db *dbsync.DB, raw *sqlx.DB, policy []byte) {
	t.Helper()
	ctx := context.Background()
	all := facts(t, raw, policy)
	read := func(p assets.Page) []assets.Quantity {
		var got []assets.Quantity
		var err error
		if policy != nil {
			got, err = assets.Policy(ctx, db, policy, p)
		} else {
			got, err = assets.List(ctx, db, p)
		}
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		return got
	}
	for _, desc := range []bool{false, true} {
		for _, limit := range []int{1, 3, 7} {
			for off := 0; off <= len(all)+limit; off += limit {
				p := assets.Page{Offset: off, Limit: limit, Desc: desc}
				if got := read(p); !same(got, want(all, p)) {
					t.Fatalf("page %+v of %d: got %v, want %v", p, len(all), got, want(all, p))
				}
			}
		}
		for i := range 40 {
			off := (i * 7919) % (len(all) + 5)
			p := assets.Page{Offset: off, Limit: 1 + i%5, Desc: desc}
			if got := read(p); !same(got, want(all, p)) {
				t.Fatalf("scattered page %+v of %d: got %v, want %v", p, len(all), got, want(all, p))
			}
		}
	}
}

// TestPagesMatchOffsets: pages read from keyset anchors (a stride of 2, so
// nearly every page is deep) are the pages LIMIT/OFFSET reads, for the
// biggest policy and for every asset, in both orders.
func TestPagesMatchOffsets(t *testing.T) {
	chain := testdb.SharedDBSync(t, chaingen.Variant{Mode: chaingen.ModeCore}, seedTxs)
	db := testdb.MustOpenDBSync(t, chain.DSN)
	raw := testdb.Open(t, chain.DSN)
	var policy []byte
	if err := raw.Get(&policy, `SELECT policy FROM multi_asset GROUP BY policy ORDER BY count(*) DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := raw.Get(&n, `SELECT count(*) FROM multi_asset WHERE policy = $1`, policy); err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Fatalf("the biggest policy has %d assets: too few to page from anchors", n)
	}
	assets.SetAnchorStride(db, 2)
	t.Run("policy", func(t *testing.T) { checkPages(t, db, raw, policy) })
	t.Run("list", func(t *testing.T) { checkPages(t, db, raw, nil) })
	if got := assets.AnchorCount(db); got == 0 {
		t.Errorf("no anchors remembered after deep pages")
	}
}

// TestPagesAfterRollback: anchors whose assets a rollback deleted fail
// their check and are forgotten; the pages after it (the newest assets
// replaced by others with new ids) are still the LIMIT/OFFSET pages.
func TestPagesAfterRollback(t *testing.T) {
	testdb.RequirePostgres(t)
	dsn, _, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	db := testdb.MustOpenDBSync(t, dsn)
	raw := testdb.Open(t, dsn)
	policy := []byte(strings.Repeat("\x42", 28))
	insert := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			if _, err := raw.Exec(`INSERT INTO multi_asset (policy, name, fingerprint) VALUES ($1, $2, $3)`,
				policy, []byte(fmt.Sprintf("a%03d", i)), fmt.Sprintf("asset%03d", i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	insert(0, 40)
	assets.SetAnchorStride(db, 2)
	checkPages(t, db, raw, policy)
	checkPages(t, db, raw, nil)
	// A rollback removes the newest 15 assets; the replacing blocks mint
	// 20 others (new ids, some names again).
	if _, err := raw.Exec(`DELETE FROM multi_asset WHERE id IN (SELECT id FROM multi_asset ORDER BY id DESC LIMIT 15)`); err != nil {
		t.Fatal(err)
	}
	insert(25, 45)
	checkPages(t, db, raw, policy)
	checkPages(t, db, raw, nil)
}
