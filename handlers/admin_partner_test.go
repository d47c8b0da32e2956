package handlers

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncgate/syncgate/admin"
)

// rollAdminKey rolls an admin key through the API and returns the new key's id and key.
func (e *adminEnv) rollAdminKey(in *instance, id, body string) (newID, key string) {
	e.t.Helper()
	r := in.call(e.t, "POST", "/v1/admin/keys/"+id+"/roll", testBootstrapKey, body).want(e.t, 200, "")
	var d struct {
		AdminKey struct {
			ID string `json:"id"`
		} `json:"admin_key"`
		Key string `json:"key"`
	}
	r.into(e.t, &d)
	return d.AdminKey.ID, d.Key
}

// TestRevokeLastAdminKey: revoking a partner's only admin key makes every
// credential of the partner httpx.Fail on the very next request on another
// instance that had them cached, and the audit entry counts them.
func TestRevokeLastAdminKey(t *testing.T) {
	e := newAdminEnv(t)
	e.fastTimeout = 2 * time.Second // the next-request guarantee needs Redis to answer
	in, other := e.instance(), e.instance()
	keyID, key := e.adminKey(in, "P", allPerms...)
	u1, u2 := e.user(in, key, "u1"), e.user(in, key, "u2")
	_, k1 := e.credential(in, key, u1, "")
	_, k2 := e.credential(in, key, u2, "")
	c3, k3 := e.credential(in, key, u2, "")
	in.call(t, "DELETE", "/v1/admin/credentials/"+c3, key, "").want(t, 200, "") // already revoked: not counted
	// Another partner's key is untouched.
	_, q := e.adminKey(in, "Q", allPerms...)
	_, qKey := e.credential(in, q, e.user(in, q, "q's"), "")
	for _, k := range []string{k1, k2, qKey} {
		other.call(t, "GET", "/v1/test/whoami", k, "").want(t, 200, "")
	}
	other.call(t, "GET", "/v1/test/whoami", k3, "").want(t, 401, "API key has been revoked")

	r := in.call(t, "DELETE", "/v1/admin/keys/"+keyID, testBootstrapKey, "").want(t, 200, "")
	var d struct {
		CredentialsRevoked int `json:"credentials_revoked"`
	}
	r.into(t, &d)
	if d.CredentialsRevoked != 2 || r.Message != "Admin key revoked successfully. It was its partner's last active key: 2 credentials revoked" {
		t.Fatalf("revoke: %s", r.Raw)
	}
	for _, k := range []string{k1, k2} {
		other.call(t, "GET", "/v1/test/whoami", k, "").want(t, 401, "API key has been revoked")
	}
	other.call(t, "GET", "/v1/test/whoami", qKey, "").want(t, 200, "")

	// The audit entry, read independently.
	var details []byte
	if err := e.db.Get(&details, `SELECT details FROM syncgate.audit_logs WHERE action = 'admin_key.revoked' AND target_id = $1`, keyID); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	_ = json.Unmarshal(details, &got)
	if got["credentials_revoked"] != float64(2) || got["last_key_of_partner"] != true {
		t.Fatalf("audit details %s", details)
	}
	var live int
	if err := e.db.Get(&live, `SELECT count(*) FROM syncgate.credentials c JOIN syncgate.admin_keys k ON k.partner_id = c.partner_id
		WHERE k.id = $1 AND NOT c.revoked`, keyID); err != nil || live != 0 {
		t.Fatalf("live credentials of the partner: %d, %v", live, err)
	}
}

