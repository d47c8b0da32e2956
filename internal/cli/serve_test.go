package cli

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestServeWithoutAdminDatabase: serve starts while the
// admin database refuses connections. Admin routes answer 503 and the
// migrations are retried in the background (logged at Warn); once the
// database is back they run and the admin API works. A key the instance
// has cached keeps working on data routes when the database goes away
// again, while admin routes and unknown keys answer 503.
func TestServeWithoutAdminDatabase(t *testing.T) {
	testdb.RequireServices(t)
	chainURL, _, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	adminURL := testdb.New(t, "sg_test_serve_admin") // not migrated
	u, err := url.Parse(adminURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := testdb.NewProxy(t, u.Host, false) // the admin database refuses connections
	u.Host = proxy.Addr()
	q := u.Query()
	q.Set("connect_timeout", "2")
	u.RawQuery = q.Encode()

	const bootstrap = "bootstrap-key-for-serve-test-0123456789"
	cfg, err := config.Load([]string{
		"LISTEN_ADDR=127.0.0.1:0", "ADMIN_DATABASE_URL=" + u.String(), "DBSYNC_MAINNET_URL=" + chainURL,
		"BOOTSTRAP_ADMIN_KEY=" + bootstrap, "SHUTDOWN_TIMEOUT=2s", "SHUTDOWN_DELAY=0s",
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	logs := &testdb.LogBuffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, stop := context.WithCancel(context.Background())
	addrCh := make(chan string, 1)
	served := make(chan error, 1)
	go func() { served <- serve(ctx, cfg, log, func(a string) { addrCh <- a }) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	var base string
	select {
	case a := <-addrCh:
		base = "http://" + a
	case err := <-served:
		t.Fatalf("serve did not start without its admin database: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not start within 60 s")
	}

	call := func(method, path, key, body string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var out map[string]any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s %s: %d %q", method, path, resp.StatusCode, raw)
		}
		return resp.StatusCode, out
	}
	want := func(method, path, key, body string, status int, msg string) map[string]any {
		t.Helper()
		got, out := call(method, path, key, body)
		if got != status || (msg != "" && out["error"] != msg) {
			t.Fatalf("%s %s: %d %v, want %d %q", method, path, got, out, status, msg)
		}
		return out
	}
	const unavailable = "Service temporarily unavailable"
	unknownKey := "sgk1_" + strings.Repeat("c", 48)
	want("GET", "/v1/admin/keys", bootstrap, "", 503, unavailable)
	want("GET", "/v1/epochs/latest", unknownKey, "", 503, unavailable)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(logs.String(), "admin migrations failed; will retry"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no retry logged at Warn: %s", logs.String())
		}
	}

	// The database comes back: the background migration makes the admin API work.
	proxy.Restore()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if code, _ := call("GET", "/v1/admin/keys", bootstrap, ""); code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("admin API still unavailable 30 s after the database came back: %s", logs.String())
		}
	}
	data := func(out map[string]any) map[string]any { d, _ := out["data"].(map[string]any); return d }
	k := data(want("POST", "/v1/admin/keys", bootstrap, `{"admin_entity_name":"p","permissions":["manage_users","manage_credentials"]}`, 201, ""))
	adminKey, _ := k["key"].(string)
	usr := data(want("POST", "/v1/admin/users", adminKey, `{"name":"u"}`, 201, ""))
	cred := data(want("POST", "/v1/admin/credentials", adminKey, `{"name":"c","network_id":0,"user_account_id":"`+usr["id"].(string)+`"}`, 201, ""))
	apiKey, _ := cred["api_key"].(string)
	want("GET", "/v1/epochs/latest", apiKey, "", 200, "")

	// Gone again: the cached key still works, past its fallback TTL too.
	proxy.Cut()
	time.Sleep(1500 * time.Millisecond)
	for range 3 {
		want("GET", "/v1/epochs/latest", apiKey, "", 200, "")
	}
	want("GET", "/v1/admin/keys", bootstrap, "", 503, unavailable)
	want("GET", "/v1/epochs/latest", unknownKey, "", 503, unavailable)
}

// An unusable LIST_SPOOL_DIR stops the start with a message naming it (an
// unusable default directory only turns the spool off).
func TestServeRefusesAnUnusableSpoolDir(t *testing.T) {
	testdb.RequireServices(t)
	chainURL, _, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load([]string{
		"LISTEN_ADDR=127.0.0.1:0", "ADMIN_DATABASE_URL=" + testdb.New(t, "sg_test_serve_spool"), "DBSYNC_MAINNET_URL=" + chainURL,
		"SHUTDOWN_TIMEOUT=2s", "SHUTDOWN_DELAY=0s", "LIST_SPOOL_DIR=" + notADir,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	err = serve(ctx, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), func(string) { t.Error("serve started with an unusable LIST_SPOOL_DIR") })
	if err == nil || !strings.Contains(err.Error(), "LIST_SPOOL_DIR: ") {
		t.Fatalf("serve: %v; want a LIST_SPOOL_DIR error", err)
	}
}
