package handlers

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/nodetest"
)

// mempoolVector is the Conway vector the pending tests put in the mempool.
const mempoolVector = "blockfrost-e781decc5945"

// vectorTxs decodes every valid vector (node/testdata/tx-cbor.json).
func vectorTxs(t *testing.T) []*node.Tx {
	t.Helper()
	var txs []*node.Tx
	for _, v := range loadSubmitVectors(t).Vectors {
		tx, err := node.DecodeTxHex(v.CborHex)
		if err != nil {
			t.Fatal(err)
		}
		txs = append(txs, tx)
	}
	return txs
}

// mempoolOf is txs as the fake node's mempool.
func mempoolOf(slot uint64, txs ...*node.Tx) nodetest.Mempool {
	m := nodetest.Mempool{Slot: slot, Capacity: 178_176}
	for _, tx := range txs {
		m.Txs = append(m.Txs, nodetest.MempoolTx(tx.CBOR))
	}
	return m
}

// mempoolServer serves mainnet (no database reached) with a fake node.
func mempoolServer(t *testing.T, opts node.MempoolOptions) (*Server, *nodetest.Node) {
	t.Helper()
	mainnet, _ := cardano.NetworkByName("mainnet")
	n := nodetest.Start(t, mainnet.Magic)
	s := New(Deps{
		Networks:    map[string]*dbsync.DB{"mainnet": unqueriedDB(t, mainnet)},
		Credentials: testCredentials,
		Mempool:     node.NewMempool(map[string]string{"mainnet": n.Socket}, opts),
		Log:         quietLog,
	})
	return s, n
}

type mempoolStatusData struct {
	TxCount       uint32 `json:"tx_count"`
	Bytes         uint32 `json:"bytes"`
	CapacityBytes uint32 `json:"capacity_bytes"`
	Tip           struct {
		Slot uint64  `json:"slot"`
		Hash *string `json:"hash"`
	} `json:"tip"`
	TakenAt string `json:"taken_at"`
}

func TestMempoolStatusRoute(t *testing.T) {
	s, n := mempoolServer(t, node.MempoolOptions{})
	txs := vectorTxs(t)
	n.SetMempool(mempoolOf(140_000_123, txs...))
	size := 0
	for _, tx := range txs {
		size += len(tx.CBOR)
	}
	before := time.Now().Add(-time.Millisecond)
	r := get(t, s, "/v1/mempool")
	if r.Status != 200 || !r.Success {
		t.Fatalf("GET /v1/mempool: %d %s", r.Status, r.Raw)
	}
	var d mempoolStatusData
	decodeExact(t, r.Data, &d)
	// The node's tip is the slot before the one it reports; its hash is
	// null: this db-sync cannot be reached.
	if d.TxCount != uint32(len(txs)) || d.Bytes != uint32(size) || d.CapacityBytes != 178_176 || d.Tip.Slot != 140_000_122 || d.Tip.Hash != nil {
		t.Errorf("data %+v; want %d txs, %d bytes, slot 140000122, no hash", d, len(txs), size)
	}
	at, err := time.Parse(time.RFC3339Nano, d.TakenAt)
	if err != nil || at.Before(before) || at.After(time.Now()) {
		t.Errorf("taken_at %q (%v)", d.TakenAt, err)
	}
}

// N concurrent requests share one snapshot: the fake node sees one
// acquisition.
func TestMempoolRouteSharesOneSnapshot(t *testing.T) {
	s, n := mempoolServer(t, node.MempoolOptions{MaxAge: time.Minute})
	n.SetMempool(mempoolOf(1, vectorTxs(t)...))
	var wg sync.WaitGroup
	codes := make([]int, 32)
	for i := range codes {
		wg.Go(func() {
			req := httptest.NewRequest(http.MethodGet, "/v1/mempool", nil)
			req.Header.Set("Authorization", "Bearer "+mainnetKey)
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			codes[i] = w.Code
		})
	}
	wg.Wait()
	for i, c := range codes {
		if c != 200 {
			t.Fatalf("request %d: %d", i, c)
		}
	}
	if a := n.Acquires(); a != 1 {
		t.Errorf("%d acquisitions for %d requests, want 1", a, len(codes))
	}
}

