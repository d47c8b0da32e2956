package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
)

// filterCall sends a data request with the key from peer (host:port) and
// extra headers (name, value pairs) and returns the reply.
func (in *instance) filterCall(t *testing.T, path, key, peer string, headers ...string) reply {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	req.RemoteAddr = peer
	w := httptest.NewRecorder()
	serveChecked(t, in.srv.Handler(), w, req)
	r := reply{Code: w.Code, Header: w.Header(), Raw: w.Body.String()}
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatalf("%s: body is not JSON: %q", path, w.Body.String())
	}
	return r
}

// TestAccessFilters: each filter of a credential allows and refuses as
// documented (docs/DECISIONS.md "Access filters"), refusals are counted in
// usage as failed and never reach the handler, and a PATCH holds on the
// next request on every instance.
func TestAccessFilters(t *testing.T) {
	e := newAdminEnv(t)
	e.cfg.TrustedProxies = []string{"10.0.0.1"}
	rec := admin.NewUsageRecorder(e.db, time.Hour, quiet) // flushed by the test
	in := e.usageInstance(rec)
	other := e.instance()
	_, a := e.adminKey(in, "P", allPerms...)
	plan := e.createPlan(in, a, `{"name":"Two","rate_limit_per_minute":100,"route_groups":["chain","history","submit"]}`)
	r := in.call(t, "POST", "/v1/admin/users", a, `{"name":"u","plan_id":"`+plan+`"}`).want(t, 201, "")
	var u struct {
		ID string `json:"id"`
	}
	r.into(t, &u)
	id, key := e.credential(in, a, u.ID, `,"allowed_ips":["198.51.100.7/24","2001:db8::/32","192.0.2.5","192.0.2.5","::ffff:192.0.2.9"]`)

	var cred struct {
		IPs     []string `json:"allowed_ips"`
		Origins []string `json:"allowed_origins"`
		Groups  []string `json:"allowed_route_groups"`
	}
	in.call(t, "GET", "/v1/admin/credentials/"+id, a, "").want(t, 200, "").into(t, &cred)
	if want := []string{"198.51.100.0/24", "2001:db8::/32", "192.0.2.5/32", "192.0.2.9/32"}; !slices.Equal(cred.IPs, want) ||
		cred.Origins == nil || len(cred.Origins) != 0 || cred.Groups == nil || len(cred.Groups) != 0 {
		t.Fatalf("record filters %+v, want ips %v and empty lists", cred, want)
	}

	refused, usageIn := 0, in
	check := func(in *instance, path, peer string, status int, msg string, headers ...string) {
		t.Helper()
		in.filterCall(t, path, key, peer, headers...).want(t, status, msg)
		if status == 403 && in == usageIn {
			refused++
		}
	}
	const ipNo = "Client IP not allowed for this API key"
	check(in, "/v1/test/whoami", "198.51.100.20:1234", 200, "")
	check(in, "/v1/test/whoami", "192.0.2.5:1", 200, "")
	check(in, "/v1/test/whoami", "192.0.2.9:1", 200, "")
	check(in, "/v1/test/whoami", "192.0.2.6:1", 403, ipNo)
	check(in, "/v1/test/whoami", "[2001:db8::1]:443", 200, "")
	check(in, "/v1/test/whoami", "[2001:db9::1]:443", 403, ipNo)
	// X-Forwarded-For counts from the trusted proxy only.
	check(in, "/v1/test/whoami", "10.0.0.1:80", 200, "", "X-Forwarded-For", "198.51.100.9")
	check(in, "/v1/test/whoami", "10.0.0.1:80", 403, ipNo, "X-Forwarded-For", "203.0.113.1")
	check(in, "/v1/test/whoami", "10.0.0.1:80", 200, "", "X-Forwarded-For", "2001:db8::5")
	check(in, "/v1/test/whoami", "203.0.113.7:80", 403, ipNo, "X-Forwarded-For", "198.51.100.9")
	// A refusal never reaches the handler: allowed, the chain route answers
	// from its (missing) database; refused, the filter answers first.
	check(in, "/v1/test/chain", "198.51.100.20:1", 503, "Network mainnet is not served by this deployment")
	check(in, "/v1/test/chain", "192.0.2.6:1", 403, ipNo)
	// The other instance has the key cached with its filters too.
	check(other, "/v1/test/whoami", "192.0.2.6:1", 403, ipNo)

	// A PATCH replaces the filters and holds at once on both instances.
	in.call(t, "PATCH", "/v1/admin/credentials/"+id, a,
		`{"allowed_ips":null,"allowed_origins":["https://*.Example.com","http://localhost:3000"]}`).want(t, 200, "").into(t, &cred)
	if len(cred.IPs) != 0 || !slices.Equal(cred.Origins, []string{"https://*.example.com", "http://localhost:3000"}) {
		t.Fatalf("patched filters %+v", cred)
	}
	const originNo = "Origin not allowed for this API key"
	for _, in := range []*instance{in, other} {
		check(in, "/v1/test/whoami", "192.0.2.6:1", 200, "", "Origin", "https://sub.example.com")
		check(in, "/v1/test/whoami", "192.0.2.6:1", 200, "", "Origin", "https://a.b.EXAMPLE.com")
		check(in, "/v1/test/whoami", "192.0.2.6:1", 200, "", "Origin", "http://localhost:3000")
		for _, o := range []string{"https://example.com", "https://evil-example.com", "http://sub.example.com",
			"https://sub.example.com:8443", "https://sub.example.com.evil.org", "http://localhost:3001", ""} {
			check(in, "/v1/test/whoami", "192.0.2.6:1", 403, originNo, "Origin", o)
		}
	}

	// Route groups narrow the plan's: chain is the plan's but not the
	// key's; webhooks is the key's but not the plan's.
	in.call(t, "PATCH", "/v1/admin/credentials/"+id, a,
		`{"allowed_origins":[],"allowed_route_groups":["history","submit","webhooks"]}`).want(t, 200, "")
	for g, want := range map[string]string{
		admin.GroupChain:    "Route group chain not allowed for this API key",
		admin.GroupWebhooks: "Your plan does not include this route (route group webhooks)",
		admin.GroupHistory:  "",
		admin.GroupSubmit:   "",
	} {
		in.srv.groups["/v1/test/whoami"] = g
		status := 200
		if want != "" {
			status = 403
		}
		in.filterCall(t, "/v1/test/whoami", key, "192.0.2.6:1").want(t, status, want)
		if want == "Route group chain not allowed for this API key" {
			refused++
		}
	}
	delete(in.srv.groups, "/v1/test/whoami")

	// Usage counts every refusal of this instance as a failed request.
	if err := rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var failed int64
	if err := e.db.Get(&failed, `SELECT coalesce(sum(failed_requests), 0) FROM syncgate.usage_hourly WHERE credential_id = $1`, id); err != nil {
		t.Fatal(err)
	}
	// Besides the filter refusals: the chain route's 503 and the plan's 403.
	if want := int64(refused + 2); failed != want {
		t.Fatalf("failed requests %d, want %d", failed, want)
	}
}

