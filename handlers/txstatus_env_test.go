package handlers

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
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

// freshMempool makes every mempool question read the node anew (reads
// are still shared by concurrent requests): a test's next status sees what
// the fake node holds now, not a snapshot of up to a second ago.
var freshMempool = node.MempoolOptions{MaxAge: time.Nanosecond, MaxStale: time.Nanosecond}

// statusEnv is one instance over a db-sync database of the test's own
// (the follower moves it), a migrated admin database, the real Redis and
// a fake node that keeps what it accepts in the mempool its LocalTxMonitor
// serves (the mempool status reads through node.Mempool, over the socket).
type statusEnv struct {
	t        testing.TB
	srv      *Server
	node     *nodetest.Node
	store    *admin.Store
	db       *dbsync.DB
	raw      *sql.DB
	manifest *chaingen.Manifest
	redis    *cache.Client
	adminDB  *sqlx.DB

	submitTimeout time.Duration
	// mempoolOpts are the mempool reader's options of the next instance
	// (freshMempool unless a test says otherwise).
	mempoolOpts node.MempoolOptions
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
	e := &statusEnv{t: t, submitTimeout: submitTimeout, db: testdb.MustOpenDBSync(t, dsn), manifest: m, mempoolOpts: freshMempool}
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
	e.node.AcceptIntoMempool()
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
		Mempool:     node.NewMempool(map[string]string{"mainnet": e.node.Socket}, e.mempoolOpts),
		Log:         quietLog,
	})
}

// follower moves the chain; pending, when set, says what each block
// includes besides nothing (takeMempool: what the fake node holds).
func (e *statusEnv) follower(slotsPerBlock uint64, pending func() []chaingen.PendingTx) *chaingen.Follower {
	e.t.Helper()
	opts := chaingen.FollowOptions{SlotsPerBlock: slotsPerBlock, TxsPerBlock: -1, Seed: 3, Manifest: e.manifest, Pending: pending}
	f, err := chaingen.NewFollower(context.Background(), e.raw, opts)
	if err != nil {
		e.t.Fatal(err)
	}
	return f
}

// takeMempool empties the fake node's mempool into a block, as a node's
// next block takes its mempool: each transaction under its own hash and
// CBOR, paying the script address.
func (e *statusEnv) takeMempool() []chaingen.PendingTx {
	return e.pendingTxs(e.node.TakeMempool()...)
}

// pendingTxs are transactions for the follower's next block.
func (e *statusEnv) pendingTxs(raws ...[]byte) []chaingen.PendingTx {
	var out []chaingen.PendingTx
	for _, raw := range raws {
		tx, err := node.DecodeTx(raw)
		if err != nil {
			e.t.Errorf("mempool transaction: %v", err)
			continue
		}
		h, _ := cardano.ParseTxHash(tx.Hash)
		out = append(out, chaingen.PendingTx{Hash: h[:], CBOR: raw,
			To: []chaingen.PendingOutput{{Address: e.manifest.ScriptAddress.Address, Lovelace: 2_000_000}}})
	}
	return out
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

// get is a GET with the mainnet key, checked against the OpenAPI
// document; it returns the status and the body.
func (e *statusEnv) get(srv *Server, path string) (int, []byte) {
	e.t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("Authorization", "Bearer "+mainnetKey)
	w := httptest.NewRecorder()
	serveChecked(e.t, srv.Handler(), w, req)
	return w.Code, w.Body.Bytes()
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

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
