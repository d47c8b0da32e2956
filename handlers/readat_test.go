package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// chainTip is a db-sync tip as independent SQL reads it.
type chainTip struct {
	Slot int64  `db:"slot_no"`
	Hash string `db:"hash"`
}

func readChainTip(t *testing.T, raw *sqlx.DB) chainTip {
	t.Helper()
	var tip chainTip
	if err := raw.GetContext(t.Context(), &tip,
		`SELECT slot_no, encode(hash, 'hex') AS hash FROM block WHERE slot_no IS NOT NULL ORDER BY slot_no DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	return tip
}

// tipGet sends an authenticated GET (checked against the OpenAPI
// document); safe from several goroutines.
func tipGet(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer "+mainnetKey)
	w := httptest.NewRecorder()
	serveChecked(t, h, w, req)
	return w
}

// headerTip is the tip a response names.
func headerTip(w *httptest.ResponseRecorder) chainTip {
	slot, _ := strconv.ParseInt(w.Header().Get(headerTipSlot), 10, 64)
	return chainTip{Slot: slot, Hash: w.Header().Get(headerTipHash)}
}

func wantTipHeaders(t *testing.T, path string, w *httptest.ResponseRecorder, want chainTip) {
	t.Helper()
	if w.Header().Get(headerTipSlot) == "" || headerTip(w) != want {
		t.Errorf("GET %s → %d: tip headers %q %q, want %d %s", path, w.Code,
			w.Header().Get(headerTipSlot), w.Header().Get(headerTipHash), want.Slot, want.Hash)
	}
}

func wantEnvelopeError(t *testing.T, path string, w *httptest.ResponseRecorder, status int, msg string) {
	t.Helper()
	var env struct {
		Success bool   `json:"success"`
		Error   string `json:"error"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &env)
	if w.Code != status || env.Success || env.Error != msg {
		t.Errorf("GET %s: %d %s, want %d %q", path, w.Code, w.Body.String(), status, msg)
	}
}