// TestPartnerOwnership: keys of one partner share its users and
// credentials; revoking one key that is not the last leaves them working
// and manageable by the others (today's bug: nothing could revoke them).
func TestPartnerOwnership(t *testing.T) {
	e := newAdminEnv(t)
	e.fastTimeout = 2 * time.Second // the next-request guarantee needs Redis to answer
	in := e.instance()
	oldID, old := e.adminKey(in, "P", allPerms...)
	userID := e.user(in, old, "u")
	credID, apiKey := e.credential(in, old, userID, "")
	newID, fresh := e.rollAdminKey(in, oldID, `{"expires_in_seconds":3600}`)

	// The new key sees what the old one created.
	in.call(t, "GET", "/v1/admin/users/"+userID, fresh, "").want(t, 200, "")
	r := in.call(t, "GET", "/v1/admin/credentials", fresh, "").want(t, 200, "")
	if _, _, total, _ := r.page(t); total != 1 || !strings.Contains(string(r.Data), credID) {
		t.Fatalf("new key's credentials: %s", r.Raw)
	}
	// Revoking the old key (not the last): nothing else changes.
	r = in.call(t, "DELETE", "/v1/admin/keys/"+oldID, testBootstrapKey, "").want(t, 200, "")
	if r.Message != "Admin key revoked successfully" {
		t.Fatalf("revoke: %s", r.Raw)
	}
	in.call(t, "GET", "/v1/admin/users", old, "").want(t, 401, "Invalid API key")
	in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
	in.call(t, "DELETE", "/v1/admin/credentials/"+credID, fresh, "").want(t, 200, "")
	in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 401, "API key has been revoked")
	// Created by the old key, owned by the partner: the record still names its creator.
	r = in.call(t, "GET", "/v1/admin/credentials/"+credID, fresh, "").want(t, 200, "")
	if str(r.fields(t)["admin_key_id"]) != oldID {
		t.Fatalf("creator: %s", r.Data)
	}
	_ = newID
}

func TestRollAdminKey(t *testing.T) {
	e := newAdminEnv(t)
	in, other := e.instance(), e.instance()
	oldID, old := e.adminKey(in, "P", admin.PermManageUsers, admin.PermViewUsage)
	other.call(t, "GET", "/v1/admin/users", old, "").want(t, 200, "")

	r := in.call(t, "POST", "/v1/admin/keys/"+oldID+"/roll", testBootstrapKey, `{"expires_in_seconds":600}`).want(t, 200, "")
	if r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("Cache-Control %q", r.Header.Get("Cache-Control"))
	}
	var d struct {
		AdminKey         map[string]any `json:"admin_key"`
		Key              string         `json:"key"`
		PreviousAdminKey map[string]any `json:"previous_admin_key"`
	}
	r.into(t, &d)
	nk, pk := d.AdminKey, d.PreviousAdminKey
	if !adminKeyFormat.MatchString(d.Key) || nk["partner_id"] != pk["partner_id"] || nk["admin_entity_name"] != "P" ||
		nk["api_key_prefix"] != d.Key[:12] || pk["id"] != oldID || pk["revoked"] != false {
		t.Fatalf("roll: %s", r.Raw)
	}
	if perms := nk["permissions"].([]any); len(perms) != 2 || perms[0] != admin.PermManageUsers || perms[1] != admin.PermViewUsage {
		t.Fatalf("permissions %v", perms)
	}
	wantEnd := e.clock.Now().Add(600 * time.Second).UTC()
	if end, err := time.Parse(time.RFC3339Nano, pk["expires_at"].(string)); err != nil || end.Sub(wantEnd).Abs() > time.Second {
		t.Fatalf("old key expires_at %v, want about %v", pk["expires_at"], wantEnd)
	}
	// Both keys work during the overlap, on every instance.
	other.call(t, "GET", "/v1/admin/users", old, "").want(t, 200, "")
	other.call(t, "GET", "/v1/admin/users", d.Key, "").want(t, 200, "")
	e.clock.Add(599 * time.Second)
	other.call(t, "GET", "/v1/admin/users", old, "").want(t, 200, "")
	e.clock.Add(time.Second)
	other.call(t, "GET", "/v1/admin/users", old, "").want(t, 401, "Invalid API key")
	in.call(t, "GET", "/v1/admin/users", old, "").want(t, 401, "Invalid API key")
	other.call(t, "GET", "/v1/admin/users", d.Key, "").want(t, 200, "")
	// A key past its overlap cannot be rolled again.
	e.unchanged(t, func() {
		in.call(t, "POST", "/v1/admin/keys/"+oldID+"/roll", testBootstrapKey, "").want(t, 404, "Admin key not found or already revoked")
	})

	// Without an overlap (empty body: the default) the old key is revoked at once.
	newID := nk["id"].(string)
	third, thirdKey := e.rollAdminKey(in, newID, "")
	other.call(t, "GET", "/v1/admin/users", d.Key, "").want(t, 401, "Invalid API key")
	other.call(t, "GET", "/v1/admin/users", thirdKey, "").want(t, 200, "")
	var revoked bool
	if err := e.db.Get(&revoked, `SELECT revoked FROM syncgate.admin_keys WHERE id = $1`, newID); err != nil || !revoked {
		t.Fatalf("rolled without overlap: revoked %v, %v", revoked, err)
	}
	var n int
	if err := e.db.Get(&n, `SELECT count(*) FROM syncgate.audit_logs WHERE action = 'admin_key.rolled' AND target_id = $1
		AND details->>'new_admin_key_id' = $2 AND (details->>'expires_in_seconds')::int = 0`, newID, third); err != nil || n != 1 {
		t.Fatalf("admin_key.rolled entries: %d, %v", n, err)
	}
}

