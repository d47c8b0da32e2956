//go:build linux

package cli

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// deadlineOf is the time a path must be answered in: a request's deadline
// for data and admin routes, the probes' own timeouts for the rest.
func deadlineOf(path string) time.Duration {
	switch {
	case strings.HasPrefix(path, "/v1/health"):
		return 2 * time.Second // each dependency's probe, all at once
	case strings.HasPrefix(path, "/readyz"):
		return time.Second
	}
	return resDeadline
}

// allowedDuringFault: an answer from memory or cache (200), a dependency
// down (503), a deadline (504). Never a 500, never no answer.
func checkFaultAnswers(t *testing.T, what string, rs []result) summary {
	t.Helper()
	sum := summarize(rs, deadlineOf)
	t.Logf("%s: %s", what, sum)
	if sum.transport > 0 {
		for _, r := range rs {
			if r.err != nil {
				t.Errorf("%s: %s: no answer: %v", what, r.path, r.err)
				break
			}
		}
	}
	if sum.over > 0 {
		t.Errorf("%s: %d answers later than their deadline + %s (max overshoot %s)", what, sum.over, resSlack, sum.maxOvershoot)
		for _, r := range rs {
			if r.err == nil && r.elapsed > deadlineOf(r.path)+resSlack {
				t.Logf("late: %s %d %q after %s", r.path, r.status, r.error, r.elapsed)
			}
		}
	}
	for code := range sum.byStatus {
		if code != http.StatusOK && code != http.StatusServiceUnavailable && code != http.StatusGatewayTimeout {
			for _, r := range rs {
				if r.status == code {
					t.Errorf("%s: %s answered %d %s", what, r.path, r.status, r.body)
					break
				}
			}
		}
	}
	return sum
}

type healthBody struct {
	Status   string `json:"status"`
	Redis    string `json:"redis"`
	Networks map[string]struct {
		Error string `json:"error"`
	} `json:"networks"`
}

// TestFrozenAndStoppedDatabase: with the one PostgreSQL server (db-sync
// and admin database) frozen, every request is answered by its deadline
// (503 or 504, no reset), /v1/health blames the database and not Redis,
// then Redis killed as well; thawed, it serves again within seconds.
// Stopped, requests are answered 503 at once; restarted, served again.
func TestFrozenAndStoppedDatabase(t *testing.T) {
	testdb.RequireServices(t)
	c := testdb.NewCluster(t)
	dsn, m := seedCluster(t, c, "sg_res_dbsync")
	adminDSN := c.CreateDatabase("sg_res_admin")
	redis := testdb.NewRedisServer(t)
	s := startService(t, nil, resEnv("DBSYNC_MAINNET_URL="+dsn, "ADMIN_DATABASE_URL="+adminDSN, "REDIS_URL="+redis.URL()))
	s.credential()
	// A second instance that never probes again after its start, and
	// connects without a bound of its own: only the requests' deadlines
	// can end its calls on the frozen server.
	blind := startService(t, nil, resEnv("DBSYNC_MAINNET_URL="+dsn, "ADMIN_DATABASE_URL="+adminDSN, "REDIS_URL="+redis.URL(),
		"DBSYNC_PROBE_INTERVAL=1h", "DB_CONNECT_TIMEOUT=1h"))
	blind.credential()
	paths := append(chainPaths(m), "/v1/admin/users", "/v1/health", "/readyz")
	for _, p := range paths {
		for _, in := range []*service{s, blind} {
			if r := in.get(p); r.status != http.StatusOK {
				t.Fatalf("before the fault: %s: %d %s", p, r.status, r.body)
			}
		}
	}

	if err := c.Freeze(); err != nil {
		t.Fatal(err)
	}
	h := s.get("/v1/health")
	var hb healthBody
	h.data(t, &hb)
	t.Logf("health, database frozen: %d in %s: %+v", h.status, h.elapsed.Round(time.Millisecond), hb)
	if h.status != http.StatusServiceUnavailable || hb.Redis != "ok" || hb.Networks["mainnet"].Error != "unavailable" || h.elapsed > deadlineOf("/v1/health")+resSlack {
		t.Errorf("health with the database frozen: %d after %s, %+v; want 503, Redis ok, mainnet unavailable", h.status, h.elapsed, hb)
	}
	stop := make(chan struct{})
	time.AfterFunc(6*time.Second, func() { close(stop) })
	var blindResults []result
	blindDone := make(chan struct{})
	go func() { blindResults = blind.load(8, chainPaths(m), stop); close(blindDone) }()
	frozen := s.load(8, paths, stop)
	<-blindDone
	checkFaultAnswers(t, "frozen", frozen)
	checkFaultAnswers(t, "frozen, never probed", blindResults)
	t.Logf("frozen, never probed: 504 p50 %s max %s; 503 p50 %s", percentile(blindResults, 504, 50),
		percentile(blindResults, 504, 100), percentile(blindResults, 503, 50))
	// Once the primary is out of rotation, data requests are answered at once.
	var late []result
	for _, r := range frozen {
		if r.err == nil && !strings.HasPrefix(r.path, "/v1/admin") && !strings.HasPrefix(r.path, "/v1/health") && !strings.HasPrefix(r.path, "/readyz") {
			late = append(late, r)
		}
	}
	t.Logf("frozen, data routes: 503 p50 %s p99 %s; 504 p50 %s", percentile(late, 503, 50), percentile(late, 503, 99), percentile(late, 504, 50))

	redis.Kill()
	h = s.get("/v1/health")
	h.data(t, &hb)
	if h.status != http.StatusServiceUnavailable || hb.Redis != "unavailable" || hb.Networks["mainnet"].Error != "unavailable" || h.elapsed > deadlineOf("/v1/health")+resSlack {
		t.Errorf("health with the database frozen and Redis killed: %d after %s, %+v", h.status, h.elapsed, hb)
	}
	stop = make(chan struct{})
	time.AfterFunc(2*time.Second, func() { close(stop) })
	checkFaultAnswers(t, "frozen, Redis killed", s.load(8, paths, stop))

	c.Thaw()
	back := until(t, "data answered after thaw", 20*time.Second, func() bool { return s.get(paths[1]).status == http.StatusOK })
	t.Logf("thawed: data answered again after %s", back.Round(time.Millisecond))
	for _, p := range paths[:len(paths)-2] { // health says degraded (Redis down) but 200; readyz ok
		if r := s.get(p); r.status != http.StatusOK {
			until(t, p+" after thaw", 10*time.Second, func() bool { return s.get(p).status == http.StatusOK })
		}
	}

	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	stop = make(chan struct{})
	time.AfterFunc(3*time.Second, func() { close(stop) })
	stopped := s.load(8, paths, stop)
	checkFaultAnswers(t, "stopped", stopped)
	t.Logf("stopped: 503 p50 %s p99 %s", percentile(stopped, 503, 50), percentile(stopped, 503, 99))
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	back = until(t, "data answered after restart", 20*time.Second, func() bool { return s.get(paths[1]).status == http.StatusOK })
	t.Logf("restarted: data answered again after %s", back.Round(time.Millisecond))
}

