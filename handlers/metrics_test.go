package handlers

import (
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/syncgate/syncgate/internal/platform/metrics"
)

// sample returns the value of the counter (or histogram's count) name
// whose labels include want, as the registry exports it; 0 when absent.
func sample(t *testing.T, name string, want map[string]string) float64 {
	t.Helper()
	mfs, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		total := 0.0
		for _, m := range mf.GetMetric() {
			if !hasLabels(m, want) {
				continue
			}
			switch {
			case m.Counter != nil:
				total += m.Counter.GetValue()
			case m.Histogram != nil:
				total += float64(m.Histogram.GetSampleCount())
			case m.Gauge != nil:
				total += m.Gauge.GetValue()
			}
		}
		return total
	}
	return 0
}

func hasLabels(m *dto.Metric, want map[string]string) bool {
	got := map[string]string{}
	for _, l := range m.GetLabel() {
		got[l.GetName()] = l.GetValue()
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

// TestMetricsMoveUnderRequests: real requests through the real middleware
// chain move the request, latency, auth-failure and rate-limit counters,
// labelled by route template, never by the path or the key.
func TestMetricsMoveUnderRequests(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, key := e.adminKey(in, "p", allPerms...)
	userID := e.user(in, key, "u")
	_, apiKey := e.credential(in, key, userID, `,"rate_limit_per_minute":2`)

	users := map[string]string{"route": "/v1/admin/users/:id", "method": "GET", "code": "200"}
	before := sample(t, "syncgate_http_requests_total", users)
	latency := sample(t, "syncgate_http_request_duration_seconds", map[string]string{"route": "/v1/admin/users/:id", "method": "GET"})
	in.call(t, "GET", "/v1/admin/users/"+userID, key, "").want(t, 200, "")
	if got := sample(t, "syncgate_http_requests_total", users); got != before+1 {
		t.Fatalf("requests_total{route=/v1/admin/users/:id,code=200}: %v after one request, was %v", got, before)
	}
	if got := sample(t, "syncgate_http_request_duration_seconds", map[string]string{"route": "/v1/admin/users/:id", "method": "GET"}); got != latency+1 {
		t.Fatalf("latency histogram count %v, was %v", got, latency)
	}

	limited := map[string]string{"api": "data"}
	rejected := sample(t, "syncgate_rate_limit_rejections_total", limited)
	whoami429 := sample(t, "syncgate_http_requests_total", map[string]string{"route": "/v1/test/whoami", "code": "429"})
	for i := 0; i < 2; i++ {
		in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
	}
	in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 429, "Rate limit exceeded: 2 requests per minute")
	if got := sample(t, "syncgate_rate_limit_rejections_total", limited); got != rejected+1 {
		t.Fatalf("rate_limit_rejections_total %v after one 429, was %v", got, rejected)
	}
	if got := sample(t, "syncgate_http_requests_total", map[string]string{"route": "/v1/test/whoami", "code": "429"}); got != whoami429+1 {
		t.Fatalf("requests_total{code=429} %v, was %v", got, whoami429)
	}

	failed := sample(t, "syncgate_auth_failures_total", map[string]string{"api": "admin"})
	in.call(t, "GET", "/v1/admin/users", "sga1_"+"x", "").want(t, 401, "Invalid API key")
	if got := sample(t, "syncgate_auth_failures_total", map[string]string{"api": "admin"}); got != failed+1 {
		t.Fatalf("auth_failures_total{api=admin} %v after one 401, was %v", got, failed)
	}

	// No label anywhere carries a key or an id from a path.
	mfs, _ := metrics.Registry.Gather()
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if v := l.GetValue(); contains(v, apiKey[:12]) || contains(v, key[:12]) || contains(v, userID) {
					t.Fatalf("%s label %s=%q carries caller data", mf.GetName(), l.GetName(), v)
				}
			}
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
