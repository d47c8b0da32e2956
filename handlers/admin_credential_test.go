package handlers

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/admin"
)

var (
	credentialFields = []string{"id", "name", "description", "api_key_prefix", "created_at", "user_account_id",
		"user_account_name", "user_external_id", "admin_key_id", "admin_entity_name", "network_id", "last_used_at",
		"expires_at", "revoked", "revoked_at", "rate_limit_per_minute", "metadata",
		"allowed_ips", "allowed_origins", "allowed_route_groups"}
	revokedFields = []string{"id", "name", "api_key_prefix", "user_account_id", "user_account_name", "admin_key_id",
		"admin_entity_name", "network_id", "revoked", "revoked_at"}
	credentialKeyFormat = regexp.MustCompile(`^sgk1_[0-9a-f]{48}$`)
)

func TestCreateCredential(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	keyID, key := e.adminKey(in, "Partner", admin.PermManageUsers, admin.PermManageCredentials)
	r := in.call(t, "POST", "/v1/admin/users", key, `{"name":"Dora","external_id":"ext-9"}`).want(t, 201, "")
	userID := str(r.fields(t)["id"])

	expires := e.clock.Now().Add(48 * time.Hour).UTC().Truncate(time.Millisecond)
	r = in.call(t, "POST", "/v1/admin/credentials", key, `{"name":"prod","user_account_id":"`+userID+`","network_id":2,
		"description":"main key","expires_at":"`+expires.Format(time.RFC3339Nano)+`","rate_limit_per_minute":500,"metadata":{"env":"prod"}}`).want(t, 201, "")
	if !strings.HasPrefix(r.Message, "Credential created successfully") {
		t.Errorf("message %q", r.Message)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("a response with a full key has Cache-Control %q", cc)
	}
	var d struct {
		Credential map[string]json.RawMessage `json:"credential"`
		APIKey     string                     `json:"api_key"`
	}
	r.into(t, &d)
	if len(r.fields(t)) != 2 {
		t.Fatalf("data has fields %v, want credential and api_key", keys(r.fields(t)))
	}
	if !credentialKeyFormat.MatchString(d.APIKey) || len(d.APIKey) != 53 {
		t.Fatalf("api_key %q is not sgk1_ + 48 lowercase hex", d.APIKey)
	}
	c := d.Credential
	wantFields(t, c, credentialFields)
	if str(c["api_key_prefix"]) != d.APIKey[:12] || str(c["name"]) != "prod" || str(c["description"]) != "main key" ||
		str(c["user_account_id"]) != userID || str(c["user_account_name"]) != "Dora" || str(c["user_external_id"]) != "ext-9" ||
		str(c["admin_key_id"]) != keyID || str(c["admin_entity_name"]) != "Partner" || string(c["network_id"]) != "2" ||
		string(c["last_used_at"]) != "null" || str(c["expires_at"]) != expires.Format("2006-01-02T15:04:05.000Z") ||
		string(c["revoked"]) != "false" || string(c["revoked_at"]) != "null" || string(c["rate_limit_per_minute"]) != "500" ||
		string(c["metadata"]) != `{"env":"prod"}` {
		t.Fatalf("credential = %s", r.Data)
	}
	if strings.Contains(e.snapshot(), d.APIKey) {
		t.Fatal("key stored in clear")
	}
	// The key works on a data endpoint for its network.
	w := in.call(t, "GET", "/v1/test/whoami", d.APIKey, "").want(t, 200, "")
	if !strings.Contains(string(w.Data), `"network_id":2`) {
		t.Fatalf("whoami = %s", w.Data)
	}
	// Defaults: rate limit 60, no description, no expiry, {} metadata; a date-only expiry is accepted.
	r = in.call(t, "POST", "/v1/admin/credentials", key, `{"name":"dev","user_account_id":"`+userID+`","network_id":0,"description":null}`).want(t, 201, "")
	r.into(t, &d)
	if string(d.Credential["rate_limit_per_minute"]) != "60" || string(d.Credential["description"]) != "null" ||
		string(d.Credential["expires_at"]) != "null" || string(d.Credential["metadata"]) != "{}" {
		t.Fatalf("defaults: %s", r.Data)
	}
	in.call(t, "POST", "/v1/admin/credentials", key, `{"name":"dated","user_account_id":"`+userID+`","network_id":1,"expires_at":"2999-01-01"}`).want(t, 201, "")
}

