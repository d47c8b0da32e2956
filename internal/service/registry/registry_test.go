package registry

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

const hoskySubject = "a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235484f534b59"

// hoskyMapping is the verbatim HOSKY mapping file of registry.json.
func hoskyMapping(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/registry.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Format struct {
			Full struct {
				Path string          `json:"path"`
				JSON json.RawMessage `json:"json"`
			} `json:"full_example_verbatim"`
		} `json:"mapping_file_format"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.Format.Full.Path, hoskySubject) || len(v.Format.Full.JSON) < 1000 {
		t.Fatalf("HOSKY mapping not found in registry.json")
	}
	return v.Format.Full.JSON
}

func checkHosky(t *testing.T, md *Metadata) {
	t.Helper()
	if md == nil {
		t.Fatal("HOSKY not found")
	}
	if md.Name != "HOSKY Token" || md.Ticker == nil || *md.Ticker != "HOSKY" || md.URL == nil || *md.URL != "https://hosky.io" ||
		md.Decimals != 0 || md.Logo == nil || !strings.HasPrefix(*md.Logo, "iVBORw0KGgo") || md.Description == "" {
		b, _ := json.Marshal(md)
		t.Fatalf("HOSKY metadata wrong: %.300s", b)
	}
}

func TestLookupDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, hoskySubject+".json")
	if err := os.WriteFile(file, hoskyMapping(t), 0o644); err != nil {
		t.Fatal(err)
	}
	// Files that must be ignored by the index.
	_ = os.WriteFile(filepath.Join(dir, "README.md"), []byte("x"), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "NotHex.json"), []byte("{}"), 0o644)
	r, err := New(Options{Dir: dir, Redis: testdb.Redis(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	checkHosky(t, r.Lookup(ctx, hoskySubject))
	if md, answered := r.LookupStatus(ctx, strings.Repeat("ab", 28)+"00"); md != nil || !answered {
		t.Errorf("unknown subject: %+v, answered %v", md, answered)
	}
	if md := r.Lookup(ctx, "../etc/passwd"); md != nil {
		t.Error("invalid subject found")
	}

	// Cached: the file can vanish and the answer stays until a rescan.
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	checkHosky(t, r.Lookup(ctx, hoskySubject))
	if err := r.Rescan(); err != nil {
		t.Fatal(err)
	}
	if md := r.Lookup(ctx, hoskySubject); md != nil {
		t.Error("removed mapping still found after rescan")
	}

	// A changed file is served after the next rescan (new mtime, new key).
	changed := strings.Replace(string(hoskyMapping(t)), `"HOSKY Token"`, `"HOSKY Token v2"`, 1)
	if err := os.WriteFile(file, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(file, time.Unix(2_000_000_000, 0), time.Unix(2_000_000_000, 0))
	if err := r.Rescan(); err != nil {
		t.Fatal(err)
	}
	if md := r.Lookup(ctx, hoskySubject); md == nil || md.Name != "HOSKY Token v2" {
		t.Errorf("changed mapping not served: %+v", md)
	}

	if _, err := New(Options{Dir: filepath.Join(dir, "missing")}); err == nil {
		t.Error("missing directory accepted")
	}
}

// fakeRegistry serves the CIP-26 GET /metadata/{subject} and counts calls.
type fakeRegistry struct {
	srv     *httptest.Server
	mu      sync.Mutex
	calls   map[string]int
	entries map[string][]byte
	status  int           // forced status when non-zero
	delay   time.Duration // answer delay
}

func newFakeRegistry(t *testing.T, entries map[string][]byte) *fakeRegistry {
	f := &fakeRegistry{calls: map[string]int{}, entries: entries}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		subject, ok := strings.CutPrefix(r.URL.Path, "/metadata/")
		f.mu.Lock()
		f.calls[subject]++
		status, delay := f.status, f.delay
		body, known := f.entries[subject]
		f.mu.Unlock()
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		switch {
		case status != 0:
			w.WriteHeader(status)
		case !ok || !known:
			http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeRegistry) count(subject string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[subject]
}

func TestLookupURLCachedOnce(t *testing.T) {
	f := newFakeRegistry(t, map[string][]byte{hoskySubject: hoskyMapping(t)})
	rc := testdb.Redis(t)
	r, err := New(Options{URL: f.srv.URL + "/", Redis: rc})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			checkHosky(t, r.Lookup(ctx, hoskySubject))
		}()
	}
	wg.Wait()
	unknown := strings.Repeat("cd", 28)
	for range 5 {
		if md := r.Lookup(ctx, unknown); md != nil {
			t.Fatalf("unknown subject found")
		}
	}
	// A second instance sharing Redis does not ask again either.
	r2, _ := New(Options{URL: f.srv.URL, Redis: rc})
	checkHosky(t, r2.Lookup(ctx, hoskySubject))
	if r2.Lookup(ctx, unknown) != nil {
		t.Fatal("unknown subject found by second instance")
	}
	if n := f.count(hoskySubject); n != 1 {
		t.Errorf("registry asked %d times for HOSKY, want 1", n)
	}
	if n := f.count(unknown); n != 1 {
		t.Errorf("registry asked %d times for an unknown subject, want 1 (negative cache)", n)
	}
	// The negative entry expires sooner than the positive one.
	ttlFound := rc.Redis().TTL(ctx, rc.Key("registry:"+hoskySubject)).Val()
	ttlMissing := rc.Redis().TTL(ctx, rc.Key("registry:"+unknown)).Val()
	if ttlFound <= DefaultNegativeTTL || ttlMissing > DefaultNegativeTTL || ttlMissing <= 0 {
		t.Errorf("TTLs: found %s, missing %s", ttlFound, ttlMissing)
	}
}

func TestLookupWithoutRedis(t *testing.T) {
	f := newFakeRegistry(t, map[string][]byte{hoskySubject: hoskyMapping(t)})
	r, _ := New(Options{URL: f.srv.URL})
	for range 3 {
		checkHosky(t, r.Lookup(t.Context(), hoskySubject))
	}
	if n := f.count(hoskySubject); n != 1 {
		t.Errorf("registry asked %d times, want 1 (in-process cache)", n)
	}
}

func TestLookupRegistryDown(t *testing.T) {
	// A closed port: connection refused.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	r, _ := New(Options{URL: "http://" + addr, Redis: testdb.Redis(t)})
	if md := r.Lookup(t.Context(), hoskySubject); md != nil {
		t.Errorf("closed port gave metadata")
	}

	// Errors and slowness: nothing found, and the failure is cached briefly.
	f := newFakeRegistry(t, map[string][]byte{hoskySubject: hoskyMapping(t)})
	f.status = http.StatusInternalServerError
	rc := testdb.Redis(t)
	r, _ = New(Options{URL: f.srv.URL, Redis: rc})
	for range 3 {
		if md, answered := r.LookupStatus(t.Context(), hoskySubject); md != nil || answered {
			t.Fatalf("500 gave metadata %v or a definitive answer %v", md, answered)
		}
	}
	if n := f.count(hoskySubject); n != 1 {
		t.Errorf("failing registry asked %d times, want 1", n)
	}
	if ttl := rc.Redis().TTL(t.Context(), rc.Key("registry:"+hoskySubject)).Val(); ttl <= 0 || ttl > DefaultErrorTTL {
		t.Errorf("error TTL %s", ttl)
	}

	slow := newFakeRegistry(t, map[string][]byte{hoskySubject: hoskyMapping(t)})
	slow.delay = time.Minute
	r, _ = New(Options{URL: slow.srv.URL, Timeout: 50 * time.Millisecond})
	if md := r.Lookup(t.Context(), hoskySubject); md != nil {
		t.Error("slow registry gave metadata")
	}

	// Garbage and incomplete entries are not metadata.
	bad := newFakeRegistry(t, map[string][]byte{
		hoskySubject:                    []byte(`{"subject":"` + hoskySubject + `","name":{"value":"X"}}`), // no description
		strings.Repeat("ab", 28):        []byte(`not json`),
		strings.Repeat("ab", 28) + "01": []byte(`{"subject":"` + hoskySubject + `","name":{"value":"X"},"description":{"value":"d"}}`), // wrong subject
	})
	r, _ = New(Options{URL: bad.srv.URL})
	for s := range bad.entries {
		if md := r.Lookup(t.Context(), s); md != nil {
			t.Errorf("%s: bad entry accepted: %+v", s, md)
		}
	}
}

func TestParseMappingDecimals(t *testing.T) {
	base := `{"subject":"` + hoskySubject + `","name":{"value":"N"},"description":{"value":"D"}`
	cases := map[string]int64{
		base + `}`:                            0,
		base + `,"decimals":{"value":6}}`:     6,
		base + `,"decimals":{"value":"6"}}`:   0,
		base + `,"decimals":{"value":-1}}`:    0,
		base + `,"decimals":{"value":1e400}}`: 0,
	}
	for body, want := range cases {
		md, ok := parseMapping([]byte(body), hoskySubject)
		if !ok || md.Decimals != want {
			t.Errorf("%s: %+v %v, want decimals %d", body, md, ok, want)
		}
	}
}

func TestNotConfigured(t *testing.T) {
	r, err := New(Options{})
	if err != nil || r.Enabled() || r.Lookup(context.Background(), hoskySubject) != nil {
		t.Errorf("unconfigured registry: %v %v", err, r.Enabled())
	}
	var nilReg *Registry
	if nilReg.Lookup(context.Background(), hoskySubject) != nil || nilReg.Enabled() {
		t.Error("nil registry found something")
	}
	go nilReg.Run(context.Background())
}
