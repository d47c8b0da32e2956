package auth

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

func TestFiltersMatch(t *testing.T) {
	f := NewFilters([]string{"198.51.100.0/24", "2001:db8::/32", "192.0.2.5/32"},
		[]string{"https://app.example.com", "https://*.example.org", "http://localhost:3000"}, []string{"chain"})
	for ip, want := range map[string]bool{
		"198.51.100.1": true, "198.51.101.1": false, "192.0.2.5": true, "192.0.2.4": false,
		"::ffff:198.51.100.9": true, "2001:db8:1::1": true, "2001:db9::1": false, "": false, "x": false,
	} {
		if got := f.AllowsIP(ip); got != want {
			t.Errorf("AllowsIP(%q) = %v", ip, got)
		}
	}
	for o, want := range map[string]bool{
		"https://app.example.com": true, "HTTPS://APP.example.com": true, "http://app.example.com": false,
		"https://app.example.com:444": false, "https://x.example.com": false,
		"https://sub.example.org": true, "https://a.b.example.org": true, "https://example.org": false,
		"https://evil-example.org": false, "https://.example.org": false, "https://sub.example.org:8443": false,
		"http://sub.example.org": false, "http://localhost:3000": true, "http://localhost": false, "": false, "null": false,
	} {
		if got := f.AllowsOrigin(o); got != want {
			t.Errorf("AllowsOrigin(%q) = %v", o, got)
		}
	}
	if !f.AllowsGroup("chain") || f.AllowsGroup("history") {
		t.Error("route groups")
	}
	var none Filters
	if !none.AllowsIP("x") || !none.AllowsOrigin("") || !none.AllowsGroup("history") || !none.Empty() {
		t.Error("an empty filter refuses")
	}
	// A stored list none of whose entries parses refuses everything.
	bad := NewFilters([]string{"nope"}, []string{"nope"}, nil)
	if bad.AllowsIP("192.0.2.1") || bad.AllowsOrigin("https://a.example.com") {
		t.Error("an unparsable stored filter allows")
	}
}

func TestParseAllowed(t *testing.T) {
	for in, want := range map[string]string{
		"10.1.2.3/8": "10.0.0.0/8", "192.0.2.1": "192.0.2.1/32", "2001:DB8::1": "2001:db8::1/128",
		"::ffff:10.0.0.0/104": "10.0.0.0/8", "0.0.0.0/0": "0.0.0.0/0",
	} {
		p, ok := ParseAllowedIP(in)
		if !ok || p.String() != want {
			t.Errorf("ParseAllowedIP(%q) = %v %v, want %s", in, p, ok, want)
		}
	}
	for _, in := range []string{"", "10.0.0.0/33", "10.0.0", "::ffff:1.2.3.4/90", "fe80::1%eth0", "a/b"} {
		if _, ok := ParseAllowedIP(in); ok {
			t.Errorf("ParseAllowedIP(%q) accepted", in)
		}
	}
	for in, want := range map[string]string{
		"https://App.Example.com": "https://app.example.com", "http://localhost:3000": "http://localhost:3000",
		"https://*.example.com": "https://*.example.com", "http://[::1]:8080": "http://[::1]:8080",
	} {
		if got, ok := ParseAllowedOrigin(in); !ok || got != want {
			t.Errorf("ParseAllowedOrigin(%q) = %q %v", in, got, ok)
		}
	}
	for _, in := range []string{"", "app.example.com", "https://", "https://a.com/", "https://a.com/x", "https://a.com?x",
		"https://a.com#x", "ftp://a.com", "https://u@a.com", "https://*", "https://*.", "https://a.*.com", "https://*.[::1]",
		"https://a.com:", "https:// a.com", "https://a.com:port"} {
		if got, ok := ParseAllowedOrigin(in); ok {
			t.Errorf("ParseAllowedOrigin(%q) accepted as %q", in, got)
		}
	}
}

// BenchmarkFilterCheck is the request-path check with every list at its
// largest (100 entries) and the match at the end, the worst case.
func BenchmarkFilterCheck(b *testing.B) {
	ips := make([]string, MaxFilterEntries)
	origins := make([]string, MaxFilterEntries)
	for i := range ips {
		ips[i] = fmt.Sprintf("10.%d.0.0/16", i)
		origins[i] = fmt.Sprintf("https://*.site%d.example.com", i)
	}
	f := NewFilters(ips, origins, []string{"history", "submit", "mempool", "webhooks", "chain"})
	b.ReportAllocs()
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		if !f.AllowsIP("10.99.3.4") || !f.AllowsOrigin("https://app.site99.example.com") || !f.AllowsGroup("chain") {
			b.Fatal("refused")
		}
		took = append(took, time.Since(start))
	}
	// The target is a p99 (under 50 µs), so report it besides the mean.
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds()), "p99-ns")
}
