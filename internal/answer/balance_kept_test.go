package answer

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/touched"
)

// A balance kept for an address is answered at later tips while no block
// touches the address, and read again once one pays to it or after a
// rollback. To tell a kept answer from a fresh one, the kept records are
// planted with a body no read gives.
func TestBalanceKeptAcrossTipsWhileUntouched(t *testing.T) {
	requireServices(t)
	dsn, m, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	raw := testdb.Open(t, dsn)
	db := testdb.MustOpenDBSync(t, dsn)
	var pending []chaingen.PendingTx
	f, err := chaingen.NewFollower(t.Context(), raw.DB, chaingen.FollowOptions{SlotsPerBlock: 20, TxsPerBlock: -1, Seed: 3,
		Manifest: m, Pending: func() []chaingen.PendingTx { p := pending; pending = nil; return p }})
	if err != nil {
		t.Fatal(err)
	}
	rc := testdb.Redis(t)
	s := New(Options{Redis: rc})
	tr := s.touched.For(db)
	// Another instance on the same Redis reads what s keeps from Redis
	// (it holds no copy of its own).
	other := New(Options{Redis: rc})
	otherTr := other.touched.For(db)
	tipPoint := func() touched.Point {
		tip, err := db.Tip(t.Context())
		if err != nil || tip.BlockNo == nil {
			t.Fatalf("tip: %+v, %v", tip, err)
		}
		return touched.Point{Height: *tip.BlockNo, Hash: tip.BlockHash}
	}
	fresh := func(addr string) []byte {
		v, err := db.BalanceByAddress(t.Context(), mustParse(t, addr))
		if err != nil {
			t.Fatal(err)
		}
		return mustEncode(t, v)
	}
	ask := func(addr string) []byte {
		t.Helper()
		b, err := s.BalanceByAddress(t.Context(), db, mustParse(t, addr), false)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	appendBlock := func() {
		t.Helper()
		if _, err := f.AppendBlock(t.Context()); err != nil {
			t.Fatal(err)
		}
		waitTip(t, db, tipPoint().Hash)
		for _, tr := range []*touched.Tracker{tr, otherTr} {
			if err := tr.CatchUp(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
	}
	plantKey := func(key string, at touched.Point, body []byte) {
		s.caches.balanceKept.Put(t.Context(), "mainnet:"+key+":false", keptRecord(at, body), 0)
	}
	plant := func(addr string, at touched.Point, body []byte) { plantKey("address:"+addr, at, body) }

	quiet, paid := m.ByronAddress.Address, m.Whale.Address
	for _, tr := range []*touched.Tracker{tr, otherTr} {
		if err := tr.CatchUp(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := other.BalanceByAddress(t.Context(), db, mustParse(t, quiet), false); err != nil {
		t.Fatal(err) // its first ask: not looked up, the next one is
	}
	for _, a := range []string{quiet, paid} {
		if b := ask(a); !bytes.Equal(b, fresh(a)) {
			t.Fatalf("%s: first answer %s, want %s", a, b, fresh(a))
		}
	}
	// The paid address's payment credential is touched with it.
	var credHex string
	if err := raw.QueryRowContext(t.Context(), `SELECT encode(payment_cred, 'hex') FROM tx_out WHERE address = $1 AND payment_cred IS NOT NULL LIMIT 1`, paid).Scan(&credHex); err != nil {
		t.Fatal(err)
	}
	cred, err := cardano.ParsePaymentCredential(credHex)
	if err != nil {
		t.Fatal(err)
	}
	askCred := func() []byte {
		t.Helper()
		b, err := s.BalanceByCredential(t.Context(), db, cred, false)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	askCred()
	start := tipPoint()
	planted := []byte(`{"success":true,"data":{"planted":true}}`)
	plant(quiet, start, planted)
	plant(paid, start, planted)
	plantKey("credential:"+credHex, start, planted)

	// A block paying to one of them.
	hash := make([]byte, 32)
	_, _ = rand.Read(hash)
	pending = append(pending, chaingen.PendingTx{Hash: hash, To: []chaingen.PendingOutput{{Address: paid, Lovelace: 7_654_321}}})
	appendBlock()
	if b := ask(quiet); !bytes.Equal(b, planted) {
		t.Errorf("untouched address: %s, want its kept answer", b)
	}
	if b, err := other.BalanceByAddress(t.Context(), db, mustParse(t, quiet), false); err != nil || !bytes.Equal(b, planted) {
		t.Errorf("untouched address on another instance: %s (%v), want the kept answer from Redis", b, err)
	}
	b := ask(paid)
	if bytes.Equal(b, planted) {
		t.Fatal("the paid address got its kept answer")
	}
	if !bytes.Equal(b, fresh(paid)) {
		t.Errorf("the paid address: %s, want %s", b, fresh(paid))
	}

	credFresh, err := db.BalanceByCredential(t.Context(), cred)
	if err != nil {
		t.Fatal(err)
	}
	if b, want := askCred(), mustEncode(t, credFresh); !bytes.Equal(b, want) {
		t.Errorf("the paid address's credential: %s, want %s", b, want)
	}

	// A rollback of that block: nothing kept from before it is answered.
	now := tipPoint()
	plant(quiet, now, planted)
	if _, err := f.Rollback(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	appendBlock()
	if b := ask(quiet); !bytes.Equal(b, fresh(quiet)) {
		t.Errorf("after a rollback: %s, want %s", b, fresh(quiet))
	}
}

// waitTip waits until db's tip memo shows the block hash (requests read
// the tip through it; after a rollback the new tip can be lower than the
// one the memo holds).
func waitTip(t *testing.T, db *dbsync.DB, hash string) {
	t.Helper()
	for range 100 {
		tip, err := db.RecentTip(t.Context())
		if err == nil && tip.BlockHash == hash {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the tip memo never reached %s", hash)
}

func TestKeptRecordRoundTrip(t *testing.T) {
	at := touched.Point{Height: 55727, Hash: "1eb961b051d70ed60648608060b50db93e6905748945b1c62a6a778b6d2ef4c1"}
	body := []byte(`{"success":true,"data":{"lovelace":"18470872455","assets":{}}}`)
	rec := keptRecord(at, body)
	if !json.Valid(rec) {
		t.Fatalf("%s: not JSON (the cache refuses what is not)", rec)
	}
	got, b, ok := parseKept(rec)
	if !ok || got != at || !bytes.Equal(b, body) {
		t.Fatalf("parseKept(%s) = %+v, %s, %v", rec, got, b, ok)
	}
	for _, bad := range []string{"", "[]", "[1]", `[x,"h",{}]`, `[1,"h"]`, `[1,h,{}]`, `{"success":true}`, `55727:abc:{}`} {
		if _, _, ok := parseKept([]byte(bad)); ok {
			t.Errorf("parseKept(%q) accepted", bad)
		}
	}
}

func mustEncode(t *testing.T, v dbsync.Value) []byte {
	t.Helper()
	b, err := wire.Encode(ok(wire.ValueOf(v, false)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
