package clientcheck_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/cli"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/jsclients"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/node/demonode"
)

// seedTxs is the chain's size: the generator's minimum, which still holds
// every entity the scripts read (the manifest names them).
const seedTxs = 2500

// blockEvery is how often the follower appends a block while it runs.
const blockEvery = time.Second

// stack is one syncgate serving a moving chain, as `syncgate demo` wires
// it: a seeded db-sync database, the funded demo wallet, the demo node
// taking its transactions, a follower writing a block every second (with
// what the node accepted), and the real service (cli.Serve) over an admin
// database of its own, Redis, the node's socket and webhooks.
type stack struct {
	base     string // http://127.0.0.1:port
	key      string // a mainnet data key (project_id)
	chainDSN string
	raw      *sqlx.DB // the test's own SQL over the chain
	m        *chaingen.Manifest
	wallet   *chaingen.DemoWallet
	chain    *mover
}

// url is the Blockfrost dialect's base URL with the key in the header.
func (s *stack) url() string { return s.base + "/api/v0" }

// keyURL is the base URL with the key in the path (Mesh sends no header).
func (s *stack) keyURL() string { return s.base + "/key/" + s.key + "/api/v0" }

// startStack builds the stack for one test and tears it down when the
// test ends. The follower starts paused (see mover).
func startStack(t *testing.T) *stack {
	t.Helper()
	testdb.RequireServices(t)
	jsclients.Require(t)
	ctx := t.Context()
	start := time.Now()

	chainDSN := testdb.New(t, "sg_test_clients_chain")
	m, err := chaingen.Seed(ctx, chainDSN, chaingen.Options{Txs: seedTxs, Seed: 42, Mode: chaingen.ModeCore})
	if err != nil {
		t.Fatal(err)
	}
	chainDB, err := sql.Open("postgres", chainDSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chainDB.Close() })
	w, err := chaingen.FundDemoWallet(ctx, chainDB, m)
	if err != nil {
		t.Fatal(err)
	}
	seeded := time.Since(start)

	mainnet, _ := cardano.NetworkByName("mainnet")
	ledger := testdb.MustOpenDBSync(t, chainDSN)
	dir, err := os.MkdirTemp("", "sgclients") // unix socket paths are short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "node.socket")
	node, err := demonode.Listen(ctx, socket, demonode.Options{Network: mainnet, Ledger: ledger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { node.Close() })
	// Blocks carry what the node accepted and no traffic of the
	// follower's own: a block holding both writes two tx_cbor rows under
	// one id (the generator's CBOR rows take explicit ids, the submitted
	// ones the sequence, which is moved only as the block commits).
	f, err := chaingen.NewFollower(ctx, chainDB, chaingen.FollowOptions{Manifest: m, Submitted: node.Mempool(),
		TxsPerBlock: -1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	mv := newMover(f)
	moveCtx, stopMoving := context.WithCancel(context.Background())
	moved := make(chan struct{})
	go func() { defer close(moved); mv.run(moveCtx, blockEvery) }()
	t.Cleanup(func() { stopMoving(); <-moved })

	base := serve(t, chainDSN, socket)
	s := &stack{base: base, chainDSN: chainDSN, raw: testdb.Open(t, chainDSN), m: m, wallet: w, chain: mv}
	s.key = s.dataKey(t)
	t.Logf("stack: chain of %d transactions seeded and the demo wallet funded in %s, serving at %s after %s",
		m.Counts.Txs, seeded.Round(time.Millisecond), base, time.Since(start).Round(time.Millisecond))
	return s
}

// webhookSecretKey seals webhook signing secrets (any 32 bytes, hex).
const webhookSecretKey = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed"

// bootstrapKey is the admin bootstrap key the stack's server takes.
const bootstrapKey = "clientcheck-bootstrap-key-0123456789abcdef"

// serve runs cli.Serve on a free port until the test ends and returns its
// base URL once /readyz answers.
func serve(t *testing.T, chainDSN, socket string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	environ := []string{
		"LISTEN_ADDR=" + addr,
		"DBSYNC_MAINNET_URL=" + chainDSN,
		"ADMIN_DATABASE_URL=" + testdb.New(t, "sg_test_clients_admin"),
		// A Redis of its own: answers are cached under block hashes, and
		// generated chains repeat them (a shared Redis holds other runs').
		"REDIS_URL=" + testdb.NewRedisServer(t).URL(),
		"NODE_SOCKET_MAINNET=" + socket,
		"BOOTSTRAP_ADMIN_KEY=" + bootstrapKey,
		"WEBHOOK_SECRET_KEY=" + webhookSecretKey,
		"WEBHOOK_ALLOW_PRIVATE=true", // the receiver is a local test server
		"LIST_SPOOL_DIR=" + t.TempDir(),
		"LOG_LEVEL=warn",
		"SHUTDOWN_DELAY=0s",
		"SHUTDOWN_TIMEOUT=5s",
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cli.Serve(ctx, environ, nil) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	base := "http://" + addr
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v", err)
		default:
		}
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("syncgate was not ready within a minute")
		}
	}
}

