//go:build linux

package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// sharedChain seeds the tests' small chain on the shared test server,
// dropped when the test ends.
func sharedChain(t testing.TB) (string, *chaingen.Manifest) {
	t.Helper()
	dsn, m, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	return dsn, m
}

// floodRun is one flood's outcome.
type floodRun struct {
	rs           []result
	took         time.Duration
	noRetryAfter int64
	refusals     []result // the 503s as the service's access log timed them
}

// flood starts a service admitting two requests per db-sync server, eight
// queued and 24 in flight, and sends it 64 clients (each pausing 20 ms
// between requests) for 3 s.
func flood(tb testing.TB) floodRun {
	testdb.RequireServices(tb)
	dsn, m := sharedChain(tb)
	s := startService(tb, nil, resEnv("DBSYNC_MAINNET_URL="+dsn, "ADMIN_DATABASE_URL="+testdb.New(tb, "sg_res_admin"),
		"DBSYNC_MAX_ACTIVE=2", "DBSYNC_MAX_QUEUE=8", "MAX_IN_FLIGHT=24"))
	keys := s.credentials(16) // 10,000 a minute each: the flood must not meet the rate limit
	// History pages never asked for before: first pages, and pages asked
	// for again, are cached under the tip, and concurrent requests for one
	// share its read (so they would wait for it rather than meet the
	// gate); this is about the gate. Each request takes the next
	// (limit, offset) of the address's history.
	var pageNo atomic.Int64
	unseen := func(route, addr string, txs int64) string {
		n := pageNo.Add(1)
		return fmt.Sprintf("/v1/tx/%s/%s?limit=%d&offset=%d", route, addr, 1+n%20, 1+(n/20)%max(txs-1, 1))
	}
	paths := []func() string{
		func() string { return unseen("address", m.Whale.Address, m.Whale.TxCount) },
		func() string { return "/v1/utxos/address/" + m.Addresses[0].Address },
		func() string { return unseen("history", m.Addresses[1].Address, m.Addresses[1].TxCount) },
	}
	const workers = 64
	stop := make(chan struct{})
	time.AfterFunc(3*time.Second, func() { close(stop) })
	var mu sync.Mutex
	var out floodRun
	var noRetryAfter atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Go(func() {
			for i := w; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				r := s.do(http.MethodGet, paths[i%len(paths)](), keys[w%len(keys)], "")
				if r.status == http.StatusServiceUnavailable && r.retryAfter == "" {
					noRetryAfter.Add(1)
				}
				mu.Lock()
				out.rs = append(out.rs, r)
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
	wg.Wait()
	out.took = time.Since(start)
	out.noRetryAfter = noRetryAfter.Load()
	for _, l := range logLines(s.logs, "request") {
		if l["status"] == float64(http.StatusServiceUnavailable) {
			out.refusals = append(out.refusals, result{status: 503, elapsed: time.Duration(l["duration"].(float64))})
		}
	}
	return out
}

// TestShedUnderFlood: a flood beyond what the gates admit is answered:
// what does not fit is refused 503 with Retry-After and the spec's
// message, the rest is served, and no request goes unanswered or past its
// deadline (queued past it). How fast refusals are is a figure of
// BenchmarkShedUnderFlood, not a bound here: on a shared machine it
// measures the machine.
func TestShedUnderFlood(t *testing.T) {
	f := flood(t)
	sum := checkFaultAnswers(t, "flood", f.rs)
	if sum.byStatus[http.StatusServiceUnavailable] == 0 || sum.byStatus[http.StatusOK] == 0 {
		t.Errorf("flood: %s; want both answers and refusals", sum)
	}
	if f.noRetryAfter > 0 {
		t.Errorf("%d refusals without Retry-After", f.noRetryAfter)
	}
	if len(f.refusals) == 0 {
		t.Error("no refusal in the access log")
	}
	for _, r := range f.rs {
		if r.status == http.StatusServiceUnavailable && r.error != "Service temporarily unavailable" {
			t.Errorf("refusal: %q", r.error)
			break
		}
	}
}

// BenchmarkShedUnderFlood measures TestShedUnderFlood's flood (one flood
// per iteration; run with -benchtime 1x): how fast the service refuses
// (its access log: the client's figures also hold its own queueing on a
// machine it shares) and answers. docs/PERFORMANCE.md keeps the figures.
func BenchmarkShedUnderFlood(b *testing.B) {
	var all floodRun
	for b.Loop() {
		f := flood(b)
		all.rs = append(all.rs, f.rs...)
		all.refusals = append(all.refusals, f.refusals...)
		all.took += f.took
		all.noRetryAfter += f.noRetryAfter
	}
	shed := 0
	for _, r := range all.rs {
		if r.status == http.StatusServiceUnavailable {
			shed++
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(float64(len(all.rs))/all.took.Seconds(), "answers/s")
	b.ReportMetric(100*float64(shed)/float64(max(len(all.rs), 1)), "%shed")
	b.ReportMetric(ms(percentile(all.refusals, 503, 50)), "refusal-p50-ms")
	b.ReportMetric(ms(percentile(all.refusals, 503, 99)), "refusal-p99-ms")
	b.ReportMetric(ms(percentile(all.rs, 503, 99)), "client-503-p99-ms")
	b.ReportMetric(ms(percentile(all.rs, 200, 50)), "client-200-p50-ms")
	b.ReportMetric(ms(percentile(all.rs, 200, 99)), "client-200-p99-ms")
	b.ReportMetric(0, "ns/op")
	if all.noRetryAfter > 0 {
		b.Errorf("%d refusals without Retry-After", all.noRetryAfter)
	}
}

// TestReplicaEjectedAndReadmitted: a frozen replica leaves rotation, the
// requests meanwhile (those caught on it included) are answered by the
// primary within their deadline, and the thawed replica is probed back in
// and takes reads again.
func TestReplicaEjectedAndReadmitted(t *testing.T) {
	testdb.RequireServices(t)
	primary, m := sharedChain(t)
	c := testdb.NewCluster(t)
	replica, _ := seedCluster(t, c, "sg_res_replica")
	s := startService(t, nil, resEnv("DBSYNC_MAINNET_URL="+primary, "DBSYNC_MAINNET_REPLICA_URLS="+replica,
		"ADMIN_DATABASE_URL="+testdb.New(t, "sg_res_admin")))
	s.credential()
	paths := chainPaths(m)
	// The replica's newest block is moved one slot on, so /v1/epochs/latest
	// says which server answered.
	raw, err := sqlx.Open("postgres", replica)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`UPDATE block SET slot_no = slot_no + 1 WHERE id = (SELECT max(id) FROM block)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	tipSlot := func() int64 {
		var d struct {
			Tip struct {
				Slot int64 `json:"slot"`
			} `json:"tip"`
		}
		r := s.get("/v1/epochs/latest")
		if r.status != http.StatusOK {
			return -1
		}
		r.data(t, &d)
		return d.Tip.Slot
	}
	primarySlot, replicaSlot := int64(m.Tip.Slot), int64(m.Tip.Slot)+1
	until(t, "replica in rotation", 10*time.Second, func() bool { return tipSlot() == replicaSlot })
	for range 5 {
		if got := tipSlot(); got != replicaSlot {
			t.Fatalf("read from slot %d, want the replica's %d", got, replicaSlot)
		}
	}

	if err := c.Freeze(); err != nil {
		t.Fatal(err)
	}
	frozeAt := time.Now()
	stop := make(chan struct{})
	time.AfterFunc(4*time.Second, func() { close(stop) })
	rs := s.load(8, paths, stop)
	sum := checkFaultAnswers(t, "replica frozen", rs)
	if got := tipSlot(); got != primarySlot {
		t.Errorf("replica frozen: read from slot %d, want the primary's %d", got, primarySlot)
	}
	if sum.byStatus[http.StatusOK] != sum.n {
		t.Errorf("replica frozen: %s; want every request answered by the primary", sum)
	}
	var ejectedAt time.Time
	for _, l := range logLines(s.logs, "db-sync server out of rotation; retrying") {
		at, _ := time.Parse(time.RFC3339Nano, l["time"].(string))
		if l["server"] == "replica1" && !at.Before(frozeAt) {
			ejectedAt = at
			break
		}
	}
	if ejectedAt.IsZero() {
		t.Fatalf("replica not taken out of rotation: %v", logLines(s.logs, "db-sync server out of rotation; retrying"))
	}
	t.Logf("replica frozen: out of rotation after %s; requests meanwhile: 200 p50 %s p99 %s max %s",
		ejectedAt.Sub(frozeAt).Round(time.Millisecond), percentile(rs, 200, 50), percentile(rs, 200, 99), sum.maxElapsed.Round(time.Millisecond))

	inRotation := func() int { return len(logLines(s.logs, "db-sync server in rotation")) }
	wasIn := inRotation()
	c.Thaw()
	back := until(t, "replica back in rotation", 15*time.Second, func() bool { return inRotation() > wasIn })
	t.Logf("replica thawed: back in rotation after %s", back.Round(time.Millisecond))
	for range 5 {
		if got := tipSlot(); got != replicaSlot {
			t.Errorf("after readmission: read from slot %d, want the replica's %d", got, replicaSlot)
		}
	}
}

// TestDrainOnSIGTERM: keep-alive clients behind a "load balancer" that
// polls /readyz; SIGTERM turns /readyz 503 at once, the clients are told
// Connection: close on their next answer and stop opening connections as
// soon as the balancer sees it, the listener closes after SHUTDOWN_DELAY,
// and no request is ever reset.
func TestDrainOnSIGTERM(t *testing.T) {
	testdb.RequireServices(t)
	dsn, _ := sharedChain(t)
	sig, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stopSignals()
	s := startService(t, sig, resEnv("DBSYNC_MAINNET_URL="+dsn, "ADMIN_DATABASE_URL="+testdb.New(t, "sg_res_admin"),
		"SHUTDOWN_DELAY=1s"))
	// A key per client: together they answer more than one key's
	// 10,000 a minute in the second before SIGTERM on a fast machine.
	const clients = 16
	keys := s.credentials(clients)

	var notReady atomic.Bool // the balancer's view
	var notReadyAt atomic.Int64
	lbDone := make(chan struct{})
	go func() {
		defer close(lbDone)
		for !notReady.Load() {
			r := s.get("/readyz")
			if r.err == nil && r.status == http.StatusServiceUnavailable {
				notReadyAt.Store(time.Now().UnixNano())
				notReady.Store(true)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()

	var ok, resets, closes atomic.Int64
	var firstReset atomic.Pointer[string]
	var wg sync.WaitGroup
	for _, key := range keys {
		wg.Go(func() {
			for !notReady.Load() {
				conn, err := net.Dial("tcp", s.addr)
				if err != nil {
					reason := "dial: " + err.Error()
					firstReset.CompareAndSwap(nil, &reason)
					resets.Add(1) // before the balancer saw not-ready, the instance must accept
					return
				}
				closed, err := keepAlive(conn, key, &ok)
				conn.Close()
				if err != nil {
					reason := err.Error()
					firstReset.CompareAndSwap(nil, &reason)
					resets.Add(1)
					return
				}
				if closed {
					closes.Add(1)
				}
			}
		})
	}
	time.Sleep(time.Second) // load under way
	okBefore := ok.Load()
	sentAt := time.Now()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	<-lbDone
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
		s.done <- nil // for the cleanup
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not return after SIGTERM")
	}
	stoppedAfter := time.Since(sentAt)
	t.Logf("drain: %d requests answered (%d before SIGTERM), %d connections closed by Connection: close, %d resets; readyz 503 seen %s after SIGTERM; serve returned after %s",
		ok.Load(), okBefore, closes.Load(), resets.Load(), time.Duration(notReadyAt.Load()-sentAt.UnixNano()).Round(time.Millisecond),
		stoppedAfter.Round(time.Millisecond))
	if resets.Load() > 0 {
		t.Errorf("%d requests reset (first: %s)", resets.Load(), *firstReset.Load())
	}
	if ok.Load() <= okBefore || closes.Load() == 0 {
		t.Errorf("no requests answered with Connection: close after SIGTERM (%d before, %d after)", okBefore, ok.Load())
	}
	// The balancer (polling every 100 ms) must see it before the listener
	// closes, SHUTDOWN_DELAY after SIGTERM.
	if d := time.Duration(notReadyAt.Load() - sentAt.UnixNano()); d >= time.Second {
		t.Errorf("readyz turned 503 %s after SIGTERM, SHUTDOWN_DELAY 1s", d)
	}
	if stoppedAfter < time.Second {
		t.Errorf("serve returned %s after SIGTERM, before SHUTDOWN_DELAY", stoppedAfter)
	}
}

// keepAlive sends requests on conn until the server answers Connection:
// close (closed true) or the balancer says the instance is not ready. Any
// failure to write a request or read its whole answer is an error.
func keepAlive(conn net.Conn, key string, ok *atomic.Int64) (closed bool, err error) {
	br := bufio.NewReader(conn)
	req := "GET /v1/epochs/latest HTTP/1.1\r\nHost: syncgate\r\nAuthorization: Bearer " + key + "\r\n\r\n"
	for {
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(conn, req); err != nil {
			return false, fmt.Errorf("write: %w", err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return false, errors.New("connection closed with a request unanswered")
			}
			return false, fmt.Errorf("read: %w", err)
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			return false, fmt.Errorf("answer: %d %v", resp.StatusCode, err)
		}
		ok.Add(1)
		if resp.Close || strings.EqualFold(resp.Header.Get("Connection"), "close") {
			return true, nil
		}
	}
}