// TestStartWithDBSyncDown: the service starts while its db-sync server is
// down, answers 503 Chain database unavailable (with Retry-After) for the
// network and is not ready, and serves as soon as the server is up.
func TestStartWithDBSyncDown(t *testing.T) {
	testdb.RequireServices(t)
	c := testdb.NewCluster(t)
	dsn, m := seedCluster(t, c, "sg_res_dbsync")
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	adminDSN := testdb.New(t, "sg_res_admin")
	redis := testdb.NewRedisServer(t)
	start := time.Now()
	s := startService(t, nil, resEnv("DBSYNC_MAINNET_URL="+dsn, "ADMIN_DATABASE_URL="+adminDSN, "REDIS_URL="+redis.URL()))
	t.Logf("listening %s after start with db-sync down", time.Since(start).Round(time.Millisecond))
	s.credential()
	// Refused at once: not after a connection attempt (DB_CONNECT_TIMEOUT
	// 1 s) nor the deadline (3 s, a 504).
	for _, p := range chainPaths(m) {
		r := s.get(p)
		if r.status != http.StatusServiceUnavailable || r.error != "Chain database unavailable" || r.retryAfter == "" || r.elapsed >= time.Second {
			t.Errorf("%s, db-sync down: %d %q Retry-After %q after %s", p, r.status, r.error, r.retryAfter, r.elapsed)
		}
	}
	var ready struct {
		Status   string            `json:"status"`
		Networks map[string]string `json:"networks"`
	}
	r := s.get("/readyz")
	r.data(t, &ready)
	if r.status != http.StatusServiceUnavailable || ready.Networks["mainnet"] != "unavailable" {
		t.Errorf("readyz with db-sync down: %d %+v", r.status, ready)
	}
	if warns := logLines(s.logs, "db-sync server out of rotation; retrying"); len(warns) == 0 || warns[0]["level"] != "WARN" {
		t.Errorf("no Warn about the unreachable db-sync: %v", warns)
	}

	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	up := time.Now()
	took := until(t, "served after db-sync came up", 20*time.Second, func() bool { return s.get(chainPaths(m)[1]).status == http.StatusOK })
	t.Logf("db-sync up: data served after %s", took.Round(time.Millisecond))
	until(t, "ready after db-sync came up", 5*time.Second, func() bool { return s.get("/readyz").status == http.StatusOK })
	t.Logf("db-sync up: ready after %s", time.Since(up).Round(time.Millisecond))
	for _, p := range chainPaths(m) {
		if r := s.get(p); r.status != http.StatusOK {
			t.Errorf("%s after db-sync came up: %d %s", p, r.status, r.body)
		}
	}
	if caps := logLines(s.logs, "db-sync capabilities"); len(caps) != 1 {
		t.Errorf("capabilities logged %d times, want once", len(caps))
	}
}
