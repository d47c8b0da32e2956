package handlers

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/nodetest"
)

// testMempool is a mempool backed by the fake node's submission path: a
// transaction the node accepts enters it, the next block the chain follower
// makes takes every transaction out of it (as a node's mempool empties into
// its next block). node/nodetest has no LocalTxMonitor server, so this is
// what txstatus.Mempool is tested with; the node package's reader will
// implement the same interface over the socket.
type testMempool struct {
	mu    sync.Mutex
	txs   map[[32]byte]bool
	order [][32]byte
	fail  error // Contains fails: the node is down
	hang  bool  // Contains never answers: the node is hung
}

func newTestMempool() *testMempool { return &testMempool{txs: map[[32]byte]bool{}} }

func (p *testMempool) Contains(ctx context.Context, _ string, hash [32]byte) (bool, error) {
	p.mu.Lock()
	fail, hang, in := p.fail, p.hang, p.txs[hash]
	p.mu.Unlock()
	switch {
	case hang:
		<-ctx.Done()
		return false, ctx.Err()
	case fail != nil:
		return false, fail
	}
	return in, nil
}

// accept is the fake node's behaviour: accept and keep in the mempool.
func (p *testMempool) accept(s nodetest.Submission) error {
	tx, err := node.DecodeTx(s.Tx)
	if err != nil {
		return err
	}
	h, _ := cardano.ParseTxHash(tx.Hash)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.txs[h] {
		// What a node answers for a transaction it already holds.
		return nodetest.ConwayBadInputs(h[:], 0)
	}
	p.txs[h] = true
	p.order = append(p.order, h)
	return nil
}

// take empties the mempool into the follower's next block.
func (p *testMempool) take(payee string) []chaingen.PendingTx {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []chaingen.PendingTx
	for _, h := range p.order {
		out = append(out, chaingen.PendingTx{Hash: append([]byte(nil), h[:]...),
			To: []chaingen.PendingOutput{{Address: payee, Lovelace: 2_000_000}}})
	}
	p.txs, p.order = map[[32]byte]bool{}, nil
	return out
}

func (p *testMempool) set(fail error, hang bool) {
	p.mu.Lock()
	p.fail, p.hang = fail, hang
	p.mu.Unlock()
}

// statusEnv is one instance over a db-sync database of the test's own
// (the follower moves it), a migrated admin database, the real Redis and
// a fake node.
type statusEnv struct {
	t        testing.TB
	srv      *Server
	node     *nodetest.Node
	pool     *testMempool
	store    *admin.Store
	db       *dbsync.DB
	raw      *sql.DB
	manifest *chaingen.Manifest
	redis    *cache.Client
	adminDB  *sqlx.DB

	submitTimeout time.Duration
}

// newStatusEnv starts the environment; submitTimeout bounds the node's
// answer (short where a test makes the node silent).
func newStatusEnv(t testing.TB, submitTimeout time.Duration) *statusEnv {
	t.Helper()
	requireServices(t)
	dsn, m, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	e := &statusEnv{t: t, submitTimeout: submitTimeout, db: testdb.MustOpenDBSync(t, dsn), manifest: m, pool: newTestMempool()}
	if e.raw, err = sql.Open("postgres", dsn); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.raw.Close() })
	adminDB := testdb.Open(t, testdb.New(t, "sg_test_admin"))
	if _, err := admin.Migrate(context.Background(), adminDB); err != nil {
		t.Fatal(err)
	}
	// As serve sizes the admin pool (database/sql keeps 2 idle
	// connections by default, so most reads would dial).
	adminDB.SetMaxOpenConns(16)
	adminDB.SetMaxIdleConns(16)
	e.adminDB = adminDB
	e.store = admin.NewStore(adminDB, admin.Options{Log: quietLog})
	t.Cleanup(e.store.Close)
	mainnet, _ := cardano.NetworkByName("mainnet")
	e.node = nodetest.Start(t, mainnet.Magic)
	e.node.Set(e.pool.accept)
	e.redis = testRedis(t)
	e.srv = e.instance(e.redis)
	return e
}

