package metadata_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/syncgate/syncgate/dbsync/metadata"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestLabelPagesMatchOffsets: a label's pages read from keyset anchors (a
// stride of 2, so nearly every page is deep) are the pages LIMIT/OFFSET
// reads, in both orders, walked and scattered.
func TestLabelPagesMatchOffsets(t *testing.T) {
	chain := testdb.SharedDBSync(t, chaingen.Variant{Mode: chaingen.ModeCore}, seedTxs)
	db := testdb.MustOpenDBSync(t, chain.DSN)
	raw := testdb.Open(t, chain.DSN)
	var label string
	if err := raw.Get(&label, `SELECT key::text FROM tx_metadata GROUP BY key ORDER BY count(*) DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	var all []metadata.Entry
	if err := raw.Select(&all, `SELECT encode(t.hash, 'hex') AS tx_hash, tm.json::text AS json, encode(tm.bytes, 'hex') AS cbor
		FROM tx_metadata k
		JOIN LATERAL (SELECT x.json, x.bytes FROM tx_metadata x WHERE x.key = k.key AND x.tx_id = k.tx_id ORDER BY x.id LIMIT 1) tm ON true
		JOIN tx t ON t.id = k.tx_id
		WHERE k.key = $1::numeric ORDER BY k.tx_id, k.id`, label); err != nil {
		t.Fatal(err)
	}
	if len(all) < 20 {
		t.Fatalf("label %s has %d entries: too few to page from anchors", label, len(all))
	}
	metadata.SetAnchorStride(db, 2)
	ctx := context.Background()
	check := func(p metadata.Page) {
		t.Helper()
		got, err := metadata.Label(ctx, db, label, p)
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		var want []metadata.Entry
		for i := p.Offset; i < p.Offset+p.Limit && i < len(all); i++ {
			if p.Desc {
				want = append(want, all[len(all)-1-i])
			} else {
				want = append(want, all[i])
			}
		}
		if fmt.Sprint(deref(got)) != fmt.Sprint(deref(want)) {
			t.Fatalf("page %+v of %d: got %v, want %v", p, len(all), deref(got), deref(want))
		}
	}
	for _, desc := range []bool{false, true} {
		for _, limit := range []int{1, 4, 9} {
			for off := 0; off <= len(all)+limit; off += limit {
				check(metadata.Page{Offset: off, Limit: limit, Desc: desc})
			}
		}
		for i := range 40 {
			check(metadata.Page{Offset: (i * 7919) % (len(all) + 5), Limit: 1 + i%5, Desc: desc})
		}
	}
}

// deref prints entries by value (their JSON is a pointer).
func deref(es []metadata.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		j := "<nil>"
		if e.JSON != nil {
			j = *e.JSON
		}
		out[i] = e.TxHash + " " + j + " " + e.CBOR
	}
	return out
}