// dataKey issues a mainnet data key through the admin API, as a partner
// does: an admin key from the bootstrap key, a user, a credential with the
// highest rate limit (the *All helpers fire ten pages at once).
func (s *stack) dataKey(t *testing.T) string {
	t.Helper()
	var k struct{ Key string }
	s.admin(t, bootstrapKey, "/v1/admin/keys", `{"admin_entity_name":"clientcheck","permissions":["manage_users","manage_credentials"]}`, &k)
	var u struct{ ID string }
	s.admin(t, k.Key, "/v1/admin/users", `{"name":"clients"}`, &u)
	var c struct {
		APIKey string `json:"api_key"`
	}
	s.admin(t, k.Key, "/v1/admin/credentials",
		`{"name":"clients","network_id":0,"rate_limit_per_minute":10000,"user_account_id":"`+u.ID+`"}`, &c)
	if c.APIKey == "" {
		t.Fatal("no api_key issued")
	}
	return c.APIKey
}

// admin POSTs body to an admin route and decodes the envelope's data.
func (s *stack) admin(t *testing.T, key, path, body string, into any) {
	t.Helper()
	status, raw := s.do(t, "POST", path, key, body)
	if status != http.StatusCreated {
		t.Fatalf("POST %s: %d %s", path, status, raw)
	}
	var env struct{ Data json.RawMessage }
	if err := json.Unmarshal(raw, &env); err != nil || json.Unmarshal(env.Data, into) != nil {
		t.Fatalf("POST %s: %s (%v)", path, raw, err)
	}
}

// do sends one /v1 request with a bearer key and returns the status and body.
func (s *stack) do(t *testing.T, method, path, key, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, s.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// mover runs the follower: a block every interval while not paused, each
// opening with the demo node's accepted transactions. Paused, the chain
// stands still, so answers and the test's SQL describe the same chain.
type mover struct {
	f      *chaingen.Follower
	gate   sync.Mutex // held while a block is written, and while paused
	mu     sync.Mutex
	err    error
	blocks int
}

func newMover(f *chaingen.Follower) *mover {
	m := &mover{f: f}
	m.gate.Lock() // starts paused
	return m
}

func (m *mover) run(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if !m.gate.TryLock() {
			continue // paused
		}
		_, err := m.f.Step(ctx)
		m.gate.Unlock()
		m.mu.Lock()
		if err != nil && ctx.Err() == nil {
			m.err = err
		}
		if err == nil {
			m.blocks++
		}
		failed := m.err != nil
		m.mu.Unlock()
		if failed {
			return
		}
	}
}

// pause waits for a block being written and stops the chain.
func (m *mover) pause() { m.gate.Lock() }

// resume lets the chain move again.
func (m *mover) resume() { m.gate.Unlock() }

// check fails the test when the follower stopped on an error.
func (m *mover) check(t *testing.T) {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		t.Fatalf("the chain follower stopped: %v", m.err)
	}
}

// waitInBlock waits until the transaction hash is in a block of the
// chain (the test's SQL) and returns that block's height.
func (s *stack) waitInBlock(t *testing.T, hash string, within time.Duration) int64 {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var height int64
		err := s.raw.GetContext(t.Context(), &height, `SELECT b.block_no FROM tx JOIN block b ON b.id = tx.block_id
			WHERE tx.hash = decode($1, 'hex')`, hash)
		if err == nil {
			return height
		}
		if !errors.Is(err, sql.ErrNoRows) {
			t.Fatal(err)
		}
		s.chain.check(t)
		if time.Now().After(deadline) {
			t.Fatalf("transaction %s not in a block after %s", hash, within)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// runScript runs a node script of testdata with env and decodes the JSON
// it prints into out; it fails the test when the script fails.
func runScript(t *testing.T, script string, env map[string]string, out any) {
	t.Helper()
	start := time.Now()
	stdout, err := jsclients.Run(t, t.Context(), script, env)
	t.Logf("%s ran in %s", script, time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("%v\nstdout: %s", err, stdout)
	}
	if err := json.Unmarshal(stdout, out); err != nil {
		t.Fatalf("%s printed %s: %v", script, stdout, err)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return string(b)
}