// instance is another syncgate instance of the same deployment.
func (e *statusEnv) instance(rc *cache.Client) *Server {
	return New(Deps{
		Networks:    map[string]*dbsync.DB{"mainnet": e.db},
		Credentials: testCredentials,
		Redis:       rc,
		Admin:       e.store,
		Submitter:   node.NewSubmitter(map[string]string{"mainnet": e.node.Socket}, node.Options{SubmitTimeout: e.submitTimeout}),
		TxMempool:   e.pool,
		Log:         quietLog,
	})
}

// follower moves the chain; its blocks take the mempool's transactions.
func (e *statusEnv) follower(slotsPerBlock uint64, withPending bool) *chaingen.Follower {
	e.t.Helper()
	opts := chaingen.FollowOptions{SlotsPerBlock: slotsPerBlock, TxsPerBlock: -1, Seed: 3, Manifest: e.manifest}
	if withPending {
		opts.Pending = func() []chaingen.PendingTx { return e.pool.take(e.manifest.ScriptAddress.Address) }
	}
	f, err := chaingen.NewFollower(context.Background(), e.raw, opts)
	if err != nil {
		e.t.Fatal(err)
	}
	return f
}

type txStatusBody struct {
	Success bool   `json:"success"`
	Error   string `json:"error"`
	Data    struct {
		TxHash        string `json:"tx_hash"`
		Status        string `json:"status"`
		Confirmations *int64 `json:"confirmations"`
		Block         *struct {
			Hash   string `json:"hash"`
			Height int64  `json:"height"`
			Slot   int64  `json:"slot"`
		} `json:"block"`
		Tip struct {
			Slot int64  `json:"slot"`
			Hash string `json:"hash"`
		} `json:"tip"`
		SubmittedAt *time.Time `json:"submitted_at"`
		TTLSlot     *int64     `json:"ttl_slot"`
		Reason      *string    `json:"reason"`
		Mempool     string     `json:"mempool"`
	} `json:"data"`
}

func (e *statusEnv) status(srv *Server, hash string) (int, txStatusBody) {
	e.t.Helper()
	req := httptest.NewRequest("GET", "/v1/tx/status/"+hash, nil)
	req.Header.Set("Authorization", "Bearer "+mainnetKey)
	w := httptest.NewRecorder()
	serveChecked(e.t, srv.Handler(), w, req)
	var b txStatusBody
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		e.t.Fatalf("status body: %q", w.Body.String())
	}
	return w.Code, b
}

type submitStatusBody struct {
	Success bool   `json:"success"`
	Error   string `json:"error"`
	Data    *struct {
		TxHash string `json:"txHash"`
		Status string `json:"status"`
	} `json:"data"`
}

func (e *statusEnv) submit(srv *Server, txHex string, skip bool) (int, submitStatusBody) {
	e.t.Helper()
	req := httptest.NewRequest("POST", "/v1/tx/submit", strings.NewReader(submitJSON(txHex, skip)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+mainnetKey)
	w := httptest.NewRecorder()
	serveChecked(e.t, srv.Handler(), w, req)
	var b submitStatusBody
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		e.t.Fatalf("submit body: %q", w.Body.String())
	}
	return w.Code, b
}

// received counts the node's submissions of one transaction.
func (e *statusEnv) received(hash string) int {
	n := 0
	for _, s := range e.node.Received() {
		if tx, err := node.DecodeTx(s.Tx); err == nil && tx.Hash == hash {
			n++
		}
	}
	return n
}

// vectorTx is one of the real transactions of node/testdata.
func vectorTx(t testing.TB, id string) *node.Tx {
	t.Helper()
	raw, err := os.ReadFile("../node/testdata/tx-cbor.json")
	if err != nil {
		t.Fatal(err)
	}
	var v submitVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	for _, x := range v.Vectors {
		if x.ID == id {
			tx, err := node.DecodeTxHex(x.CborHex)
			if err != nil {
				t.Fatal(err)
			}
			return tx
		}
	}
	t.Fatalf("no vector %s", id)
	return nil
}

// errNodeDown is the test mempool's answer while the node is down.
var errNodeDown = errors.New("node: unavailable")

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
