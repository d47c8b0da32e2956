//go:build linux

package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestHealthRedisClusterMasterDown: with one master of a Redis Cluster
// dead, the cluster still answers for the others' slots (a PING may well
// reach a live master), but /v1/health must say degraded every time, with
// redis "degraded", not ok.
func TestHealthRedisClusterMasterDown(t *testing.T) {
	rc := testdb.NewRedisCluster(t, 3) // skips under -short
	client, err := cache.New(rc.URL(), "sg-health-cluster:")
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	s := New(Deps{Config: config.Config{}, Networks: map[string]*dbsync.DB{}, Redis: client, Now: time.Now, Log: quiet})
	get := func() (int, healthData) {
		w := httptest.NewRecorder()
		serveChecked(t, s.Handler(), w, httptest.NewRequest("GET", "/v1/health", nil))
		var b struct {
			Data healthData `json:"data"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
			t.Fatalf("health body %s", w.Body)
		}
		return w.Code, b.Data
	}
	if code, h := get(); code != http.StatusOK || h.Status != "healthy" || h.Redis != "ok" {
		t.Fatalf("cluster up: %d %+v", code, h)
	}

	rc.Servers[0].Kill()
	killed := time.Now()
	// The survivors mark the master failed after the node timeout (1 s).
	for i := 1; i < len(rc.Servers); i++ {
		for {
			if state, err := rc.State(i); err == nil && state == "fail" {
				break
			}
			if time.Since(killed) > 15*time.Second {
				t.Fatalf("node %d never reported cluster_state:fail", i)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Logf("cluster_state:fail on every survivor %s after the kill", time.Since(killed).Round(time.Millisecond))
	for range 10 {
		start := time.Now()
		code, h := get()
		if code != http.StatusOK || h.Status != "degraded" || h.Redis != "degraded" {
			t.Fatalf("master down: %d %+v, want 200 degraded with redis degraded", code, h)
		}
		if took := time.Since(start); took > healthProbeTimeout+time.Second { // its probes' timeout, plus a loaded machine's slack
			t.Errorf("health took %s with a master down", took)
		}
	}
}