type mempoolTxData struct {
	TxHash string `json:"tx_hash"`
	Size   int    `json:"size"`
	Inputs []struct {
		TxHash      string `json:"tx_hash"`
		OutputIndex uint32 `json:"output_index"`
	} `json:"inputs"`
	Outputs []struct {
		OutputIndex uint32 `json:"output_index"`
		Address     string `json:"address"`
		Value       struct {
			Lovelace json.Number            `json:"lovelace"`
			Assets   map[string]json.Number `json:"assets"`
		} `json:"value"`
	} `json:"outputs"`
}

func TestMempoolTxRoute(t *testing.T) {
	s, n := mempoolServer(t, node.MempoolOptions{})
	txs := vectorTxs(t)
	n.SetMempool(mempoolOf(7, txs[1:]...)) // the first (Byron) stays out
	for _, tx := range txs[1:] {
		r := get(t, s, "/v1/mempool/"+strings.ToUpper(tx.Hash))
		if r.Status != 200 {
			t.Fatalf("GET %s: %d %s", tx.Hash, r.Status, r.Raw)
		}
		var d mempoolTxData
		decodeExact(t, r.Data, &d)
		if d.TxHash != tx.Hash || d.Size != len(tx.CBOR) || len(d.Inputs) != len(tx.Inputs) || len(d.Outputs) == 0 {
			t.Fatalf("%s: %+v", tx.Hash, d)
		}
		for i, in := range tx.Inputs {
			if d.Inputs[i].TxHash != in.TxHash || d.Inputs[i].OutputIndex != in.Index {
				t.Errorf("%s input %d: %+v, want %s", tx.Hash, i, d.Inputs[i], in)
			}
		}
		for i, o := range d.Outputs {
			if o.OutputIndex != uint32(i) || o.Address == "" || o.Value.Lovelace == "" {
				t.Errorf("%s output %d: %+v", tx.Hash, i, o)
			}
		}
	}
	wantError(t, get(t, s, "/v1/mempool/"+txs[0].Hash), 404, "Transaction not found in the mempool")
	wantError(t, get(t, s, "/v1/mempool/"+txs[0].Hash[:63]), 400, "Invalid transaction hash format (expected 64 hex characters)")
	wantError(t, get(t, s, "/v1/mempool/"+strings.Repeat("g", 64)), 400, "Invalid transaction hash format (expected 64 hex characters)")
}

// A vector with native assets answers them in the spec's flat value form.
func TestMempoolTxRouteAssets(t *testing.T) {
	s, n := mempoolServer(t, node.MempoolOptions{})
	var withAssets *node.Tx
	for _, tx := range vectorTxs(t) {
		if bytes.Contains(tx.CBOR, []byte{0xa1, 0x58, 0x1c}) { // a multi-asset map keyed by a 28-byte policy
			withAssets = tx
		}
	}
	if withAssets == nil {
		t.Skip("no vector with native assets")
	}
	n.SetMempool(mempoolOf(7, withAssets))
	r := get(t, s, "/v1/mempool/"+withAssets.Hash)
	var d mempoolTxData
	decodeExact(t, r.Data, &d)
	found := false
	for _, o := range d.Outputs {
		for k, q := range o.Value.Assets {
			found = true
			if p := strings.IndexByte(k, '.'); p != 56 || q == "" {
				t.Errorf("asset key %q quantity %q", k, q)
			}
		}
	}
	if !found {
		t.Logf("outputs carry no assets: %s", r.Data)
	}
}

func wantError(t *testing.T, r response, status int, msg string) {
	t.Helper()
	if r.Status != status || r.Success || r.Error != msg {
		t.Errorf("got %d %q, want %d %q", r.Status, r.Error, status, msg)
	}
}