// TestAccessFilterBadInput: a filter that does not parse is a 400 naming
// it, on create and PATCH alike, and nothing changes.
func TestAccessFilterBadInput(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, a := e.adminKey(in, "P", allPerms...)
	uid := e.user(in, a, "u")
	id, _ := e.credential(in, a, uid, "")
	many := make([]string, auth.MaxFilterEntries+1)
	for i := range many {
		many[i] = fmt.Sprintf(`"10.0.%d.0/24"`, i)
	}
	groups := "allowed_route_groups must be an array of: chain, history, submit, mempool, webhooks, or null"
	ipsType := "allowed_ips must be an array of at most 100 IP addresses or CIDR prefixes, or null"
	originNot := func(o string) string {
		return `allowed_origins entry "` + o + `" is not an origin: scheme http or https and a host (optionally *. and a port), without path`
	}
	cases := []struct{ field, msg string }{
		{`"allowed_ips":["10.0.0.0/33"]`, `allowed_ips entry "10.0.0.0/33" is not an IP address or CIDR prefix`},
		{`"allowed_ips":["not-an-ip"]`, `allowed_ips entry "not-an-ip" is not an IP address or CIDR prefix`},
		{`"allowed_ips":["fe80::1%eth0"]`, `allowed_ips entry "fe80::1%eth0" is not an IP address or CIDR prefix`},
		{`"allowed_ips":"10.0.0.1"`, ipsType},
		{`"allowed_ips":[1]`, ipsType},
		{`"allowed_ips":[` + strings.Join(many, ",") + `]`, ipsType},
		{`"allowed_origins":["https://app.example.com/path"]`, originNot("https://app.example.com/path")},
		{`"allowed_origins":["https://app.example.com/"]`, originNot("https://app.example.com/")},
		{`"allowed_origins":["app.example.com"]`, originNot("app.example.com")},
		{`"allowed_origins":["ftp://app.example.com"]`, originNot("ftp://app.example.com")},
		{`"allowed_origins":["https://*"]`, originNot("https://*")},
		{`"allowed_origins":["https://a.*.example.com"]`, originNot("https://a.*.example.com")},
		{`"allowed_origins":["https://user@app.example.com"]`, originNot("https://user@app.example.com")},
		{`"allowed_route_groups":["chain","admin"]`, `allowed_route_groups entry "admin" is not a route group (one of: chain, history, submit, mempool, webhooks)`},
		{`"allowed_route_groups":{}`, groups},
	}
	for _, c := range cases {
		e.unchanged(t, func() {
			in.call(t, "POST", "/v1/admin/credentials", a, `{"name":"c","user_account_id":"`+uid+`","network_id":0,`+c.field+`}`).want(t, 400, c.msg)
			in.call(t, "PATCH", "/v1/admin/credentials/"+id, a, `{"name":"renamed",`+c.field+`}`).want(t, 400, c.msg)
		})
	}
	// 100 entries is the most, and a filter alone is a PATCH.
	in.call(t, "PATCH", "/v1/admin/credentials/"+id, a, `{"allowed_ips":[`+strings.Join(many[:100], ",")+`]}`).want(t, 200, "")
}