// Every chain-data answer names the db-sync tip it was read at, the same
// when it comes from a cache (whose key names that tip), 404s included;
// submit and the probes do not.
func TestChainTipHeaders(t *testing.T) {
	c := seededChains(t)[0]
	rc := testRedis(t)
	h := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": c.db}, Credentials: testCredentials, Redis: rc, Log: quietLog}).Handler()
	m := c.manifest
	tip := readChainTip(t, c.raw)
	paths := []string{
		"/v1/utxos/address/" + m.AssetAddress.Address,
		"/v1/utxos/stake/" + m.StakeKeys[0].StakeAddress,
		"/v1/assets/balance/address/" + m.AssetAddress.Address,
		"/v1/tx/history/" + m.Addresses[0].Address,
		"/v1/tx/address/" + m.Addresses[0].Address + "?limit=2&offset=2",
		"/v1/tx/hash/" + m.Txs.Ordinary.Hash,
		"/v1/tx/hash/" + strings.Repeat("ab", 32), // 404, remembered under the tip
		"/v1/epochs/latest",
		"/v1/epochs/latest/parameters",
		"/v1/assets/" + m.Assets.Hosky.Unit,
		"/v1/assets/" + m.Assets.Hosky.Unit + "/holders",
		"/v1/pools/" + m.Pools.Biggest.ID,
		"/v1/pools/" + m.Pools.Biggest.ID + "/blocks",
		"/v1/accounts/" + m.Accounts.Delegated,
		"/v1/accounts/" + m.Accounts.Delegated + "/rewards",
	}
	for _, p := range paths {
		for round := range 2 { // the second is answered from the caches
			w := tipGet(t, h, p)
			if w.Code != http.StatusOK && w.Code != http.StatusNotFound {
				t.Errorf("GET %s (round %d): %d %s", p, round, w.Code, w.Body.String())
			}
			wantTipHeaders(t, p, w, tip)
		}
	}
	// The cached asset answer is keyed by the tip the headers name.
	if n, _ := rc.Redis().Exists(t.Context(), rc.Key("asset", "mainnet", tip.Hash, m.Assets.Hosky.Unit, "auto")).Result(); n != 1 {
		t.Errorf("asset answer not cached under the headers' tip %s", tip.Hash)
	}
	// /v1/epochs/latest: the headers and the body name one tip.
	w := tipGet(t, h, "/v1/epochs/latest")
	var body struct {
		Data struct {
			Tip struct {
				Slot int64 `json:"slot"`
			} `json:"tip"`
		} `json:"data"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Data.Tip.Slot != headerTip(w).Slot {
		t.Errorf("epochs/latest body tip %d, headers %d", body.Data.Tip.Slot, headerTip(w).Slot)
	}
	// A parameter refused before anything is read names no tip.
	if w := tipGet(t, h, "/v1/tx/hash/nothex"); w.Code != http.StatusBadRequest || w.Header().Get(headerTipSlot) != "" {
		t.Errorf("bad hash: %d, tip header %q", w.Code, w.Header().Get(headerTipSlot))
	}
}

// minSlotChain is a chain of the test's own, which it may extend.
type minSlotChain struct {
	dsn      string
	raw      *sqlx.DB
	manifest *chaingen.Manifest
}

func newMinSlotChain(t *testing.T) minSlotChain {
	t.Helper()
	requireServices(t)
	dsn, m, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	return minSlotChain{dsn: dsn, raw: testdb.Open(t, dsn), manifest: m}
}

// follower appends blocks slotsPerBlock apart to the chain.
// The block hashes follow from seed: the same seed on two copies of one
// chain appends the same block to each.
func (c minSlotChain) follower(t *testing.T, slotsPerBlock uint64, seed int64) *chaingen.Follower {
	t.Helper()
	f, err := chaingen.NewFollower(t.Context(), c.raw.DB, chaingen.FollowOptions{SlotsPerBlock: slotsPerBlock, TxsPerBlock: -1, Seed: seed, Manifest: c.manifest})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func minSlotServer(t *testing.T, db *dbsync.DB, rc *cache.Client, statementTimeout time.Duration) http.Handler {
	return New(Deps{Networks: map[string]*dbsync.DB{"mainnet": db}, Credentials: testCredentials, Redis: rc, Log: quietLog,
		Config: config.Config{StatementTimeout: statementTimeout}}).Handler()
}

func TestMinSlot(t *testing.T) {
	c := newMinSlotChain(t)
	db := testdb.MustOpenDBSync(t, c.dsn)
	h := minSlotServer(t, db, testRedis(t), 0)
	tip := readChainTip(t, c.raw)
	addr := c.manifest.Addresses[0].Address
	history := "/v1/tx/history/" + addr
	slot := func(path string, n int64) string {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		return path + sep + "min_slot=" + strconv.FormatInt(n, 10)
	}

	t.Run("at or below the tip answers at once", func(t *testing.T) {
		for _, p := range []string{history, "/v1/utxos/address/" + addr} {
			tipGet(t, h, p) // warm: the first read of a fresh database is slower
		}
		for _, p := range []string{slot(history, tip.Slot), slot(history, 0), slot("/v1/epochs/latest", tip.Slot-100),
			slot("/v1/utxos/address/"+addr, tip.Slot)} {
			start := time.Now()
			w := tipGet(t, h, p)
			// Not a wait: one would end in the 5 s 503 (no block comes here).
			if w.Code != http.StatusOK || time.Since(start) >= 2*time.Second {
				t.Errorf("GET %s: %d after %v", p, w.Code, time.Since(start))
			}
			wantTipHeaders(t, p, w, tip)
		}
	})

	t.Run("malformed or too far is 400 at once", func(t *testing.T) {
		for _, v := range []string{"abc", "-1", "1.5", "", "%2B5", "0x10", "99999999999999999999"} {
			p := history + "?min_slot=" + v
			start := time.Now()
			w := tipGet(t, h, p)
			wantEnvelopeError(t, p, w, http.StatusBadRequest, "Invalid min_slot: must be a non-negative integer (a slot number)")
			if time.Since(start) >= 2*time.Second { // not the 5 s wait
				t.Errorf("GET %s took %v", p, time.Since(start))
			}
		}
		far := tip.Slot + cardano.Networks[0].EpochLength + 1
		p := slot(history, far)
		start := time.Now()
		w := tipGet(t, h, p)
		wantEnvelopeError(t, p, w, http.StatusBadRequest, "Invalid min_slot: slot "+strconv.FormatInt(far, 10)+
			" is more than one epoch (432000 slots) ahead of the chain tip (slot "+strconv.FormatInt(tip.Slot, 10)+")")
		if time.Since(start) >= 2*time.Second { // not the 5 s wait
			t.Errorf("GET %s took %v", p, time.Since(start))
		}
	})

	t.Run("never reached is 503 after the wait", func(t *testing.T) {
		p := slot("/v1/assets/"+c.manifest.Assets.Hosky.Unit, tip.Slot+7)
		start := time.Now()
		w := tipGet(t, h, p)
		took := time.Since(start)
		wantEnvelopeError(t, p, w, http.StatusServiceUnavailable, "Chain not yet at slot "+strconv.FormatInt(tip.Slot+7, 10))
		if ra := w.Header().Get("Retry-After"); ra != "7" {
			t.Errorf("Retry-After %q, want 7 (one second per missing slot)", ra)
		}
		// The whole wait (MinSlotWait), and bounded: the upper end is a
		// loaded machine's slack, not a latency target.
		if took < 4900*time.Millisecond || took > 8*time.Second {
			t.Errorf("503 after %v, want about 5 s", took)
		}
		t.Logf("503 after %v", took)
	})

	t.Run("the request's deadline comes first", func(t *testing.T) {
		short := minSlotServer(t, db, nil, time.Second) // deadline: 1 s + 2 s
		p := slot(history, tip.Slot+3)
		start := time.Now()
		w := tipGet(t, short, p)
		took := time.Since(start)
		wantEnvelopeError(t, p, w, http.StatusServiceUnavailable, "Chain not yet at slot "+strconv.FormatInt(tip.Slot+3, 10))
		// The deadline, not the 5 s wait, ends it.
		if took < 2800*time.Millisecond || took >= 4900*time.Millisecond {
			t.Errorf("503 after %v, want about 3 s (the request's deadline)", took)
		}
	})

	t.Run("just above the tip answers once the chain gets there", func(t *testing.T) {
		f := c.follower(t, 3, 7)
		paths := []string{slot(history, tip.Slot+1), slot("/v1/utxos/address/"+addr, tip.Slot+1),
			slot("/v1/epochs/latest", tip.Slot+1), slot("/v1/assets/"+c.manifest.Assets.Hosky.Unit, tip.Slot+2)}
		var wg sync.WaitGroup
		got := make([]*httptest.ResponseRecorder, len(paths))
		took := make([]time.Duration, len(paths))
		start := time.Now()
		for i, p := range paths {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = tipGet(t, h, p)
				took[i] = time.Since(start)
			}()
		}
		time.Sleep(1500 * time.Millisecond)
		ev, err := f.AppendBlock(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		appended := time.Since(start)
		wg.Wait()
		next := chainTip{Slot: int64(ev.Block.Slot), Hash: ev.Block.Hash}
		if now := readChainTip(t, c.raw); now != next {
			t.Fatalf("tip after the block %+v, the follower says %+v", now, next)
		}
		for i, p := range paths {
			if got[i].Code != http.StatusOK {
				t.Errorf("GET %s: %d %s", p, got[i].Code, got[i].Body.String())
			}
			wantTipHeaders(t, p, got[i], next)
			// Answered for the block (after it, and before a wait that
			// missed it would give up at 5 s): the memo of each server's
			// tip is read again within a second, plus a loaded machine's slack.
			if took[i] < appended || took[i] > appended+3*time.Second {
				t.Errorf("GET %s answered after %v, the block came after %v", p, took[i], appended)
			}
		}
		t.Logf("block after %v; answers after %v", appended, took)
	})
}

// A replica behind the primary: the request is pinned to the replica, its
// headers name the replica's tip (not the primary's), and its min_slot
// waits for the replica.
func TestMinSlotReplicaBehind(t *testing.T) {
	primary := newMinSlotChain(t)
	replica := newMinSlotChain(t) // the same seed: the same chain
	base := readChainTip(t, replica.raw)
	if p := readChainTip(t, primary.raw); p != base {
		t.Fatalf("the two seeded chains differ: %+v, %+v", p, base)
	}
	ev, err := primary.follower(t, 4, 7).AppendBlock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ahead := chainTip{Slot: int64(ev.Block.Slot), Hash: ev.Block.Hash}
	db, err := dbsync.New(config.NetworkConfig{Network: cardano.Networks[0], DBSyncURL: primary.dsn, ReplicaURLs: []string{replica.dsn}},
		dbsync.Options{ServerOptions: dbsync.ServerOptions{StatementTimeout: 30 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if err := db.Started(t.Context()); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !db.Servers()[1].Up; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("replica not in rotation: %+v", db.Servers())
		}
	}
	h := minSlotServer(t, db, testRedis(t), 0)
	history := "/v1/tx/history/" + replica.manifest.Addresses[0].Address

	w := tipGet(t, h, history)
	wantTipHeaders(t, history, w, base) // the replica's tip, behind the primary's

	// min_slot at the primary's tip: the replica answers once it has the block.
	p := history + "?min_slot=" + strconv.FormatInt(ahead.Slot, 10)
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- tipGet(t, h, p) }()
	time.Sleep(time.Second)
	rev, err := replica.follower(t, 4, 7).AppendBlock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	w = <-done
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", p, w.Code, w.Body.String())
	}
	wantTipHeaders(t, p, w, chainTip{Slot: int64(rev.Block.Slot), Hash: rev.Block.Hash})

	// A slot only the primary has: 503, though the primary is there.
	if _, err := primary.follower(t, 4, 8).AppendBlock(t.Context()); err != nil {
		t.Fatal(err)
	}
	top := readChainTip(t, primary.raw)
	p = history + "?min_slot=" + strconv.FormatInt(top.Slot, 10)
	wantEnvelopeError(t, p, tipGet(t, h, p), http.StatusServiceUnavailable, "Chain not yet at slot "+strconv.FormatInt(top.Slot, 10))
}