// A dead node answers 503 at once, a silent one 504 by the request's
// deadline, no node configured 503.
func TestMempoolRouteNodeDown(t *testing.T) {
	s, n := mempoolServer(t, node.MempoolOptions{})
	n.Close()
	start := time.Now()
	wantError(t, get(t, s, "/v1/mempool"), 503, "Mempool is unavailable for network mainnet")
	// At once: a refused dial, not a timeout (dial and handshake 5 s each).
	if d := time.Since(start); d >= 2*time.Second {
		t.Errorf("a dead node took %v", d)
	}
	wantError(t, get(t, s, "/v1/mempool/"+strings.Repeat("a", 64)), 503, "Mempool is unavailable for network mainnet")

	silent, sn := mempoolServer(t, node.MempoolOptions{})
	sn.MempoolSilent()
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	req := httptest.NewRequest(http.MethodGet, "/v1/mempool", nil).WithContext(ctx)
	req.Header.Set("Authorization", "Bearer "+mainnetKey)
	w := httptest.NewRecorder()
	start = time.Now()
	serveChecked(t, silent.Handler(), w, req)
	if w.Code != 504 || !strings.Contains(w.Body.String(), "Node did not answer in time") {
		t.Errorf("silent node: %d %s", w.Code, w.Body)
	}
	// By its own deadline, not the read's (10 s); the slack is a loaded
	// machine's.
	if d := time.Since(start); d >= 2*time.Second {
		t.Errorf("silent node answered after %v, deadline 300ms", d)
	}

	mainnet, _ := cardano.NetworkByName("mainnet")
	none := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": unqueriedDB(t, mainnet)}, Credentials: testCredentials, Log: quietLog})
	wantError(t, get(t, none, "/v1/mempool"), 503, "Mempool is unavailable for network mainnet")
}

// pendingChain is a small seeded chain with one block appended holding a
// transaction under the hash of the vector's first input, its outputs up
// to that input's index paying the vector's first output address: so the
// vector in the mempool spends an output the chain holds.
type pendingChain struct {
	db    *dbsync.DB
	tx    *node.Tx
	payee string // the vector's first output address
	spent node.Input
}

func seedPendingChain(t *testing.T) pendingChain {
	t.Helper()
	requireServices(t)
	var vec *node.Tx
	for _, v := range loadSubmitVectors(t).Vectors {
		if v.ID == mempoolVector {
			vec, _ = node.DecodeTxHex(v.CborHex)
		}
	}
	if vec == nil {
		t.Fatal("vector missing")
	}
	snap := decodedVector(t, vec)
	payee := snap.Outputs[0].Address
	dsn, m, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	raw, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	in := vec.Inputs[0]
	hash, _ := hex.DecodeString(in.TxHash)
	outs := make([]chaingen.PendingOutput, in.Index+1)
	for i := range outs {
		outs[i] = chaingen.PendingOutput{Address: payee, Lovelace: uint64(2_000_000 + i)}
	}
	served := false
	err = chaingen.Follow(t.Context(), raw, chaingen.FollowOptions{MaxBlocks: 1, TxsPerBlock: -1, Seed: 3, Manifest: m,
		Pending: func() []chaingen.PendingTx {
			if served {
				return nil
			}
			served = true
			return []chaingen.PendingTx{{Hash: hash, To: outs}}
		}})
	if err != nil {
		t.Fatal(err)
	}
	return pendingChain{db: testdb.MustOpenDBSync(t, dsn), tx: vec, payee: payee, spent: in}
}

// decodedVector is the vector as the mempool decodes it (outputs too).
func decodedVector(t *testing.T, tx *node.Tx) node.MempoolTx {
	t.Helper()
	s, n := mempoolServer(t, node.MempoolOptions{})
	_ = s
	n.SetMempool(mempoolOf(1, tx))
	mainnet, _ := cardano.NetworkByName("mainnet")
	snap, err := node.NewMempool(map[string]string{"mainnet": n.Socket}, node.MempoolOptions{}).Snapshot(t.Context(), mainnet)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := snap.Tx(tx.Hash)
	return got
}

type utxoItem struct {
	TxHash       string          `json:"transaction_id"`
	OutputIndex  uint32          `json:"output_index"`
	Address      string          `json:"address"`
	CreatedAt    json.RawMessage `json:"created_at"`
	Pending      bool            `json:"pending"`
	PendingSpent bool            `json:"pending_spent"`
	Value        struct {
		Lovelace json.Number `json:"lovelace"`
	} `json:"value"`
}