func TestCreateCredentialBadInput(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, key := e.adminKey(in, "Partner", allPerms...)
	userID := e.user(in, key, "u")
	_, other := e.adminKey(in, "Other", allPerms...)
	otherUser := e.user(in, other, "theirs")
	past := e.clock.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	body := func(fields string) string {
		return `{"name":"c","user_account_id":"` + userID + `","network_id":0` + fields + `}`
	}
	netMsg := "network_id is required (0=Mainnet, 1=Preview, 2=Preprod)"
	rateMsg := "rate_limit_per_minute must be an integer from 1 to 10000"
	cases := []struct {
		name, body string
		status     int
		wantErr    string
	}{
		{"malformed json", `{"name":`, 400, "Invalid JSON body"},
		{"missing name", `{"user_account_id":"` + userID + `","network_id":0}`, 400, "Name is required and must be a non-empty string"},
		{"number name", `{"name":1,"user_account_id":"` + userID + `","network_id":0}`, 400, "Name is required and must be a non-empty string"},
		{"long name", `{"name":"` + strings.Repeat("n", 256) + `","user_account_id":"` + userID + `","network_id":0}`, 400, "Name must be 255 characters or less"},
		{"NUL in name", `{"name":"a\u0000","user_account_id":"` + userID + `","network_id":0}`, 400, "Name must not contain \\u0000 characters"},
		{"NUL in description", `{"name":"c","description":"a\u0000","user_account_id":"` + userID + `","network_id":0}`, 400, "description must not contain \\u0000 characters"},
		{"missing user", `{"name":"c","network_id":0}`, 400, "user_account_id is required"},
		{"null user", `{"name":"c","user_account_id":null,"network_id":0}`, 400, "user_account_id is required"},
		{"number user", `{"name":"c","user_account_id":12,"network_id":0}`, 400, "user_account_id is required"},
		{"missing network", `{"name":"c","user_account_id":"` + userID + `"}`, 400, netMsg},
		{"string network", `{"name":"c","user_account_id":"` + userID + `","network_id":"0"}`, 400, netMsg},
		{"network 3", `{"name":"c","user_account_id":"` + userID + `","network_id":3}`, 400, netMsg},
		{"network -1", `{"name":"c","user_account_id":"` + userID + `","network_id":-1}`, 400, netMsg},
		{"network 1.5", `{"name":"c","user_account_id":"` + userID + `","network_id":1.5}`, 400, netMsg},
		{"past expiry", body(`,"expires_at":"` + past + `"`), 400, "expires_at must be in the future"},
		{"bad expiry", body(`,"expires_at":"tomorrow"`), 400, "expires_at must be an ISO 8601 timestamp"},
		{"number expiry", body(`,"expires_at":1700000000`), 400, "expires_at must be an ISO 8601 timestamp"},
		{"rate 0", body(`,"rate_limit_per_minute":0`), 400, rateMsg},
		{"rate 10001", body(`,"rate_limit_per_minute":10001`), 400, rateMsg},
		{"rate string", body(`,"rate_limit_per_minute":"60"`), 400, rateMsg},
		{"description number", body(`,"description":5`), 400, "description must be a string or null"},
		{"metadata array", body(`,"metadata":[]`), 400, "metadata must be a JSON object"},
		{"unknown user", `{"name":"c","user_account_id":"00000000-0000-0000-0000-00000000beef","network_id":0}`, 404, "User account not found"},
		{"not a uuid", `{"name":"c","user_account_id":"nope","network_id":0}`, 404, "User account not found"},
		{"another key's user", `{"name":"c","user_account_id":"` + otherUser + `","network_id":0}`, 404, "User account not found"},
		{"400 before 404", `{"name":"c","user_account_id":"nope","network_id":7}`, 400, netMsg},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.unchanged(t, func() {
				in.call(t, "POST", "/v1/admin/credentials", key, tc.body).want(t, tc.status, tc.wantErr)
			})
		})
	}
}

