package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
)

type body struct {
	Success bool            `json:"success"`
	Error   string          `json:"error"`
	Data    json.RawMessage `json:"data"`
}

func do(t *testing.T, h http.Handler, method, path string, hdr map[string]string, payload string) (*httptest.ResponseRecorder, body) {
	t.Helper()
	var req *http.Request
	if payload != "" {
		req = httptest.NewRequest(method, path, strings.NewReader(payload))
	} else {
		req = httptest.NewRequest(method, path, nil)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	serveChecked(t, h, w, req)
	var b body
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		t.Fatalf("%s %s: body is not JSON: %q", method, path, w.Body.String())
	}
	return w, b
}

func TestRoutingEnvelope(t *testing.T) {
	s := New(Deps{})
	s.engine.GET("/v1/test-panic", func(c *gin.Context) { panic("secret internals") })
	cases := []struct {
		name, method, path string
		hdr                map[string]string
		wantStatus         int
		wantError          string
	}{
		{"unknown path", "GET", "/v1/nope", nil, 404, "Not found"},
		{"wrong method", "PUT", "/v1/health", nil, 405, "Method not allowed"},
		{"panic", "GET", "/v1/test-panic", nil, 500, "Internal server error"},
		{"data route without key", "GET", "/v1/tx/hash/00", nil, 401, "Missing or malformed Authorization header"},
		{"data route basic auth", "GET", "/v1/tx/hash/00", map[string]string{"Authorization": "Basic abc"}, 401, "Missing or malformed Authorization header"},
		{"data route unknown key", "GET", "/v1/tx/hash/00", map[string]string{"Authorization": "Bearer sgk1_nope"}, 401, "Invalid API key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, b := do(t, s.Handler(), tc.method, tc.path, tc.hdr, "")
			if w.Code != tc.wantStatus || b.Success || b.Error != tc.wantError {
				t.Fatalf("got %d %+v, want %d %q", w.Code, b, tc.wantStatus, tc.wantError)
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json;charset=utf-8" {
				t.Errorf("Content-Type = %q", ct)
			}
			if w.Header().Get("X-Request-Id") == "" {
				t.Error("missing X-Request-Id")
			}
			if strings.Contains(w.Body.String(), "secret") {
				t.Error("response leaks internals")
			}
		})
	}
}

func TestRequestIDEchoedWhenSane(t *testing.T) {
	s := New(Deps{})
	w, _ := do(t, s.Handler(), "GET", "/v1/nope", map[string]string{"X-Request-Id": "abc-123"}, "")
	if got := w.Header().Get("X-Request-Id"); got != "abc-123" {
		t.Errorf("X-Request-Id = %q", got)
	}
	w, _ = do(t, s.Handler(), "GET", "/v1/nope", map[string]string{"X-Request-Id": "bad id\twith spaces"}, "")
	if got := w.Header().Get("X-Request-Id"); got == "" || strings.Contains(got, " ") {
		t.Errorf("unsafe X-Request-Id echoed: %q", got)
	}
}

func TestClientIPIgnoresForwardedForFromUntrustedPeers(t *testing.T) {
	s := New(Deps{})
	var got string
	s.engine.GET("/v1/test-ip", func(c *gin.Context) { got = c.ClientIP(); c.Status(204) })
	req := httptest.NewRequest("GET", "/v1/test-ip", nil)
	req.RemoteAddr = "203.0.113.9:5555"
	req.Header.Set("X-Forwarded-For", "1.2.3.4")
	s.Handler().ServeHTTP(httptest.NewRecorder(), req)
	if got != "203.0.113.9" {
		t.Errorf("ClientIP = %q, want the TCP peer 203.0.113.9", got)
	}
}

// TestOversizedHeadersEnvelope: headers over maxHeaderBytes are answered
// 431 in the JSON httpx.Envelope, on API routes and unknown paths alike.
func TestOversizedHeadersEnvelope(t *testing.T) {
	s := New(Deps{Log: quiet})
	for _, path := range []string{"/v1/health", "/v1/nope"} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("X-Big", strings.Repeat("a", maxHeaderBytes))
		w := httptest.NewRecorder()
		serveChecked(t, s.Handler(), w, req)
		if w.Code != http.StatusRequestHeaderFieldsTooLarge || strings.TrimSpace(w.Body.String()) != `{"success":false,"error":"Request header fields too large"}` {
			t.Errorf("%s: %d %s", path, w.Code, w.Body.String())
		}
		if ct := w.Header().Get("Content-Type"); ct != httpx.ContentType {
			t.Errorf("%s: Content-Type %q", path, ct)
		}
	}
	// Just under the limit passes.
	req := httptest.NewRequest(http.MethodGet, "/v1/nope", nil)
	req.Header.Set("X-Big", strings.Repeat("a", maxHeaderBytes/2))
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	if w.Code != http.StatusNotFound {
		t.Errorf("half the limit: %d", w.Code)
	}
}
