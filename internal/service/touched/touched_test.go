package touched

import (
	"context"
	"crypto/rand"
	"database/sql"
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// touchedSQL is, independently of dbsync, the addresses (kind Address),
// payment credentials in lower hex (Credential), stake addresses' bech32
// views (Stake) or asset units (Asset) whose outputs the blocks above a
// height created or spent.
func touchedSQL(t *testing.T, raw *sql.DB, mode chaingen.Mode, kind Kind, above int64) map[string]bool {
	t.Helper()
	spent := `JOIN tx_in i ON i.tx_in_id = t.id JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index`
	if mode == chaingen.ModeConsumed {
		spent = `JOIN tx_out o ON o.consumed_by_tx_id = t.id`
	}
	col, stake := "o.address", ""
	switch kind {
	case Credential:
		col = "encode(o.payment_cred, 'hex')"
	case Stake:
		col, stake = "sa.view", " LEFT JOIN stake_address sa ON sa.id = o.stake_address_id"
	case Asset:
		col, stake = "encode(ma.policy || ma.name, 'hex')", " JOIN ma_tx_out mto ON mto.tx_out_id = o.id JOIN multi_asset ma ON ma.id = mto.ident"
	}
	rows, err := raw.QueryContext(t.Context(), `
SELECT `+col+` FROM block b JOIN tx t ON t.block_id = b.id JOIN tx_out o ON o.tx_id = t.id`+stake+` WHERE b.block_no > $1
UNION
SELECT `+col+` FROM block b JOIN tx t ON t.block_id = b.id `+spent+stake+` WHERE b.block_no > $1`, above)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id sql.NullString // a Byron address has no payment credential, an enterprise one no stake address
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		if id.Valid {
			out[id.String] = true
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

type env struct {
	t       *testing.T
	raw     *sql.DB
	db      *dbsync.DB
	m       *chaingen.Manifest
	f       *chaingen.Follower
	pending []chaingen.PendingTx
}

func newEnv(t *testing.T, mode chaingen.Mode) *env {
	testdb.RequirePostgres(t)
	dsn, m, drop, err := testdb.DBSync(mode, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	e := &env{t: t, raw: testdb.Open(t, dsn).DB, db: testdb.MustOpenDBSync(t, dsn), m: m}
	e.f, err = chaingen.NewFollower(t.Context(), e.raw, chaingen.FollowOptions{SlotsPerBlock: 20, TxsPerBlock: 2, Seed: 5,
		Manifest: m, Pending: func() []chaingen.PendingTx {
			p := e.pending
			e.pending = nil
			return p
		}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *env) pay(addr string) (txHash []byte) {
	hash := make([]byte, 32)
	_, _ = rand.Read(hash)
	e.pending = append(e.pending, chaingen.PendingTx{Hash: hash, To: []chaingen.PendingOutput{{Address: addr, Lovelace: 1_234_567}}})
	return hash
}

// addAsset puts the chain's first asset on the outputs of the
// transaction txHash (written by the follower, not yet read by the
// tracker), as db-sync writes an output holding an asset, and returns its
// unit.
func (e *env) addAsset(txHash []byte) string {
	e.t.Helper()
	var unit string
	err := e.raw.QueryRowContext(e.t.Context(), `
WITH a AS (SELECT id, encode(policy || name, 'hex') AS unit FROM multi_asset ORDER BY id LIMIT 1),
ins AS (
  INSERT INTO ma_tx_out (id, quantity, tx_out_id, ident)
  SELECT (SELECT max(id) FROM ma_tx_out) + 1000000 + o.index, 5, o.id, a.id
  FROM tx t JOIN tx_out o ON o.tx_id = t.id, a
  WHERE t.hash = $1
  RETURNING 1)
SELECT a.unit FROM a WHERE (SELECT count(*) FROM ins) > 0`, txHash).Scan(&unit)
	if err != nil {
		e.t.Fatalf("an asset on the paid outputs: %v", err)
	}
	return unit
}

func (e *env) tip() Point {
	e.t.Helper()
	tip, err := e.db.Tip(e.t.Context())
	if err != nil || tip.BlockNo == nil {
		e.t.Fatalf("tip: %+v, %v", tip, err)
	}
	return Point{Height: *tip.BlockNo, Hash: tip.BlockHash}
}

// The tracker marks exactly the addresses the new blocks paid to or spent
// from (checked against SQL of its own), vouches for the others between
// blocks it holds, and for nothing across a rollback, outside its window
// or on a hash it does not hold.
func TestTrackerFollowsTouches(t *testing.T) {
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		t.Run(string(mode), func(t *testing.T) {
			e := newEnv(t, mode)
			tr := New(e.db, 4, nil)
			if err := tr.CatchUp(t.Context()); err != nil {
				t.Fatal(err)
			}
			start := e.tip()
			if !tr.Untouched(Address, e.m.ByronAddress.Address, start, start) {
				t.Fatal("the block it started at is not held")
			}
			paid := e.m.ByronAddress.Address
			paidTx := e.pay(paid)
			var moved string // an asset the new blocks surely moved
			for i := range 3 {
				if _, err := e.f.AppendBlock(t.Context()); err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					moved = e.addAsset(paidTx)
				}
			}
			if err := tr.CatchUp(t.Context()); err != nil {
				t.Fatal(err)
			}
			now := e.tip()
			if now.Height != start.Height+3 {
				t.Fatalf("tip %d, want %d", now.Height, start.Height+3)
			}
			touched := touchedSQL(t, e.raw, mode, Address, start.Height)
			if !touched[paid] || len(touched) < 3 {
				t.Fatalf("the blocks touched %d addresses (paid one among them: %v)", len(touched), touched[paid])
			}
			for a := range touched {
				if tr.Untouched(Address, a, start, now) || tr.Untouched(Address, a, now, start) {
					t.Errorf("%s: touched, vouched for", a)
				}
				if !tr.Untouched(Address, a, now, now) {
					t.Errorf("%s: not vouched for at the tip it was read at", a)
				}
			}
			all := touchedSQL(t, e.raw, mode, Address, -1)
			vouched := 0
			for a := range all {
				if touched[a] {
					continue
				}
				if !tr.Untouched(Address, a, start, now) {
					t.Errorf("%s: untouched since %d, not vouched for", a, start.Height)
				}
				vouched++
			}
			if vouched == 0 {
				t.Fatal("no untouched address to check")
			}
			if !touchedSQL(t, e.raw, mode, Asset, start.Height)[moved] {
				t.Fatalf("asset %s: not among the moved ones", moved)
			}
			for _, kind := range []Kind{Credential, Stake, Asset} {
				moved, all := touchedSQL(t, e.raw, mode, kind, start.Height), touchedSQL(t, e.raw, mode, kind, -1)
				if len(moved) == 0 {
					t.Fatalf("the blocks touched no %s", kind)
				}
				quiet := 0
				for id := range all {
					switch untouched := tr.Untouched(kind, id, start, now); {
					case moved[id] && untouched:
						t.Errorf("%s %s: touched, vouched for", kind, id)
					case !moved[id] && !untouched:
						t.Errorf("%s %s: untouched, not vouched for", kind, id)
					case !moved[id]:
						quiet++
					}
				}
				if quiet == 0 {
					t.Fatalf("no untouched %s to check", kind)
				}
			}
			var quiet string
			for a := range all {
				if !touched[a] {
					quiet = a
					break
				}
			}
			if tr.Untouched(Address, quiet, Point{Height: start.Height, Hash: "00"}, now) {
				t.Error("vouched for from a block it does not hold")
			}

			// Past the window (4 blocks), the start is forgotten.
			for range 3 {
				if _, err := e.f.AppendBlock(t.Context()); err != nil {
					t.Fatal(err)
				}
			}
			if err := tr.CatchUp(t.Context()); err != nil {
				t.Fatal(err)
			}
			later := e.tip()
			if tr.Untouched(Address, quiet, start, later) && !touchedSQL(t, e.raw, mode, Address, start.Height)[quiet] {
				t.Error("vouched for a block out of the window")
			}

			// A rollback: nothing from before it is vouched for.
			if _, err := e.f.Rollback(t.Context(), 1); err != nil {
				t.Fatal(err)
			}
			if _, err := e.f.AppendBlock(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := tr.CatchUp(t.Context()); err != nil {
				t.Fatal(err)
			}
			after := e.tip()
			if tr.Untouched(Address, quiet, now, after) {
				t.Error("vouched for across a rollback")
			}
			if !tr.Untouched(Address, quiet, after, after) {
				t.Error("the tip after the rollback is not held")
			}
		})
	}
}

// Await catches the tracker up to a new tip it is asked about, and gives
// up on one it cannot reach when its context ends.
func TestTrackerAwait(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	tr := New(e.db, 8, nil)
	if err := tr.CatchUp(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.f.AppendBlock(t.Context()); err != nil {
		t.Fatal(err)
	}
	next := e.tip()
	if tr.Holds(next) {
		t.Fatal("holds a block it has not read")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if !tr.Await(ctx, next) || !tr.Holds(next) {
		t.Fatal("Await did not catch up to the new tip")
	}
	short, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if tr.Await(short, Point{Height: next.Height + 1, Hash: "00"}) {
		t.Fatal("Await held a block that does not exist")
	}
}