func TestListAndGetCredentials(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, key := e.adminKey(in, "Partner", allPerms...)
	userID := e.user(in, key, "u")
	var ids []string
	for i := 0; i < 4; i++ {
		id, _ := e.credential(in, key, userID, "")
		ids = append(ids, id)
	}
	in.call(t, "DELETE", "/v1/admin/credentials/"+ids[1], key, "").want(t, 200, "")

	r := in.call(t, "GET", "/v1/admin/credentials", key, "").want(t, 200, "")
	var list []map[string]json.RawMessage
	r.into(t, &list)
	limit, offset, total, more := r.page(t)
	if limit != 20 || offset != 0 || total != 3 || more == nil || *more || len(list) != 3 {
		t.Fatalf("page %d %d %d %v len %d", limit, offset, total, more, len(list))
	}
	for i, want := range []string{ids[3], ids[2], ids[0]} {
		wantFields(t, list[i], credentialFields)
		if str(list[i]["id"]) != want {
			t.Fatalf("item %d = %s, want %s (newest first, revoked left out)", i, list[i]["id"], want)
		}
	}
	r = in.call(t, "GET", "/v1/admin/credentials?includeRevoked=true&limit=2", key, "").want(t, 200, "")
	r.into(t, &list)
	if _, _, total, more := r.page(t); total != 4 || len(list) != 2 || !*more || str(list[1]["id"]) != ids[2] {
		t.Fatalf("with revoked: %s", r.Raw)
	}
	r = in.call(t, "GET", "/v1/admin/credentials?includeRevoked=true&offset=2", key, "").want(t, 200, "")
	r.into(t, &list)
	if len(list) != 2 || str(list[0]["id"]) != ids[1] || string(list[0]["revoked"]) != "true" {
		t.Fatalf("revoked in list: %s", r.Raw)
	}
	if strings.Contains(r.Raw, "sgk1_") && strings.Contains(r.Raw, `"api_key"`) {
		t.Fatal("list leaks a key")
	}

	// GET one, revoked included.
	r = in.call(t, "GET", "/v1/admin/credentials/"+ids[1], key, "").want(t, 200, "")
	wantFields(t, r.fields(t), credentialFields)
	if string(r.fields(t)["revoked"]) != "true" || string(r.fields(t)["revoked_at"]) == "null" {
		t.Fatalf("revoked credential = %s", r.Data)
	}
	e.unchanged(t, func() {
		in.call(t, "GET", "/v1/admin/credentials/xyz", key, "").want(t, 400, "Invalid credential ID format")
		in.call(t, "GET", "/v1/admin/credentials/00000000-0000-0000-0000-00000000beef", key, "").want(t, 404, "Credential not found")
		in.call(t, "GET", "/v1/admin/credentials?includeRevoked=maybe", key, "").want(t, 400, "Invalid includeRevoked: must be true or false")
		in.call(t, "GET", "/v1/admin/credentials?limit=500", key, "").want(t, 400, "Invalid limit: must be an integer from 1 to 100")
	})
}