func TestRollBadInput(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	keyID, key := e.adminKey(in, "P", allPerms...)
	credID, _ := e.credential(in, key, e.user(in, key, "u"), "")
	missing := "00000000-0000-0000-0000-00000000dead"
	rangeMsg := "expires_in_seconds must be an integer from 0 to 604800 (7 days)"
	for _, path := range []struct{ ok, missing, bad, key, notFound string }{
		{"/v1/admin/keys/" + keyID + "/roll", "/v1/admin/keys/" + missing + "/roll", "/v1/admin/keys/x/roll", testBootstrapKey, "Admin key not found or already revoked"},
		{"/v1/admin/credentials/" + credID + "/roll", "/v1/admin/credentials/" + missing + "/roll", "/v1/admin/credentials/x/roll", key, "Credential not found or already revoked"},
	} {
		e.unchanged(t, func() {
			for _, body := range []string{`{"expires_in_seconds":-1}`, `{"expires_in_seconds":604801}`, `{"expires_in_seconds":"60"}`,
				`{"expires_in_seconds":1.5}`, `{"expires_in_seconds":1e3}`, `{"expires_in_seconds":true}`, `{"expires_in_seconds":99999999999999999999}`} {
				in.call(t, "POST", path.ok, path.key, body).want(t, 400, rangeMsg)
			}
			in.call(t, "POST", path.ok, path.key, `{"expires_in_seconds":`).want(t, 400, "Invalid JSON body")
			in.call(t, "POST", path.ok, path.key, `[]`).want(t, 400, "Invalid JSON body")
			in.call(t, "POST", path.missing, path.key, "").want(t, 404, path.notFound)
		})
	}
	e.unchanged(t, func() {
		in.call(t, "POST", "/v1/admin/keys/x/roll", testBootstrapKey, "").want(t, 404, "Admin key not found or already revoked")
		in.call(t, "POST", "/v1/admin/keys/"+admin.BootstrapKeyID.String()+"/roll", testBootstrapKey, "").want(t, 404, "Admin key not found or already revoked")
		in.call(t, "POST", "/v1/admin/credentials/x/roll", key, "").want(t, 400, "Invalid credential ID format")
	})
	// The longest overlap is accepted.
	in.call(t, "POST", "/v1/admin/credentials/"+credID+"/roll", key, `{"expires_in_seconds":604800}`).want(t, 200, "")
	in.call(t, "POST", "/v1/admin/keys/"+keyID+"/roll", testBootstrapKey, `{"expires_in_seconds":604800}`).want(t, 200, "")
}