func TestPendingUTxOs(t *testing.T) {
	pc := seedPendingChain(t)
	mainnet, _ := cardano.NetworkByName("mainnet")
	n := nodetest.Start(t, mainnet.Magic)
	n.SetMempool(mempoolOf(99, pc.tx))
	plain := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": pc.db}, Credentials: testCredentials, Log: quietLog})
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": pc.db}, Credentials: testCredentials, Log: quietLog,
		Mempool: node.NewMempool(map[string]string{"mainnet": n.Socket}, node.MempoolOptions{})})
	vec := decodedVector(t, pc.tx)
	payeeOuts := 0
	for _, o := range vec.Outputs {
		if o.Address == pc.payee {
			payeeOuts++
		}
	}
	addr := "/v1/utxos/address/" + pc.payee

	// Without the parameter (or with false): byte for byte the answer of a
	// server with no mempool at all.
	want := get(t, plain, addr)
	for _, p := range []string{addr, addr + "?pending=false"} {
		if got := get(t, s, p); got.Status != 200 || !bytes.Equal(got.Raw, want.Raw) {
			t.Errorf("GET %s differs from the answer without a mempool:\n%s\n%s", p, got.Raw, want.Raw)
		}
	}
	var confirmed []utxoItem
	decodeExact(t, want.Data, &confirmed)
	if len(confirmed) != int(pc.spent.Index)+1 {
		t.Fatalf("confirmed outputs %d, want %d", len(confirmed), pc.spent.Index+1)
	}

	var marked []utxoItem
	r := get(t, s, addr+"?pending=true")
	decodeExact(t, r.Data, &marked)
	if len(marked) != len(confirmed)+payeeOuts {
		t.Fatalf("pending=true: %d outputs, want %d confirmed + %d pending", len(marked), len(confirmed), payeeOuts)
	}
	spentSeen := 0
	for i, u := range marked {
		switch {
		case i < len(confirmed):
			isSpent := u.TxHash == pc.spent.TxHash && u.OutputIndex == pc.spent.Index
			if u.PendingSpent != isSpent || u.Pending || u.TxHash != confirmed[i].TxHash {
				t.Errorf("confirmed %s#%d: pending_spent %v pending %v", u.TxHash, u.OutputIndex, u.PendingSpent, u.Pending)
			}
			if isSpent {
				spentSeen++
			}
		default:
			if !u.Pending || u.PendingSpent || u.TxHash != pc.tx.Hash || u.Address != pc.payee || string(u.CreatedAt) != "null" {
				t.Errorf("created output %+v", u)
			}
		}
	}
	if spentSeen != 1 {
		t.Errorf("%d outputs marked pending_spent, want 1", spentSeen)
	}

	var excluded []utxoItem
	decodeExact(t, get(t, s, addr+"?pending=exclude").Data, &excluded)
	if len(excluded) != len(confirmed)-1 {
		t.Errorf("pending=exclude: %d outputs, want %d", len(excluded), len(confirmed)-1)
	}
	for _, u := range excluded {
		if u.TxHash == pc.spent.TxHash && u.OutputIndex == pc.spent.Index || u.Pending || u.PendingSpent {
			t.Errorf("pending=exclude listed %+v", u)
		}
	}

	// The payee's stake key and payment credential see the created
	// outputs too.
	out := vec.Outputs[0]
	if out.StakeRaw != nil {
		var byStake []utxoItem
		decodeExact(t, get(t, s, "/v1/utxos/stake/"+hex.EncodeToString(out.StakeRaw[1:])+"?pending=true").Data, &byStake)
		created := 0
		for _, u := range byStake {
			if u.Pending {
				created++
			}
		}
		if created < payeeOuts {
			t.Errorf("by stake key: %d created outputs, want at least %d", created, payeeOuts)
		}
	}
	var byCred []utxoItem
	decodeExact(t, get(t, s, "/v1/utxos/credential/"+hex.EncodeToString(out.PaymentCred)+"?pending=true").Data, &byCred)
	if len(byCred) != len(marked) {
		t.Errorf("by credential: %d outputs, want %d", len(byCred), len(marked))
	}

	// Balances: exclude leaves the spent output out; true adds what the
	// mempool creates for the address.
	var spentValue, createdValue int64
	for _, u := range confirmed {
		if u.TxHash == pc.spent.TxHash && u.OutputIndex == pc.spent.Index {
			spentValue, _ = u.Value.Lovelace.Int64()
		}
	}
	for _, o := range vec.Outputs {
		if o.Address == pc.payee {
			createdValue += o.Lovelace.Int64()
		}
	}
	bal := func(q string) int64 {
		var v struct {
			Lovelace json.Number `json:"lovelace"`
		}
		r := get(t, s, "/v1/assets/balance/address/"+pc.payee+q)
		if r.Status != 200 {
			t.Fatalf("balance%s: %d %s", q, r.Status, r.Raw)
		}
		decodeExact(t, r.Data, &v)
		n, _ := v.Lovelace.Int64()
		return n
	}
	base := bal("")
	if got := bal("?pending=exclude"); got != base-spentValue {
		t.Errorf("balance pending=exclude %d, want %d - %d", got, base, spentValue)
	}
	if got := bal("?pending=true"); got != base-spentValue+createdValue {
		t.Errorf("balance pending=true %d, want %d - %d + %d", got, base, spentValue, createdValue)
	}
	for _, p := range []string{
		"/v1/utxos/credential/" + strings.Repeat("a", 56) + "?pending=yes",
		"/v1/assets/balance/credential/" + strings.Repeat("a", 56) + "?pending=1",
		"/v1/utxos/address/" + pc.payee + "?pending=",
	} {
		wantError(t, get(t, s, p), 400, "Invalid pending: must be true, false or exclude")
	}
	if got := get(t, s, "/v1/assets/balance/address/"+pc.payee); !bytes.Equal(got.Raw, get(t, plain, "/v1/assets/balance/address/"+pc.payee).Raw) {
		t.Error("the default balance differs from the answer without a mempool")
	}
	mempoolTipFromDBSync(t, pc.db, n)

	// A node that went away: 503 before any byte of the list.
	n.Close()
	down := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": pc.db}, Credentials: testCredentials, Log: quietLog,
		Mempool: node.NewMempool(map[string]string{"mainnet": n.Socket}, node.MempoolOptions{})})
	wantError(t, get(t, down, addr+"?pending=true"), 503, "Mempool is unavailable for network mainnet")
	wantError(t, get(t, down, "/v1/assets/balance/address/"+pc.payee+"?pending=exclude"), 503, "Mempool is unavailable for network mainnet")
}

