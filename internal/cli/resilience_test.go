//go:build linux

package cli

// Resilience tests (docs/RESILIENCE.md): the whole service, started by serve() as
// `syncgate serve` would, against PostgreSQL servers the tests start,
// freeze (SIGSTOP: a black hole) and stop, and a redis-server they kill.
// Deadlines are short (STATEMENT_TIMEOUT 1 s: a request's deadline is 3 s)
// so the suite stays quick. The numbers they log are in docs/RESILIENCE.md.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

const (
	resBootstrapKey = "resilience-bootstrap-key-0123456789abcdef"
	// resDeadline is a data or admin request's deadline with
	// STATEMENT_TIMEOUT=1s (handlers: statement timeout + 2 s).
	resDeadline = 3 * time.Second
	// resSlack is what a loaded two-core test machine may add to a
	// deadline (scheduling, the client's own work); the numbers measured
	// are logged and kept in docs/RESILIENCE.md.
	resSlack = 500 * time.Millisecond
)

// logLines returns the JSON log lines of logs whose msg is msg.
func logLines(logs *testdb.LogBuffer, msg string) []map[string]any {
	var out []map[string]any
	for _, l := range strings.Split(logs.String(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

// service is one running serve().
type service struct {
	t      testing.TB
	base   string
	addr   string
	logs   *testdb.LogBuffer
	cancel context.CancelFunc
	done   chan error
	client *http.Client
	key    string // a mainnet data key, once credential() made it
	admin  string // its partner's admin key
}

// resEnv is the environment every resilience service starts with.
func resEnv(extra ...string) []string {
	return append([]string{
		"LISTEN_ADDR=127.0.0.1:0",
		"STATEMENT_TIMEOUT=1s",
		"SHUTDOWN_DELAY=0s",
		"SHUTDOWN_TIMEOUT=5s",
		"DBSYNC_PROBE_INTERVAL=500ms",
		"DBSYNC_PROBE_TIMEOUT=500ms",
		"DB_CONNECT_TIMEOUT=1s",
		"BOOTSTRAP_ADMIN_KEY=" + resBootstrapKey,
		"LOG_LEVEL=info",
	}, extra...)
}

// startService runs serve() with env (ctx: the signal context, nil for
// one the test cancels) and waits until it listens.
func startService(t testing.TB, ctx context.Context, env []string) *service {
	t.Helper()
	cfg, err := config.Load(env, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &service{t: t, logs: &testdb.LogBuffer{}, cancel: cancel, done: make(chan error, 1),
		client: &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}
	log := slog.New(slog.NewJSONHandler(s.logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	addr := make(chan string, 1)
	go func() { s.done <- serve(ctx, cfg, log, func(a string) { addr <- a }) }()
	select {
	case s.addr = <-addr:
	case err := <-s.done:
		t.Fatalf("serve ended at start: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not listen within a minute")
	}
	s.base = "http://" + s.addr
	t.Cleanup(func() {
		s.cancel()
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop within 30 s")
		}
		s.client.CloseIdleConnections()
	})
	return s
}

// result is one request's outcome as the client saw it.
type result struct {
	path       string
	status     int
	error      string // the envelope's error
	retryAfter string
	elapsed    time.Duration
	err        error // transport: a reset, a timeout
	body       []byte
}

func (s *service) do(method, path, key, body string) result {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, s.base+path, rd)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := s.client.Do(req)
	r := result{path: path}
	if err == nil {
		r.body, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		r.status, r.retryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
		var env struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(r.body, &env)
		r.error = env.Error
	}
	r.elapsed, r.err = time.Since(start), err
	return r
}

// get sends GET path with the data key, or the admin key for admin paths.
func (s *service) get(path string) result {
	key := s.key
	if strings.HasPrefix(path, "/v1/admin/") {
		key = s.admin
	}
	return s.do(http.MethodGet, path, key, "")
}

// data decodes r's envelope data into v.
func (r result) data(t testing.TB, v any) {
	t.Helper()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil || json.Unmarshal(env.Data, v) != nil {
		t.Fatalf("%s: %d %s", r.path, r.status, r.body)
	}
}

// credential makes a partner (s.admin), a user and a mainnet data key
// (s.key) through the admin API.
func (s *service) credential() {
	keys := s.credentials(1)
	s.key = keys[0]
}

// credentials makes a partner (s.admin), a user and n mainnet data keys
// through the admin API.
func (s *service) credentials(n int) []string {
	t := s.t
	t.Helper()
	var k struct {
		Key string `json:"key"`
	}
	r := s.do("POST", "/v1/admin/keys", resBootstrapKey, `{"admin_entity_name":"resilience","permissions":["manage_users","manage_credentials"]}`)
	r.data(t, &k)
	var u struct {
		ID string `json:"id"`
	}
	s.do("POST", "/v1/admin/users", k.Key, `{"name":"load"}`).data(t, &u)
	s.admin = k.Key
	keys := make([]string, n)
	for i := range keys {
		var c struct {
			APIKey string `json:"api_key"`
		}
		s.do("POST", "/v1/admin/credentials", k.Key, fmt.Sprintf(`{"name":"load","user_account_id":%q,"network_id":0,"rate_limit_per_minute":10000}`, u.ID)).data(t, &c)
		if c.APIKey == "" {
			t.Fatal("no data key")
		}
		keys[i] = c.APIKey
	}
	return keys
}

// chainPaths are data requests over a seeded chain, cheap and varied.
func chainPaths(m *chaingen.Manifest) []string {
	return []string{
		"/v1/epochs/latest",
		"/v1/utxos/address/" + m.Addresses[0].Address,
		"/v1/assets/balance/address/" + m.Addresses[1].Address,
		"/v1/tx/history/" + m.Addresses[2].Address + "?limit=5",
		"/v1/assets/" + m.Assets.CIP25V1.Unit,
	}
}

// seedCluster creates a db-sync database on c and seeds the tests' small
// chain into it (same seed as testdb.DBSync, so both hold the same chain).
func seedCluster(t *testing.T, c *testdb.Cluster, name string) (string, *chaingen.Manifest) {
	t.Helper()
	dsn := c.CreateDatabase(name)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	m, err := chaingen.Seed(ctx, dsn, chaingen.Options{Txs: 2500, Seed: 42, Mode: chaingen.ModeCore, TipTime: testdb.FixedTipTime})
	if err != nil {
		t.Fatal(err)
	}
	return dsn, m
}

// load runs workers sending paths round-robin until stop closes and
// returns every result.
func (s *service) load(workers int, paths []string, stop <-chan struct{}) []result {
	var mu sync.Mutex
	var out []result
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				r := s.get(paths[i%len(paths)])
				mu.Lock()
				out = append(out, r)
				mu.Unlock()
				// Paced: fast 503s would otherwise spend the key's rate
				// limit (10,000 a minute) within seconds.
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
	wg.Wait()
	return out
}

// summary is a set of results in numbers.
type summary struct {
	n            int
	byStatus     map[int]int
	transport    int           // resets, client timeouts
	maxElapsed   time.Duration // slowest answer
	maxOvershoot time.Duration // slowest answer minus its deadline
	over         int           // answers later than deadline + resSlack
}

func summarize(rs []result, deadline func(path string) time.Duration) summary {
	s := summary{n: len(rs), byStatus: map[int]int{}, maxOvershoot: -time.Hour}
	for _, r := range rs {
		if r.err != nil {
			s.transport++
			continue
		}
		s.byStatus[r.status]++
		s.maxElapsed = max(s.maxElapsed, r.elapsed)
		o := r.elapsed - deadline(r.path)
		s.maxOvershoot = max(s.maxOvershoot, o)
		if o > resSlack {
			s.over++
		}
	}
	return s
}

func (s summary) String() string {
	codes := make([]int, 0, len(s.byStatus))
	for c := range s.byStatus {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	var parts []string
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%d×%d", s.byStatus[c], c))
	}
	return fmt.Sprintf("%d requests (%s), %d transport errors, slowest %s, max overshoot %s, %d past deadline+%s",
		s.n, strings.Join(parts, " "), s.transport, s.maxElapsed.Round(time.Millisecond), s.maxOvershoot.Round(time.Millisecond), s.over, resSlack)
}

// percentile of the elapsed times of rs with status code (p in 0..100).
func percentile(rs []result, code int, p float64) time.Duration {
	var ds []time.Duration
	for _, r := range rs {
		if r.err == nil && r.status == code {
			ds = append(ds, r.elapsed)
		}
	}
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[min(len(ds)-1, int(float64(len(ds))*p/100))]
}

// until polls cond every 20 ms up to limit and returns how long it took.
func until(t *testing.T, what string, limit time.Duration, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > limit {
			t.Fatalf("%s: not within %s", what, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start)
}