func TestRollCredential(t *testing.T) {
	e := newAdminEnv(t)
	e.fastTimeout = 2 * time.Second // the next-request guarantee needs Redis to answer
	in, other := e.instance(), e.instance()
	_, key := e.adminKey(in, "P", allPerms...)
	userID := e.user(in, key, "u")
	credID, old := e.credential(in, key, userID, `,"rate_limit_per_minute":77,"network_id":2`)
	whoami := func(in *instance, k string) string {
		r := in.call(t, "GET", "/v1/test/whoami", k, "").want(t, 200, "")
		if r.Header.Get("X-RateLimit-Limit") != "77" {
			t.Fatalf("rate limit header %q", r.Header.Get("X-RateLimit-Limit"))
		}
		return str(r.fields(t)["credential_id"])
	}
	whoami(other, old) // cached on the other instance
	var before string
	if err := e.db.Get(&before, `SELECT concat_ws('|', user_account_id, network_id, rate_limit_per_minute, name, created_at, admin_key_id)
		FROM syncgate.credentials WHERE id = $1`, credID); err != nil {
		t.Fatal(err)
	}

	r := in.call(t, "POST", "/v1/admin/credentials/"+credID+"/roll", key, `{"expires_in_seconds":60}`).want(t, 200, "")
	if r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("Cache-Control %q", r.Header.Get("Cache-Control"))
	}
	var d struct {
		Credential           map[string]any `json:"credential"`
		APIKey               string         `json:"api_key"`
		PreviousKeyExpiresAt string         `json:"previous_key_expires_at"`
	}
	r.into(t, &d)
	if d.Credential["id"] != credID || d.Credential["api_key_prefix"] != d.APIKey[:12] || d.APIKey == old || !strings.HasPrefix(d.APIKey, "sgk1_") {
		t.Fatalf("roll: %s", r.Raw)
	}
	var after string
	if err := e.db.Get(&after, `SELECT concat_ws('|', user_account_id, network_id, rate_limit_per_minute, name, created_at, admin_key_id)
		FROM syncgate.credentials WHERE id = $1 AND key_hash = sha256($2::bytea)`, credID, d.APIKey); err != nil || after != before {
		t.Fatalf("credential changed: %q -> %q (%v)", before, after, err)
	}
	// Same credential (so usage keeps counting on the same id) for both keys.
	if whoami(other, old) != credID || whoami(other, d.APIKey) != credID || whoami(in, old) != credID {
		t.Fatal("a key of the rolled credential answers as another credential")
	}
	e.clock.Add(59 * time.Second)
	whoami(other, old)
	e.clock.Add(time.Second)
	other.call(t, "GET", "/v1/test/whoami", old, "").want(t, 401, "API key has expired")
	in.call(t, "GET", "/v1/test/whoami", old, "").want(t, 401, "API key has expired")
	whoami(other, d.APIKey)

	// Roll again without overlap: the current key fails at once elsewhere.
	second := d.APIKey
	r = in.call(t, "POST", "/v1/admin/credentials/"+credID+"/roll", key, "").want(t, 200, "")
	r.into(t, &d)
	other.call(t, "GET", "/v1/test/whoami", second, "").want(t, 401, "API key has expired")
	whoami(other, d.APIKey)
	// While an earlier roll's overlap runs, rolling again (which would end
	// that key early) is refused and changes nothing.
	third := d.APIKey
	in.call(t, "POST", "/v1/admin/credentials/"+credID+"/roll", key, `{"expires_in_seconds":3600}`).want(t, 200, "").into(t, &d)
	whoami(other, third)
	pendingMsg := "Credential was rolled recently: its previous key works until " + isoTime(e.clock.Now().Add(3600*time.Second)) +
		". Roll again after that, or revoke the credential"
	e.unchanged(t, func() {
		in.call(t, "POST", "/v1/admin/credentials/"+credID+"/roll", key, `{"expires_in_seconds":3600}`).want(t, 409, pendingMsg)
		in.call(t, "POST", "/v1/admin/credentials/"+credID+"/roll", key, "").want(t, 409, pendingMsg)
	})
	whoami(other, third) // the previous key, still in its overlap
	whoami(other, d.APIKey)

	// Revoking ends the previous key too; a revoked credential cannot be rolled.
	in.call(t, "DELETE", "/v1/admin/credentials/"+credID, key, "").want(t, 200, "")
	other.call(t, "GET", "/v1/test/whoami", d.APIKey, "").want(t, 401, "API key has been revoked")
	e.unchanged(t, func() {
		in.call(t, "POST", "/v1/admin/credentials/"+credID+"/roll", key, "").want(t, 404, "Credential not found or already revoked")
	})
	var n int
	if err := e.db.Get(&n, `SELECT count(*) FROM syncgate.audit_logs WHERE action = 'credential.rolled' AND target_id = $1`, credID); err != nil || n != 3 {
		t.Fatalf("credential.rolled entries: %d, %v", n, err)
	}
	if strings.Contains(e.snapshot(), d.APIKey) || strings.Contains(e.snapshot(), old) {
		t.Fatal("a key is stored in clear")
	}
}

