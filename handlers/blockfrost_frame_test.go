package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/devtools/bfschema"
)

// bfResponse is one Blockfrost-dialect answer.
type bfResponse struct {
	Code   int
	Header http.Header
	Body   []byte
}

// bfError is Blockfrost's error body.
type bfError struct {
	StatusCode int    `json:"status_code"`
	Error      string `json:"error"`
	Message    string `json:"message"`
}

// bfGet asks the dialect for path (under /api/v0, or a full /key/... path)
// with key as project_id (none when empty), and checks the answer against
// Blockfrost's own schema (checkBlockfrost).
func bfGet(t *testing.T, h http.Handler, key, path string) bfResponse {
	t.Helper()
	if !strings.HasPrefix(path, "/key/") && !strings.HasPrefix(path, httpx.BlockfrostPrefix) {
		path = httpx.BlockfrostPrefix + path
	}
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if key != "" {
		req.Header.Set("project_id", key)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	r := bfResponse{Code: w.Code, Header: w.Header(), Body: w.Body.Bytes()}
	// Validated as the server saw it: without the key path prefix.
	seen := req.Clone(req.Context())
	if rest, ok := strings.CutPrefix(path, "/key/"); ok {
		_, rest, _ = strings.Cut(rest, "/")
		seen = httptest.NewRequest(http.MethodGet, "/"+rest, nil)
	}
	checkResponse(t, seen, nil, w)
	checkBlockfrost(t, seen, r)
	return r
}

// bfJSON asks the dialect for path and decodes a 200 answer into v.
func bfJSON(t *testing.T, h http.Handler, path string, v any) {
	t.Helper()
	r := bfGet(t, h, mainnetKey, path)
	if r.Code != http.StatusOK {
		t.Fatalf("%s: %d %s", path, r.Code, r.Body)
	}
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("%s: %v: %s", path, err, r.Body)
	}
}

// bfRefused checks that path is refused with status and a message
// naming what was wrong.
func bfRefused(t *testing.T, h http.Handler, path string, status int, mentions string) {
	t.Helper()
	r := bfGet(t, h, mainnetKey, path)
	e := r.errorOf(t)
	if r.Code != status || !strings.Contains(e.Message, mentions) {
		t.Errorf("%s: %d %+v, want %d naming %q", path, r.Code, e, status, mentions)
	}
}

// errorOf decodes a Blockfrost error body and checks its status_code
// matches the HTTP status.
func (r bfResponse) errorOf(t *testing.T) bfError {
	t.Helper()
	var e bfError
	if err := json.Unmarshal(r.Body, &e); err != nil || e.StatusCode != r.Code || e.Error == "" || e.Message == "" {
		t.Fatalf("%d answer is not a Blockfrost error: %s", r.Code, r.Body)
	}
	return e
}