// A ?pending= answer is kept per tip and snapshot: asked again within one
// snapshot it is the same bytes; once the node's mempool changed and a new
// snapshot was taken, the answer is the new one (the mempool left empty:
// no output created, none marked spent).
func TestPendingUTxOsFollowSnapshots(t *testing.T) {
	pc := seedPendingChain(t)
	mainnet, _ := cardano.NetworkByName("mainnet")
	n := nodetest.Start(t, mainnet.Magic)
	n.SetMempool(mempoolOf(99, pc.tx))
	plain := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": pc.db}, Credentials: testCredentials, Log: quietLog})
	mp := node.NewMempool(map[string]string{"mainnet": n.Socket}, node.MempoolOptions{MaxAge: time.Nanosecond, MaxStale: time.Nanosecond})
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": pc.db}, Credentials: testCredentials, Log: quietLog, Mempool: mp})
	addr := "/v1/utxos/address/" + pc.payee
	first := get(t, s, addr+"?pending=true")
	if first.Status != 200 || !bytes.Contains(first.Raw, []byte(`"pending":true`)) || !bytes.Contains(first.Raw, []byte(`"pending_spent":true`)) {
		t.Fatalf("with the transaction in the mempool: %d %s", first.Status, first.Raw)
	}
	n.SetMempool(mempoolOf(100))
	want := get(t, plain, addr).Raw
	for _, q := range []string{"?pending=true", "?pending=exclude"} {
		// MaxAge of a nanosecond: each request reads the node anew.
		if got := get(t, s, addr+q); got.Status != 200 || !bytes.Equal(got.Raw, want) {
			t.Errorf("%s with an empty mempool:\n%s\nwant\n%s", q, got.Raw, want)
		}
	}

	// One snapshot for a minute: the same bytes each time.
	n.SetMempool(mempoolOf(101, pc.tx))
	kept := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": pc.db}, Credentials: testCredentials, Log: quietLog,
		Mempool: node.NewMempool(map[string]string{"mainnet": n.Socket}, node.MempoolOptions{MaxAge: time.Minute})})
	a, b := get(t, kept, addr+"?pending=true"), get(t, kept, addr+"?pending=true")
	if !bytes.Equal(a.Raw, first.Raw) || !bytes.Equal(b.Raw, first.Raw) {
		t.Errorf("asked twice within one snapshot:\n%s\n%s\nwant\n%s", a.Raw, b.Raw, first.Raw)
	}
}