// TestRollCredentialOwnership: another partner, a key without
// manage_credentials and the bootstrap key cannot roll a credential.
func TestRollCredentialOwnership(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, a := e.adminKey(in, "A", allPerms...)
	_, b := e.adminKey(in, "B", allPerms...)
	_, usersOnly := e.adminKey(in, "B users", admin.PermManageUsers)
	credID, apiKey := e.credential(in, a, e.user(in, a, "u"), "")
	e.unchanged(t, func() {
		in.call(t, "POST", "/v1/admin/credentials/"+credID+"/roll", b, "").want(t, 404, "Credential not found or already revoked")
		in.call(t, "POST", "/v1/admin/credentials/"+credID+"/roll", testBootstrapKey, "").want(t, 404, "Credential not found or already revoked")
		in.call(t, "POST", "/v1/admin/credentials/"+credID+"/roll", usersOnly, "").want(t, 403, "Permission denied: manage_credentials required")
	})
	in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
}

// TestRequireBootstrap: every /v1/admin/keys route and the security events
// answer 403 to any other admin key, from the middleware (nothing written,
// whatever the body or id).
func TestRequireBootstrap(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	id, all := e.adminKey(in, "all", allPerms...)
	e.unchanged(t, func() {
		for _, tc := range []struct{ method, path, body string }{
			{"POST", "/v1/admin/keys", `{"admin_entity_name":"x","permissions":[]}`},
			{"POST", "/v1/admin/keys", `not json`},
			{"GET", "/v1/admin/keys", ""},
			{"GET", "/v1/admin/keys?limit=0", ""},
			{"DELETE", "/v1/admin/keys/" + id, ""},
			{"DELETE", "/v1/admin/keys/not-a-uuid", ""},
			{"POST", "/v1/admin/keys/" + id + "/roll", ""},
			{"POST", "/v1/admin/keys/" + id + "/roll", `{"expires_in_seconds":-5}`},
			{"GET", "/v1/admin/security-events", ""},
		} {
			in.call(t, tc.method, tc.path, all, tc.body).want(t, 403, "Permission denied: bootstrap key required")
		}
	})
	in.call(t, "GET", "/v1/admin/users", all, "").want(t, 200, "")
}

