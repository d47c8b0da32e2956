package answer

import (
	"bytes"
	"context"
	"crypto/rand"
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/touched"
)

// Another dialect's answers and short lists about an address are kept
// across tips as /v1's balances are: answered at later tips while no block
// touches the address, built again once one pays to it. Kept records are
// planted with bodies no build gives, to tell them from fresh ones.
func TestDialectKeptAcrossTipsWhileUntouched(t *testing.T) {
	requireServices(t)
	dsn, m, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	raw := testdb.Open(t, dsn)
	db := testdb.MustOpenDBSync(t, dsn)
	var pending []chaingen.PendingTx
	f, err := chaingen.NewFollower(t.Context(), raw.DB, chaingen.FollowOptions{SlotsPerBlock: 20, TxsPerBlock: -1, Seed: 5,
		Manifest: m, Pending: func() []chaingen.PendingTx { p := pending; pending = nil; return p }})
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{Redis: testdb.Redis(t)})
	tr := s.touched.For(db)
	if err := tr.CatchUp(t.Context()); err != nil {
		t.Fatal(err)
	}
	quiet, paid := mustParse(t, m.ByronAddress.Address), mustParse(t, m.Whale.Address)
	builds := 0
	ask := func(addr string) []byte {
		t.Helper()
		about := AddressSubject(mustParse(t, addr))
		b, err := s.DialectKept(t.Context(), db, about, []string{"test", "kept", addr}, func(context.Context, *dbsync.DB) ([]byte, time.Duration, error) {
			builds++
			return []byte(`{"built":true}`), 0, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	reads := 0
	pageAt := func(addr string, offset int) []byte {
		t.Helper()
		about := AddressSubject(mustParse(t, addr))
		b, err := s.DialectPage(t.Context(), db, DialectList{Params: []string{"test", "list", addr}, About: &about,
			Each: func(_ context.Context, _ *dbsync.DB, fn func([]byte) error) error {
				reads++
				return fn([]byte(`{"built":true}`))
			}},
			ListPage{Offset: offset, Count: 100})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	page := func(addr string) []byte { return pageAt(addr, 0) }
	tip := func() touched.Point {
		tip, err := db.Tip(t.Context())
		if err != nil || tip.BlockNo == nil {
			t.Fatalf("tip: %+v, %v", tip, err)
		}
		return touched.Point{Height: *tip.BlockNo, Hash: tip.BlockHash}
	}
	for _, a := range []string{quiet.String(), paid.String()} {
		ask(a)
		if b := ask(a); !bytes.Equal(b, []byte(`{"built":true}`)) {
			t.Fatalf("%s: %s", a, b)
		}
		page(a)
		page(a)
	}
	start := tip()
	planted := []byte(`{"planted":true}`)
	for _, a := range []string{quiet.String(), paid.String()} {
		s.caches.dialectKept.Put(t.Context(), "mainnet:test:kept:"+a, keptRecord(start, planted), 0)
		s.caches.dialectKept.Put(t.Context(), "mainnet:test:list:"+a, keptRecord(start, headOf(1, [][]byte{planted})), 0)
	}
	hash := make([]byte, 32)
	_, _ = rand.Read(hash)
	pending = append(pending, chaingen.PendingTx{Hash: hash, To: []chaingen.PendingOutput{{Address: paid.String(), Lovelace: 7_654_321}}})
	if _, err := f.AppendBlock(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitTip(t, db, tip().Hash)
	if err := tr.CatchUp(t.Context()); err != nil {
		t.Fatal(err)
	}
	before, readsBefore := builds, reads
	if b := ask(quiet.String()); !bytes.Equal(b, planted) {
		t.Errorf("untouched address: %s, want its kept answer", b)
	}
	if b := page(quiet.String()); !bytes.Equal(b, []byte("[{\"planted\":true}]\n")) {
		t.Errorf("untouched address's list: %s, want its kept list", b)
	}
	if b := pageAt(quiet.String(), 100); !bytes.Equal(b, []byte("[]\n")) {
		t.Errorf("untouched address's list, page 2: %s, want an empty page", b)
	}
	if builds != before || reads != readsBefore {
		t.Errorf("the untouched address was built again")
	}
	if b := ask(paid.String()); bytes.Equal(b, planted) || builds != before+1 {
		t.Errorf("the paid address: %s after %d builds, want a fresh answer", b, builds-before)
	}
	if b := page(paid.String()); !bytes.Equal(b, []byte("[{\"built\":true}]\n")) {
		t.Errorf("the paid address's list: %s, want a fresh list", b)
	}
}