func TestUpdateCredential(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, key := e.adminKey(in, "Partner", allPerms...)
	userID := e.user(in, key, "u")
	id, apiKey := e.credential(in, key, userID, `,"description":"old","rate_limit_per_minute":7`)

	r := in.call(t, "PATCH", "/v1/admin/credentials/"+id, key, `{"name":"renamed"}`).want(t, 200, "")
	c := r.fields(t)
	wantFields(t, c, credentialFields)
	if str(c["name"]) != "renamed" || str(c["description"]) != "old" || string(c["network_id"]) != "0" ||
		string(c["rate_limit_per_minute"]) != "7" || r.Message != "Credential updated successfully" {
		t.Fatalf("patch name = %s (only name and description may change)", r.Raw)
	}
	r = in.call(t, "PATCH", "/v1/admin/credentials/"+id, key, `{"description":null}`).want(t, 200, "")
	if c = r.fields(t); string(c["description"]) != "null" || str(c["name"]) != "renamed" {
		t.Fatalf("clear description = %s", r.Data)
	}
	r = in.call(t, "PATCH", "/v1/admin/credentials/"+id, key, `{"description":"new"}`).want(t, 200, "")
	if c = r.fields(t); str(c["description"]) != "new" {
		t.Fatalf("set description = %s", r.Data)
	}
	// The key still works after an update.
	in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")

	e.unchanged(t, func() {
		for _, tc := range []struct {
			path, body string
			status     int
			msg        string
		}{
			{"xyz", `{"name":"a"}`, 400, "Invalid credential ID format"},
			{id, `{}`, 400, "At least one field (name or description) must be provided"},
			{id, `{"network_id":1}`, 400, "Unknown field: network_id. Allowed: name, description, allowed_ips, allowed_origins, allowed_route_groups"},
			{id, `{"name":"x","network_id":2,"rate_limit_per_minute":1}`, 400, "Unknown fields: network_id, rate_limit_per_minute. Allowed: name, description, allowed_ips, allowed_origins, allowed_route_groups"},
			{id, `{"name":null}`, 400, "At least one field (name or description) must be provided"},
			{id, `{"name":"` + strings.Repeat("x", 256) + `"}`, 400, "Name must be 255 characters or less"},
			{id, `{"name":""}`, 400, "Name must be a non-empty string"},
			{id, `{"name":3}`, 400, "Name must be a non-empty string"},
			{id, `{"description":{}}`, 400, "description must be a string or null"},
			{id, `{"description":"a\u0000"}`, 400, "description must not contain \\u0000 characters"},
			{id, `not json`, 400, "Invalid JSON body"},
			{"00000000-0000-0000-0000-00000000beef", `{"name":"a"}`, 404, "Credential not found or already revoked"},
		} {
			in.call(t, "PATCH", "/v1/admin/credentials/"+tc.path, key, tc.body).want(t, tc.status, tc.msg)
		}
	})
	in.call(t, "DELETE", "/v1/admin/credentials/"+id, key, "").want(t, 200, "")
	e.unchanged(t, func() {
		in.call(t, "PATCH", "/v1/admin/credentials/"+id, key, `{"name":"again"}`).want(t, 404, "Credential not found or already revoked")
	})
}

func TestRevokeCredential(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	keyID, key := e.adminKey(in, "Partner", allPerms...)
	userID := e.user(in, key, "Eve")
	id, apiKey := e.credential(in, key, userID, "")
	in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")

	r := in.call(t, "DELETE", "/v1/admin/credentials/"+id, key, "").want(t, 200, "")
	c := r.fields(t)
	wantFields(t, c, revokedFields)
	if str(c["id"]) != id || str(c["name"]) != "cred" || str(c["api_key_prefix"]) != apiKey[:12] ||
		str(c["user_account_id"]) != userID || str(c["user_account_name"]) != "Eve" || str(c["admin_key_id"]) != keyID ||
		str(c["admin_entity_name"]) != "Partner" || string(c["network_id"]) != "0" || string(c["revoked"]) != "true" ||
		!strings.HasSuffix(str(c["revoked_at"]), "Z") || r.Message != "Credential revoked successfully" {
		t.Fatalf("revoke = %s", r.Raw)
	}
	in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 401, "API key has been revoked")
	// Soft delete: the record stays.
	var n int
	if err := e.db.Get(&n, `SELECT count(*) FROM syncgate.credentials WHERE id = $1 AND revoked`, id); err != nil || n != 1 {
		t.Fatalf("record kept: %d %v", n, err)
	}
	e.unchanged(t, func() {
		in.call(t, "DELETE", "/v1/admin/credentials/"+id, key, "").want(t, 404, "Credential not found or already revoked")
		in.call(t, "DELETE", "/v1/admin/credentials/nope", key, "").want(t, 400, "Invalid credential ID format")
		in.call(t, "DELETE", "/v1/admin/credentials/00000000-0000-0000-0000-00000000beef", key, "").want(t, 404, "Credential not found or already revoked")
	})
}