// TestAdminRateLimit: each admin key has its own per-minute budget, with
// the data limit's headers and 429.
func TestAdminRateLimit(t *testing.T) {
	e := newAdminEnv(t)
	e.adminRate = 3
	in := e.instance()
	// Keys made through the store, so the bootstrap key's budget is untouched.
	_, a, err := in.store.CreateAdminKey(context.Background(), admin.Bootstrap(""), "A", allPerms)
	if err != nil {
		t.Fatal(err)
	}
	_, b, err := in.store.CreateAdminKey(context.Background(), admin.Bootstrap(""), "B", allPerms)
	if err != nil {
		t.Fatal(err)
	}
	for i := 3; i > 0; i-- {
		r := in.call(t, "GET", "/v1/admin/users", a, "").want(t, 200, "")
		if r.Header.Get("X-RateLimit-Limit") != "3" || r.Header.Get("X-RateLimit-Remaining") != strconv.Itoa(i-1) {
			t.Fatalf("headers %v", r.Header)
		}
	}
	e.unchanged(t, func() {
		r := in.call(t, "GET", "/v1/admin/users", a, "").want(t, 429, "Rate limit exceeded: 3 requests per minute")
		if ra, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 20 {
			t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
		}
		// Also before the permission check and on POST.
		in.call(t, "POST", "/v1/admin/users", a, `{"name":"x"}`).want(t, 429, "Rate limit exceeded: 3 requests per minute")
	})
	in.call(t, "GET", "/v1/admin/users", b, "").want(t, 200, "")
	// The bootstrap key is limited too.
	for range 3 {
		in.call(t, "GET", "/v1/admin/keys", testBootstrapKey, "").want(t, 200, "")
	}
	in.call(t, "GET", "/v1/admin/keys", testBootstrapKey, "").want(t, 429, "Rate limit exceeded: 3 requests per minute")
}

// TestAdminRateLimitDetails: the admin 429 carries the details object the
// data API's 429 does, naming the per-minute policy, its limit and window.
func TestAdminRateLimitDetails(t *testing.T) {
	e := newAdminEnv(t)
	e.adminRate = 3
	e.fastTimeout = 2 * time.Second // no local fallback under CPU load: it would start a fresh budget
	in := e.instance()
	_, setup, err := in.store.CreateAdminKey(context.Background(), admin.Bootstrap(""), "setup", allPerms)
	if err != nil {
		t.Fatal(err)
	}
	_, a, err := in.store.CreateAdminKey(context.Background(), admin.Bootstrap(""), "A", allPerms)
	if err != nil {
		t.Fatal(err)
	}
	_, apiKey := e.credential(in, setup, e.user(in, setup, "u"), `,"rate_limit_per_minute":3`)
	for range 3 {
		in.call(t, "GET", "/v1/admin/users", a, "").want(t, 200, "")
		in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
	}
	details := func(r reply) string {
		t.Helper()
		var body struct {
			Details json.RawMessage `json:"details"`
		}
		if err := json.Unmarshal([]byte(r.Raw), &body); err != nil {
			t.Fatalf("%s: %v", r.Raw, err)
		}
		return string(body.Details)
	}
	const msg = "Rate limit exceeded: 3 requests per minute"
	data := details(in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 429, msg))
	adm := details(in.call(t, "GET", "/v1/admin/users", a, "").want(t, 429, msg))
	if want := `{"policy":"minute","limit":3,"window_seconds":60}`; data != want || adm != data {
		t.Fatalf("429 details: data API %s, admin API %s, want both %s", data, adm, want)
	}
}