// BenchmarkMempoolRoute measures GET /v1/mempool with 1,000 transactions
// in the node's mempool, requests from 8 goroutines, the snapshot
// refreshed every second as in production; it reports the p99 latency.
func BenchmarkMempoolRoute(b *testing.B) {
	mainnet, _ := cardano.NetworkByName("mainnet")
	n := nodetest.Start(b, mainnet.Magic)
	txs := loadBenchVectors(b)
	m := nodetest.Mempool{Slot: 1, Capacity: 178_176 * 10}
	for i := 0; len(m.Txs) < 1000; i++ {
		m.Txs = append(m.Txs, nodetest.MempoolTx(txs[i%len(txs)].CBOR))
	}
	n.SetMempool(m)
	s := New(Deps{
		Networks:    map[string]*dbsync.DB{"mainnet": unqueriedDB(b, mainnet)},
		Credentials: testCredentials,
		Mempool:     node.NewMempool(map[string]string{"mainnet": n.Socket}, node.MempoolOptions{}),
		Log:         quietLog,
	})
	h := s.Handler()
	call := func() time.Duration {
		req := httptest.NewRequest(http.MethodGet, "/v1/mempool", nil)
		req.Header.Set("Authorization", "Bearer "+mainnetKey)
		w := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(w, req)
		d := time.Since(start)
		if w.Code != 200 {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
		return d
	}
	call() // the first snapshot
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism(4) // 4 × GOMAXPROCS goroutines
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			mine = append(mine, call())
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "max-µs")
	}
	b.ReportMetric(float64(n.Acquires()), "acquires")
}

// loadBenchVectors is the valid vectors, decoded.
func loadBenchVectors(b *testing.B) []*node.Tx {
	b.Helper()
	raw, err := os.ReadFile("../node/testdata/tx-cbor.json")
	if err != nil {
		b.Fatal(err)
	}
	var v submitVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		b.Fatal(err)
	}
	var txs []*node.Tx
	for _, x := range v.Vectors {
		tx, err := node.DecodeTxHex(x.CborHex)
		if err != nil {
			b.Fatal(err)
		}
		txs = append(txs, tx)
	}
	return txs
}

// mempoolTipFromDBSync: GET /v1/mempool's tip is the node's tip, the slot
// before the one LocalTxMonitor reports, with the hash of db-sync's block
// at that slot (read here independently), null where db-sync holds none.
func mempoolTipFromDBSync(t *testing.T, db *dbsync.DB, n *nodetest.Node) {
	t.Helper()
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": db}, Credentials: testCredentials, Log: quietLog,
		Mempool: node.NewMempool(map[string]string{"mainnet": n.Socket}, freshMempool)})
	var tip, mid struct {
		Slot uint64 `db:"slot_no"`
		Hash string `db:"hash"`
	}
	raw := db.Primary()
	if err := raw.Get(&tip, `SELECT slot_no, encode(hash, 'hex') AS hash FROM block WHERE block_no IS NOT NULL ORDER BY slot_no DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	if err := raw.Get(&mid, `SELECT slot_no, encode(hash, 'hex') AS hash FROM block WHERE block_no IS NOT NULL AND slot_no < $1 ORDER BY slot_no DESC LIMIT 1`, tip.Slot/2); err != nil {
		t.Fatal(err)
	}
	var empty uint64 // a slot without a block, below the tip
	if err := raw.Get(&empty, `SELECT min(s) FROM generate_series(1, $1::bigint) s WHERE NOT EXISTS (SELECT 1 FROM block WHERE slot_no = s)`, tip.Slot); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		reported uint64
		slot     uint64
		hash     string
	}{
		{"db-sync's tip", tip.Slot + 1, tip.Slot, tip.Hash},
		{"an older block", mid.Slot + 1, mid.Slot, mid.Hash},
		{"a slot without a block", empty + 1, empty, ""},
		{"ahead of db-sync", tip.Slot + 20, tip.Slot + 19, ""},
		{"the origin", 0, 0, ""},
	} {
		m := mempoolOf(c.reported)
		n.SetMempool(m)
		r := get(t, s, "/v1/mempool")
		var d mempoolStatusData
		decodeExact(t, r.Data, &d)
		if r.Status != 200 || d.Tip.Slot != c.slot || (c.hash == "") != (d.Tip.Hash == nil) || (d.Tip.Hash != nil && *d.Tip.Hash != c.hash) {
			t.Errorf("%s: tip %+v (hash %v), want slot %d hash %q", c.name, d.Tip, d.Tip.Hash, c.slot, c.hash)
		}
	}
}
