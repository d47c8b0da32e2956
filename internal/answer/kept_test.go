package answer

import (
	"bytes"
	"crypto/rand"
	"database/sql"
	"net/http/httptest"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/touched"
)

// keptChain is a seeded chain that grows block by block (a follower
// paying only what a test asks for), with two services on one Redis whose
// trackers are caught up after every block.
type keptChain struct {
	raw      *sql.DB
	db       *dbsync.DB
	m        *chaingen.Manifest
	f        *chaingen.Follower
	s, other *Service
	pending  []chaingen.PendingTx
	t        *testing.T
}

func newKeptChain(t *testing.T, mode chaingen.Mode) *keptChain {
	requireServices(t)
	dsn, m, drop, err := testdb.DBSync(mode, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	raw := testdb.Open(t, dsn)
	k := &keptChain{raw: raw.DB, db: testdb.MustOpenDBSync(t, dsn), m: m, t: t}
	k.f, err = chaingen.NewFollower(t.Context(), raw.DB, chaingen.FollowOptions{SlotsPerBlock: 20, TxsPerBlock: -1, Seed: 5,
		Manifest: m, Pending: func() []chaingen.PendingTx { p := k.pending; k.pending = nil; return p }})
	if err != nil {
		t.Fatal(err)
	}
	rc := testdb.Redis(t)
	k.s, k.other = New(Options{Redis: rc}), New(Options{Redis: rc})
	k.catchUp()
	return k
}

func (k *keptChain) catchUp() {
	k.t.Helper()
	for _, s := range []*Service{k.s, k.other} {
		if err := s.touched.For(k.db).CatchUp(k.t.Context()); err != nil {
			k.t.Fatal(err)
		}
	}
}

func (k *keptChain) tipNow() dbsync.Tip {
	k.t.Helper()
	tip, err := k.db.Tip(k.t.Context())
	if err != nil || tip.BlockNo == nil {
		k.t.Fatalf("tip: %+v, %v", tip, err)
	}
	return tip
}

// appendBlock appends a block, paying to (when not "") and waits until
// the services see it.
func (k *keptChain) appendBlock(to string) { k.t.Helper(); k.appendBlockWith(to, nil) }

// appendBlockWith is appendBlock that calls written (when set) with the
// payment's hash once the block is written, before anyone reads it.
func (k *keptChain) appendBlockWith(to string, written func(txHash []byte)) {
	k.t.Helper()
	hash := make([]byte, 32)
	if to != "" {
		_, _ = rand.Read(hash)
		k.pending = append(k.pending, chaingen.PendingTx{Hash: hash, To: []chaingen.PendingOutput{{Address: to, Lovelace: 4_321_000}}})
	}
	if _, err := k.f.AppendBlock(k.t.Context()); err != nil {
		k.t.Fatal(err)
	}
	if written != nil {
		written(hash)
	}
	waitTip(k.t, k.db, k.tipNow().BlockHash)
	k.catchUp()
}

// requireTracked fails the test unless the trackers hold the tip (so
// answers go the kept way, not the tip-keyed one).
func (k *keptChain) requireTracked() {
	k.t.Helper()
	tip := k.tipNow()
	for _, s := range []*Service{k.s, k.other} {
		if !s.touched.For(k.db).Holds(touched.Point{Height: *tip.BlockNo, Hash: tip.BlockHash}) {
			k.t.Fatalf("the tracker does not hold the tip %d %s", *tip.BlockNo, tip.BlockHash)
		}
	}
}

// plant stores a kept record no read gives under cache name's key.
func (k *keptChain) plant(name, key string, at dbsync.Tip, body []byte) {
	rec := keptRecord(touched.Point{Height: *at.BlockNo, Hash: at.BlockHash}, body)
	switch name {
	case "utxoskept":
		k.s.caches.utxosKept.Put(k.t.Context(), key, rec, 0)
	case "txkept":
		k.s.caches.txKept.Put(k.t.Context(), key, rec, 0)
	case "balancekept":
		k.s.caches.balanceKept.Put(k.t.Context(), key, rec, 0)
	default:
		k.t.Fatalf("no kept cache %s", name)
	}
}

// A short UTxO list kept for an address is answered at later tips while
// no block touches the address, and read again once one pays to it or
// after a rollback; a list read at a later tip is what a fresh read gives.
func TestUTxOsKeptAcrossTipsWhileUntouched(t *testing.T) {
	k := newKeptChain(t, chaingen.ModeCore)
	list := func(s *Service, addr string) []byte {
		t.Helper()
		w := httptest.NewRecorder()
		r := Request{Ctx: t.Context(), W: w, CutShort: func(msg string, err error) { t.Errorf("%s: %v", msg, err) }}
		if err := s.UTxOsByAddress(r, k.db, mustParse(t, addr)); err != nil || w.Code != 200 {
			t.Fatalf("UTxO list of %s: %d, %v", addr, w.Code, err)
		}
		return w.Body.Bytes()
	}
	fresh := func(addr string) []byte { return list(New(Options{}), addr) }
	quiet, paid := k.m.Addresses[0].Address, k.m.Addresses[1].Address
	list(k.other, quiet) // its first ask: not looked up, the next one is
	for range 2 {
		for _, a := range []string{quiet, paid} {
			if b, want := list(k.s, a), fresh(a); !bytes.Equal(b, want) {
				t.Fatalf("%s: %s, want %s", a, b, want)
			}
		}
	}
	k.appendBlock("")
	for _, a := range []string{quiet, paid} {
		if b, want := list(k.s, a), fresh(a); !bytes.Equal(b, want) {
			t.Errorf("%s at a later tip: %s, want %s", a, b, want)
		}
	}
	planted := []byte(`{"success":true,"data":[{"planted":true}]}` + "\n")
	start := k.tipNow()
	k.plant("utxoskept", "mainnet:address:"+quiet, start, planted)
	k.plant("utxoskept", "mainnet:address:"+paid, start, planted)
	k.appendBlock(paid)
	if b := list(k.s, quiet); !bytes.Equal(b, planted) {
		t.Errorf("untouched address: %s, want its kept list", b)
	}
	if b := list(k.other, quiet); !bytes.Equal(b, planted) {
		t.Errorf("untouched address on another instance: %s, want the kept list from Redis", b)
	}
	if b, want := list(k.s, paid), fresh(paid); !bytes.Equal(b, want) {
		t.Errorf("the paid address: %s, want %s", b, want)
	}
	// A rollback of that block: nothing kept at it is answered.
	k.plant("utxoskept", "mainnet:address:"+quiet, k.tipNow(), planted)
	if _, err := k.f.Rollback(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	k.appendBlock("")
	if b, want := list(k.s, quiet), fresh(quiet); !bytes.Equal(b, want) {
		t.Errorf("after a rollback: %s, want %s", b, want)
	}
}

// A transaction's answer is kept across tips while the block it was read
// at stays on the chain; a rollback past that block ends it.
func TestTxKeptAcrossTips(t *testing.T) {
	k := newKeptChain(t, chaingen.ModeCore)
	hash, err := cardano.ParseTxHash(k.m.Txs.Ordinary.Hash)
	if err != nil {
		t.Fatal(err)
	}
	tx := func(s *Service) []byte {
		t.Helper()
		b, err := s.Tx(t.Context(), k.db, hash, false)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	want := tx(New(Options{}))
	for range 2 {
		if b := tx(k.s); !bytes.Equal(b, want) {
			t.Fatalf("tx: %s, want %s", b, want)
		}
	}
	k.appendBlock("")
	if b := tx(k.s); !bytes.Equal(b, want) {
		t.Fatalf("tx at a later tip: %s, want %s", b, want)
	}
	planted := []byte(`{"success":true,"data":{"planted":true}}` + "\n")
	key := "mainnet:" + hash.String() + ":false"
	k.plant("txkept", key, k.tipNow(), planted)
	k.appendBlock(k.m.Addresses[0].Address)
	if b := tx(k.s); !bytes.Equal(b, planted) {
		t.Errorf("kept transaction: %s, want its kept answer", b)
	}
	if _, err := k.f.Rollback(t.Context(), 2); err != nil {
		t.Fatal(err)
	}
	k.appendBlock("")
	k.requireTracked()
	if b := tx(k.s); !bytes.Equal(b, want) {
		t.Errorf("after a rollback past its block: %s, want %s", b, want)
	}
}

// A stake key's balance and UTxO list are kept across tips while no block
// pays to or spends from an address carrying it, whether the key is named
// by its stake address or by its bare credential (two candidates, both
// checked); a block paying to one of its addresses ends them.
func TestStakeAnswersKeptAcrossTipsWhileUntouched(t *testing.T) {
	k := newKeptChain(t, chaingen.ModeCore)
	// Two stake keys with unspent outputs, and an address of the second.
	rows, err := k.raw.QueryContext(t.Context(), `
SELECT sa.view, encode(substring(sa.hash_raw from 2), 'hex'), min(o.address)
FROM stake_address sa JOIN tx_out o ON o.stake_address_id = sa.id
WHERE NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)
GROUP BY sa.id ORDER BY sa.id LIMIT 2`)
	if err != nil {
		t.Fatal(err)
	}
	var views, creds, addrs []string
	for rows.Next() {
		var v, c, a string
		if err := rows.Scan(&v, &c, &a); err != nil {
			t.Fatal(err)
		}
		views, creds, addrs = append(views, v), append(creds, c), append(addrs, a)
	}
	if err := rows.Err(); err != nil || len(views) != 2 {
		t.Fatalf("stake keys: %v, %v", views, err)
	}
	parse := func(s string) cardano.StakeKey {
		key, err := cardano.ParseStakeKey(s, true)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return key
	}
	quiet, paid, quietBare := parse(views[0]), parse(views[1]), parse(creds[0])
	balance := func(s *Service, key cardano.StakeKey) []byte {
		t.Helper()
		b, err := s.BalanceByStake(t.Context(), k.db, key, false)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	list := func(s *Service, key cardano.StakeKey) []byte {
		t.Helper()
		w := httptest.NewRecorder()
		r := Request{Ctx: t.Context(), W: w, CutShort: func(msg string, err error) { t.Errorf("%s: %v", msg, err) }}
		if err := s.UTxOsByStake(r, k.db, key); err != nil || w.Code != 200 {
			t.Fatalf("UTxO list: %d, %v", w.Code, err)
		}
		return w.Body.Bytes()
	}
	fresh := func(key cardano.StakeKey) (balanceWant, listWant []byte) {
		s := New(Options{})
		return balance(s, key), list(s, key)
	}
	for _, key := range []cardano.StakeKey{quiet, paid, quietBare} {
		for range 2 {
			wb, wl := fresh(key)
			if b := balance(k.s, key); !bytes.Equal(b, wb) {
				t.Fatalf("%s: balance %s, want %s", key.Bech32(), b, wb)
			}
			if l := list(k.s, key); !bytes.Equal(l, wl) {
				t.Fatalf("%s: list %s, want %s", key.Bech32(), l, wl)
			}
		}
	}
	planted := []byte(`{"success":true,"data":{"planted":true}}` + "\n")
	start := k.tipNow()
	for _, key := range []cardano.StakeKey{quiet, paid, quietBare} {
		id := stakeKeyID(key)
		k.plant("balancekept", "mainnet:stake:"+id+":false", start, planted)
		k.plant("utxoskept", "mainnet:stake:"+id, start, planted)
	}
	k.appendBlock(addrs[1])
	k.requireTracked()
	for _, key := range []cardano.StakeKey{quiet, quietBare} {
		if b := balance(k.s, key); !bytes.Equal(b, planted) {
			t.Errorf("untouched stake key %s: balance %s, want the kept one", key.CandidateAddresses(), b)
		}
		if l := list(k.s, key); !bytes.Equal(l, planted) {
			t.Errorf("untouched stake key %s: list %s, want the kept one", key.CandidateAddresses(), l)
		}
	}
	wb, wl := fresh(paid)
	if b := balance(k.s, paid); !bytes.Equal(b, wb) {
		t.Errorf("the paid stake key: balance %s, want %s", b, wb)
	}
	if l := list(k.s, paid); !bytes.Equal(l, wl) {
		t.Errorf("the paid stake key: list %s, want %s", l, wl)
	}
}