// TestRollConcurrent: rolls of one key at once are decided one after
// another, and every key a roll hands out works for the overlap it was
// promised: a roll that would cut an earlier roll's overlap short is
// refused, and nothing fails with a 500.
func TestRollConcurrent(t *testing.T) {
	e := newAdminEnv(t)
	e.fastTimeout = 2 * time.Second // the next-request guarantee needs Redis to answer
	in, other := e.instance(), e.instance()
	keyID, key := e.adminKey(in, "P", allPerms...)
	credID, original := e.credential(in, key, e.user(in, key, "u"), "")
	other.call(t, "GET", "/v1/test/whoami", original, "").want(t, 200, "")

	const n = 10
	rollAll := func(path, key, body string) []reply {
		replies := make([]reply, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				replies[i] = in.call(t, "POST", path, key, body)
			}()
		}
		wg.Wait()
		return replies
	}

	var issued []string
	pendingMsg := "Credential was rolled recently: its previous key works until " + isoTime(e.clock.Now().Add(3600*time.Second)) +
		". Roll again after that, or revoke the credential"
	for _, r := range rollAll("/v1/admin/credentials/"+credID+"/roll", key, `{"expires_in_seconds":3600}`) {
		switch r.Code {
		case 200:
			var d struct {
				APIKey string `json:"api_key"`
			}
			r.into(t, &d)
			issued = append(issued, d.APIKey)
		case 409:
			r.want(t, 409, pendingMsg)
		default:
			t.Fatalf("roll: %d %s", r.Code, r.Raw)
		}
	}
	if len(issued) != 1 {
		t.Fatalf("%d rolls succeeded, want 1", len(issued))
	}
	// Every key handed out works, and the key before the roll for its overlap.
	for _, k := range issued {
		other.call(t, "GET", "/v1/test/whoami", k, "").want(t, 200, "")
	}
	e.clock.Add(3599 * time.Second)
	other.call(t, "GET", "/v1/test/whoami", original, "").want(t, 200, "")
	e.clock.Add(time.Second)
	other.call(t, "GET", "/v1/test/whoami", original, "").want(t, 401, "API key has expired")
	// Once the overlap has ended the credential can be rolled again.
	in.call(t, "POST", "/v1/admin/credentials/"+credID+"/roll", key, "").want(t, 200, "")

	// Without an overlap each roll ends the key before it at once, as
	// asked: they all succeed, one after another, and the last key works.
	var last string
	for _, r := range rollAll("/v1/admin/credentials/"+credID+"/roll", key, `{"expires_in_seconds":0}`) {
		var d struct {
			APIKey string `json:"api_key"`
		}
		r.want(t, 200, "").into(t, &d)
		var current bool
		if err := e.db.Get(&current, `SELECT key_hash = sha256($2::bytea) FROM syncgate.credentials WHERE id = $1`, credID, d.APIKey); err != nil {
			t.Fatal(err)
		}
		if current {
			last = d.APIKey
		}
	}
	other.call(t, "GET", "/v1/test/whoami", last, "").want(t, 200, "")

	// Admin keys: each roll makes a new key of its own; the rolled key's
	// end is the earliest asked for. Every key handed out works.
	var adminKeys []string
	for _, r := range rollAll("/v1/admin/keys/"+keyID+"/roll", testBootstrapKey, `{"expires_in_seconds":600}`) {
		var d struct {
			Key string `json:"key"`
		}
		r.want(t, 200, "").into(t, &d)
		adminKeys = append(adminKeys, d.Key)
	}
	for _, k := range adminKeys {
		other.call(t, "GET", "/v1/admin/users", k, "").want(t, 200, "")
	}
	other.call(t, "GET", "/v1/admin/users", key, "").want(t, 200, "")
	// Rolled at once without an overlap: one roll revokes the key, the
	// others find it revoked.
	id2, _ := e.adminKey(in, "Q", allPerms...)
	ok := 0
	for _, r := range rollAll("/v1/admin/keys/"+id2+"/roll", testBootstrapKey, `{"expires_in_seconds":0}`) {
		if r.Code == 200 {
			ok++
			continue
		}
		r.want(t, 404, "Admin key not found or already revoked")
	}
	if ok != 1 {
		t.Fatalf("%d admin key rolls without overlap succeeded, want 1", ok)
	}
}