func TestBlockfrostFrameAuthAndErrors(t *testing.T) {
	c := seededChains(t)[0]
	s := chainServer(t, c)
	h := s.Handler()

	// The root with and without its trailing slash (blockfrost-js asks
	// for …/api/v0/, as Blockfrost documents it), with the key in the
	// path too.
	for _, p := range []string{"", "/", "/key/" + mainnetKey + "/api/v0/", "/key/" + mainnetKey + "/api/v0"} {
		if r := bfGet(t, h, mainnetKey, p); r.Code != 200 || !strings.Contains(string(r.Body), `"version":"0.1.93"`) {
			t.Fatalf("root %q: %d %s", p, r.Code, r.Body)
		}
	}
	if r := bfGet(t, h, mainnetKey, "/health/clock"); r.Code != 200 {
		t.Fatalf("clock: %d %s", r.Code, r.Body)
	}
	if r := bfGet(t, h, mainnetKey, "/health"); r.Code != 200 || string(r.Body) != "{\"is_healthy\":true}\n" {
		t.Fatalf("health: %d %s", r.Code, r.Body)
	}
	r := bfGet(t, h, "", "/health")
	if e := r.errorOf(t); r.Code != 403 || !strings.Contains(e.Message, "project_id") {
		t.Fatalf("no key: %d %+v", r.Code, e)
	}
	r = bfGet(t, h, "sgk1_"+strings.Repeat("f", 48), "/blocks/latest")
	if e := r.errorOf(t); r.Code != 403 || e.Message != "Invalid project token." {
		t.Fatalf("unknown key: %d %+v", r.Code, e)
	}
	// A Bearer header is /v1's way, not Blockfrost's.
	req := httptest.NewRequest(http.MethodGet, "/api/v0/health", nil)
	req.Header.Set("Authorization", "Bearer "+mainnetKey)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != 403 {
		t.Fatalf("Bearer on /api/v0: %d", w.Code)
	}

	// The key in the path (Mesh) works like the header, and the path's
	// key is never echoed.
	r = bfGet(t, h, "", "/key/"+mainnetKey+"/api/v0/blocks/latest")
	if r.Code != 200 {
		t.Fatalf("key path: %d %s", r.Code, r.Body)
	}
	r = bfGet(t, h, "", "/key/sgk1_"+strings.Repeat("e", 48)+"/api/v0/health")
	if e := r.errorOf(t); r.Code != 403 || strings.Contains(string(r.Body), strings.Repeat("e", 48)) {
		t.Fatalf("bad key path: %d %+v", r.Code, e)
	}
	r = bfGet(t, h, "", "/key/"+mainnetKey+"/v1/health")
	if r.Code != 404 || strings.Contains(string(r.Body), mainnetKey) {
		t.Fatalf("key path outside the dialect: %d %s", r.Code, r.Body)
	}

	r = bfGet(t, h, mainnetKey, "/no/such/route")
	if e := r.errorOf(t); r.Code != 404 || e.Message != "The requested component has not been found." {
		t.Fatalf("unknown route: %d %+v", r.Code, e)
	}
	r = bfGet(t, h, mainnetKey, "/blocks/"+strings.Repeat("0", 64))
	if e := r.errorOf(t); r.Code != 404 || e.Error != "Not Found" {
		t.Fatalf("unknown block: %d %+v", r.Code, e)
	}
	for _, bad := range []string{"xyz", "-1", strings.Repeat("a", 63), strings.Repeat("g", 64), "99999999999999999999"} {
		r = bfGet(t, h, mainnetKey, "/blocks/"+bad)
		if e := r.errorOf(t); r.Code != 400 || e.Error != "Bad Request" {
			t.Fatalf("block %q: %d %+v", bad, r.Code, e)
		}
	}
	// A panic under /api/v0 is a Blockfrost-shaped 500 that tells nothing.
	ps := chainServer(t, c)
	ps.engine.GET("/api/v0/test-panic", func(*gin.Context) { panic("secret internals") })
	pr := httptest.NewRecorder()
	preq := httptest.NewRequest(http.MethodGet, "/api/v0/test-panic", nil)
	preq.Header.Set("project_id", mainnetKey)
	ps.Handler().ServeHTTP(pr, preq)
	pe := (bfResponse{Code: pr.Code, Header: pr.Header(), Body: pr.Body.Bytes()}).errorOf(t)
	if pr.Code != 500 || pe.Message != "An unexpected response was received from the backend." || strings.Contains(pr.Body.String(), "secret") {
		t.Fatalf("panic: %d %s", pr.Code, pr.Body)
	}
	// /v1 keeps its own envelope.
	if w, b := do(t, h, http.MethodGet, "/v1/nope", nil, ""); w.Code != 404 || b.Error != "Not found" {
		t.Fatalf("/v1 unknown route: %d %+v", w.Code, b)
	}
}

func TestBlockfrostEveryRouteHasAGroup(t *testing.T) {
	s := New(Deps{})
	for _, r := range s.bf.Routes() {
		for _, p := range ginPaths(r.Path) {
			if p = httpx.BlockfrostPrefix + p; r.Group == "" || s.groups[p] != r.Group {
				t.Errorf("%s %s has no plan route group", r.Method, p)
			}
		}
	}
}

func TestBlockfrostBlocksMatchSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var tip struct {
			No   int64  `db:"block_no"`
			Hash string `db:"hash"`
			Txs  int64  `db:"tx_count"`
		}
		if err := c.raw.Get(&tip, `SELECT block_no, encode(hash,'hex') AS hash, tx_count FROM block WHERE block_no IS NOT NULL ORDER BY block_no DESC LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		var latest map[string]any
		r := bfGet(t, h, mainnetKey, "/blocks/latest")
		if err := json.Unmarshal(r.Body, &latest); err != nil || r.Code != 200 {
			t.Fatalf("latest: %d %s", r.Code, r.Body)
		}
		if latest["hash"] != tip.Hash || latest["confirmations"] != 0.0 || latest["next_block"] != nil {
			t.Fatalf("latest: %v, want %+v", latest, tip)
		}
		// A block in the middle, by number and by hash: the same answer,
		// with its sums and neighbours as SQL says.
		var mid struct {
			No       int64   `db:"block_no"`
			Hash     string  `db:"hash"`
			Prev     string  `db:"prev"`
			Next     string  `db:"next"`
			Out, Fee *string `db:"-"`
			OutSum   *string `db:"out_sum"`
			Fees     *string `db:"fees"`
		}
		if err := c.raw.Get(&mid, `SELECT b.block_no, encode(b.hash,'hex') AS hash, encode(p.hash,'hex') AS prev,
			encode(n.hash,'hex') AS next, (SELECT sum(out_sum)::text FROM tx WHERE block_id=b.id) AS out_sum,
			(SELECT sum(fee)::text FROM tx WHERE block_id=b.id) AS fees
			FROM block b JOIN block p ON p.id=b.previous_id JOIN block n ON n.previous_id=b.id
			WHERE b.tx_count > 0 AND b.block_no = $1 - 10`, tip.No); err != nil {
			t.Fatal(err)
		}
		byNo := bfGet(t, h, mainnetKey, "/blocks/"+strconv.FormatInt(mid.No, 10))
		byHash := bfGet(t, h, mainnetKey, "/blocks/"+mid.Hash)
		if byNo.Code != 200 || string(byNo.Body) != string(byHash.Body) {
			t.Fatalf("block %d by number and by hash differ:\n%s\n%s", mid.No, byNo.Body, byHash.Body)
		}
		var b map[string]any
		_ = json.Unmarshal(byNo.Body, &b)
		if b["previous_block"] != mid.Prev || b["next_block"] != mid.Next || b["confirmations"] != 10.0 ||
			b["output"] != *mid.OutSum || b["fees"] != *mid.Fees {
			t.Fatalf("block %d: %v, want %+v", mid.No, b, mid)
		}
	}
}

// checkBlockfrost validates a dialect answer against Blockfrost's own
// schema (npm @blockfrost/openapi, as its backend checks its answers).
func checkBlockfrost(t *testing.T, req *http.Request, r bfResponse) {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); ct != httpx.ContentType {
		t.Errorf("%s: content type %q", req.URL.Path, ct)
	}
	if !strings.HasPrefix(req.URL.Path, httpx.BlockfrostPrefix) {
		return // a key path outside the dialect: a /v1 404
	}
	path := strings.TrimPrefix(req.URL.RequestURI(), httpx.BlockfrostPrefix)
	if path == "" || path[0] == '?' {
		path = "/" + path
	}
	doc := bfschema.Open(t)
	route := strings.TrimPrefix(req.URL.Path, httpx.BlockfrostPrefix)
	if route == "" {
		route = "/"
	}
	if _, _, err := doc.Match(req.Method, route); err != nil {
		r.errorOf(t) // no route of Blockfrost's: its error shape is all there is to check
		return
	}
	if err := doc.ValidateResponse(req.Method, path, r.Code, r.Header, r.Body); err != nil {
		t.Errorf("%s %s → %d does not match Blockfrost's schema: %v\nbody: %.600s", req.Method, path, r.Code, err, r.Body)
	}
}

// A key over its per-minute limit gets Blockfrost's 429, with the
// rate-limit headers /v1 sends.
func TestBlockfrostRateLimited(t *testing.T) {
	c := seededChains(t)[0]
	key := "sgk1_" + strings.Repeat("0", 47) + "c"
	h := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": c.db}, Log: quietLog,
		Credentials: fakeCredentials{key: {KeyPrefix: key[:12], NetworkID: 0, RateLimitPerMinute: 1}}}).Handler()
	if r := bfGet(t, h, key, "/health"); r.Code != 200 {
		t.Fatalf("first: %d %s", r.Code, r.Body)
	}
	r := bfGet(t, h, key, "/health")
	e := r.errorOf(t)
	if r.Code != 429 || e.Error != "Project Over Limit" || !strings.HasPrefix(e.Message, "Usage is over limit.") ||
		r.Header.Get("Retry-After") == "" || r.Header.Get("X-RateLimit-Limit") != "1" {
		t.Fatalf("second: %d %+v %v", r.Code, e, r.Header)
	}
}