// TestRollBodyRule: both rolls read their body by one rule and answer 200.
// No body, an empty one, {} and null mean the default overlap (0); a body
// labelled with another media type is refused 415; a JSON body without a
// Content-Type is read as JSON.
func TestRollBodyRule(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	keyID, key := e.adminKey(in, "P", allPerms...)
	credID, _ := e.credential(in, key, e.user(in, key, "u"), "")
	send := func(path, bearer, contentType, body string) reply {
		t.Helper()
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		req.Header.Set("Authorization", "Bearer "+bearer)
		req.RemoteAddr = "203.0.113.7:4242"
		w := httptest.NewRecorder()
		serveChecked(t, in.srv.Handler(), w, req)
		r := reply{Code: w.Code, Header: w.Header(), Raw: w.Body.String()}
		if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
			t.Fatalf("body is not JSON: %q", r.Raw)
		}
		return r
	}
	const mediaMsg = "Content-Type must be application/json"
	// Refusals change nothing, on both rolls.
	e.unchanged(t, func() {
		for _, p := range []struct{ path, key string }{
			{"/v1/admin/credentials/" + credID + "/roll", key}, {"/v1/admin/keys/" + keyID + "/roll", testBootstrapKey},
		} {
			send(p.path, p.key, "text/plain", `{"expires_in_seconds":60}`).want(t, 415, mediaMsg)
			send(p.path, p.key, "application/x-www-form-urlencoded", `expires_in_seconds=60`).want(t, 415, mediaMsg)
			send(p.path, p.key, "application/json", `expires_in_seconds=60`).want(t, 400, "Invalid JSON body")
			send(p.path, p.key, "application/json", `null`).want(t, 400, "Invalid JSON body")
			send(p.path, p.key, "application/json", `{"expires_in":60}`).want(t, 400, "Unknown field: expires_in. Allowed: expires_in_seconds")
		}
		// The same label rule for every admin body.
		send("/v1/admin/users", key, "text/plain", `{"name":"x"}`).want(t, 415, mediaMsg)
		send("/v1/admin/credentials", key, "application/x-www-form-urlencoded", `{"name":"x"}`).want(t, 415, mediaMsg)
	})
	// What the overlap came out as, read from the credential's row.
	overlap := func() time.Duration {
		t.Helper()
		var end time.Time
		if err := e.db.Get(&end, `SELECT previous_key_expires_at FROM syncgate.credentials WHERE id = $1`, credID); err != nil {
			t.Fatal(err)
		}
		return end.Sub(e.clock.Now()).Round(time.Second)
	}
	credPath := "/v1/admin/credentials/" + credID + "/roll"
	for _, tc := range []struct {
		contentType, body string
		want              time.Duration
	}{
		{"", "", 0},
		{"application/json", "", 0},
		{"text/plain", "", 0}, // no body: nothing to misread
		{"application/json", "{}", 0},
		{"application/json", `{"expires_in_seconds":null}`, 0},
		{"application/json; charset=utf-8", `{"expires_in_seconds":5}`, 5 * time.Second},
		{"application/merge-patch+json", `{"expires_in_seconds":6}`, 6 * time.Second},
		{"", `{"expires_in_seconds":7}`, 7 * time.Second},
	} {
		send(credPath, key, tc.contentType, tc.body).want(t, 200, "")
		if got := overlap(); got != tc.want {
			t.Fatalf("Content-Type %q body %q: overlap %v, want %v", tc.contentType, tc.body, got, tc.want)
		}
		e.clock.Add(10 * time.Second) // past the overlap, so the next roll is allowed
	}
	// The admin key roll: the same status and the same default.
	var d struct {
		AdminKey         map[string]any `json:"admin_key"`
		PreviousAdminKey map[string]any `json:"previous_admin_key"`
	}
	send("/v1/admin/keys/"+keyID+"/roll", testBootstrapKey, "application/json", `{"expires_in_seconds":null}`).want(t, 200, "").into(t, &d)
	if d.PreviousAdminKey["revoked"] != true {
		t.Fatalf("null overlap did not revoke the old key at once: %v", d.PreviousAdminKey)
	}
	send("/v1/admin/keys/"+d.AdminKey["id"].(string)+"/roll", testBootstrapKey, "", "").want(t, 200, "")
}
