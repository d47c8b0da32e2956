package handlers

import (
	"regexp"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/admin"
)

var adminKeyFormat = regexp.MustCompile(`^sga1_[0-9a-f]{48}$`)

func TestCreateAdminKey(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	r := in.call(t, "POST", "/v1/admin/keys", testBootstrapKey,
		`{"admin_entity_name":"Partner A","permissions":["manage_users","view_audit_logs","manage_users"],"unknown":1}`).want(t, 201, "")
	if r.Message == "" {
		t.Error("no message")
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("a response with a full key has Cache-Control %q", cc)
	}
	var d struct {
		AdminKey map[string]any `json:"admin_key"`
		Key      string         `json:"key"`
	}
	r.into(t, &d)
	if !adminKeyFormat.MatchString(d.Key) {
		t.Fatalf("key %q is not sga1_ + 48 lowercase hex", d.Key)
	}
	k := d.AdminKey
	if len(k) != 9 || k["partner_id"] == nil || k["expires_at"] != nil || k["admin_entity_name"] != "Partner A" || k["api_key_prefix"] != d.Key[:12] ||
		k["revoked"] != false || k["revoked_at"] != nil || k["created_at"] == nil || k["id"] == nil {
		t.Fatalf("admin_key = %v", k)
	}
	if perms := k["permissions"].([]any); len(perms) != 2 || perms[0] != "manage_users" || perms[1] != "view_audit_logs" {
		t.Fatalf("permissions = %v, want duplicates dropped, order kept", perms)
	}
	// Only the hash is stored.
	var n int
	if err := e.db.Get(&n, `SELECT count(*) FROM syncgate.admin_keys WHERE key_hash = sha256($1::bytea) AND api_key_prefix = $2`, d.Key, d.Key[:12]); err != nil || n != 1 {
		t.Fatalf("stored hash rows = %d, %v", n, err)
	}
	if strings.Contains(e.snapshot(), d.Key) {
		t.Fatal("key stored in clear")
	}
	// The new key works at once; the CLI path (store) makes the same kind of key.
	in.call(t, "GET", "/v1/admin/users", d.Key, "").want(t, 200, "")
	in.call(t, "GET", "/v1/admin/credentials", d.Key, "").want(t, 403, "Permission denied: manage_credentials required")
}

func TestCreateAdminKeyBadInput(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, partner := e.adminKey(in, "partner", allPerms...)
	long := strings.Repeat("é", 256)
	cases := []struct{ name, key, body, wantErr string }{
		{"not bootstrap", partner, `{"admin_entity_name":"x","permissions":[]}`, "Permission denied: bootstrap key required"},
		{"malformed json", testBootstrapKey, `{"admin_entity_name":`, "Invalid JSON body"},
		{"array body", testBootstrapKey, `[]`, "Invalid JSON body"},
		{"missing name", testBootstrapKey, `{"permissions":[]}`, "admin_entity_name is required and must be a non-empty string"},
		{"blank name", testBootstrapKey, `{"admin_entity_name":"  ","permissions":[]}`, "admin_entity_name is required and must be a non-empty string"},
		{"number name", testBootstrapKey, `{"admin_entity_name":5,"permissions":[]}`, "admin_entity_name is required and must be a non-empty string"},
		{"long name", testBootstrapKey, `{"admin_entity_name":"` + long + `","permissions":[]}`, "admin_entity_name must be 255 characters or less"},
		{"NUL in name", testBootstrapKey, `{"admin_entity_name":"a\u0000b","permissions":[]}`, "admin_entity_name must not contain \\u0000 characters"},
		{"missing permissions", testBootstrapKey, `{"admin_entity_name":"x"}`, "permissions must be an array of: manage_users, manage_credentials, view_usage, view_audit_logs"},
		{"unknown permission", testBootstrapKey, `{"admin_entity_name":"x","permissions":["root"]}`, "permissions must be an array of: manage_users, manage_credentials, view_usage, view_audit_logs"},
		{"permissions string", testBootstrapKey, `{"admin_entity_name":"x","permissions":"manage_users"}`, "permissions must be an array of: manage_users, manage_credentials, view_usage, view_audit_logs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.unchanged(t, func() {
				status := 400
				if strings.HasPrefix(tc.wantErr, "Permission") {
					status = 403
				}
				in.call(t, "POST", "/v1/admin/keys", tc.key, tc.body).want(t, status, tc.wantErr)
			})
		})
	}
	t.Run("body over 64 KiB", func(t *testing.T) {
		e.unchanged(t, func() {
			body := `{"admin_entity_name":"x","permissions":[],"pad":"` + strings.Repeat("a", 70<<10) + `"}`
			in.call(t, "POST", "/v1/admin/keys", testBootstrapKey, body).want(t, 413, "Request body too large")
		})
	})
}

func TestListAndRevokeAdminKeys(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	var ids []string
	for _, name := range []string{"k1", "k2", "k3"} {
		id, _ := e.adminKey(in, name, admin.PermManageUsers)
		ids = append(ids, id)
	}
	_, partner := e.adminKey(in, "partner", allPerms...)
	r := in.call(t, "GET", "/v1/admin/keys?limit=2&offset=1", testBootstrapKey, "").want(t, 200, "")
	var list []map[string]any
	r.into(t, &list)
	limit, offset, total, more := r.page(t)
	if limit != 2 || offset != 1 || total != 4 || more == nil || !*more || len(list) != 2 {
		t.Fatalf("page %d %d %d %v len %d", limit, offset, total, more, len(list))
	}
	if list[0]["id"] != ids[2] || list[1]["id"] != ids[1] {
		t.Fatalf("order: got %v, %v; want newest first", list[0]["id"], list[1]["id"])
	}
	in.call(t, "GET", "/v1/admin/keys", partner, "").want(t, 403, "Permission denied: bootstrap key required")
	in.call(t, "GET", "/v1/admin/keys?limit=0", testBootstrapKey, "").want(t, 400, "Invalid limit: must be an integer from 1 to 100")

	// Revoke: the key fails authentication at once, on this and any other instance.
	other := e.instance()
	r = in.call(t, "DELETE", "/v1/admin/keys/"+ids[0], testBootstrapKey, "").want(t, 200, "")
	var k map[string]any
	r.into(t, &k)
	if k["revoked"] != true || k["revoked_at"] == nil || k["id"] != ids[0] || r.Message != "Admin key revoked successfully" {
		t.Fatalf("revoke: %s", r.Raw)
	}
	revID, revKey := e.adminKey(in, "soon revoked", allPerms...)
	other.call(t, "GET", "/v1/admin/users", revKey, "").want(t, 200, "")
	in.call(t, "DELETE", "/v1/admin/keys/"+revID, testBootstrapKey, "").want(t, 200, "")
	other.call(t, "GET", "/v1/admin/users", revKey, "").want(t, 401, "Invalid API key")

	e.unchanged(t, func() {
		in.call(t, "DELETE", "/v1/admin/keys/"+ids[0], testBootstrapKey, "").want(t, 404, "Admin key not found or already revoked")
		in.call(t, "DELETE", "/v1/admin/keys/not-a-uuid", testBootstrapKey, "").want(t, 404, "Admin key not found or already revoked")
		in.call(t, "DELETE", "/v1/admin/keys/"+admin.BootstrapKeyID.String(), testBootstrapKey, "").want(t, 404, "Admin key not found or already revoked")
		in.call(t, "DELETE", "/v1/admin/keys/"+ids[1], partner, "").want(t, 403, "Permission denied: bootstrap key required")
	})
}

func TestAdminAuthentication(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, usersOnly := e.adminKey(in, "users only", admin.PermManageUsers)
	_, credsOnly := e.adminKey(in, "creds only", admin.PermManageCredentials)
	_, all := e.adminKey(in, "all", allPerms...)
	userID := e.user(in, all, "u")
	_, apiKey := e.credential(in, all, userID, "")

	e.unchanged(t, func() {
		for _, tc := range []struct{ name, method, path, hdr, key, wantErr string }{
			{"no header", "GET", "/v1/admin/users", "", "", "Missing or malformed Authorization header"},
			{"basic auth", "GET", "/v1/admin/users", "Basic abc", "", "Missing or malformed Authorization header"},
			{"unknown admin key", "GET", "/v1/admin/users", "", "sga1_" + strings.Repeat("0", 48), "Invalid API key"},
			{"garbage", "GET", "/v1/admin/users", "", "hello", "Invalid API key"},
			{"credential on admin endpoint", "GET", "/v1/admin/users", "", apiKey, "Invalid API key"},
			{"admin key on data endpoint", "GET", "/v1/test/whoami", "", all, "Invalid API key"},
			{"bootstrap key on data endpoint", "GET", "/v1/test/whoami", "", testBootstrapKey, "Invalid API key"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var r reply
				if tc.hdr != "" {
					r = callWithHeader(t, in, tc.method, tc.path, tc.hdr)
				} else {
					r = in.call(t, tc.method, tc.path, tc.key, "")
				}
				r.want(t, 401, tc.wantErr)
			})
		}
	})

	// Every admin endpoint enforces its permission (403, nothing written).
	id := "/" + userID
	perm := func(p string) string { return "Permission denied: " + p + " required" }
	e.unchanged(t, func() {
		for _, tc := range []struct{ method, path, key, body, wantErr string }{
			{"POST", "/v1/admin/users", credsOnly, `{"name":"x"}`, perm("manage_users")},
			{"GET", "/v1/admin/users", credsOnly, "", perm("manage_users")},
			{"GET", "/v1/admin/users" + id, credsOnly, "", perm("manage_users")},
			{"PATCH", "/v1/admin/users" + id, credsOnly, `{"name":"x"}`, perm("manage_users")},
			{"POST", "/v1/admin/users" + id + "/suspend", credsOnly, "", perm("manage_users")},
			{"POST", "/v1/admin/users" + id + "/reactivate", credsOnly, "", perm("manage_users")},
			{"POST", "/v1/admin/credentials", usersOnly, `{}`, perm("manage_credentials")},
			{"GET", "/v1/admin/credentials", usersOnly, "", perm("manage_credentials")},
			{"GET", "/v1/admin/credentials" + id, usersOnly, "", perm("manage_credentials")},
			{"PATCH", "/v1/admin/credentials" + id, usersOnly, `{"name":"x"}`, perm("manage_credentials")},
			{"DELETE", "/v1/admin/credentials" + id, usersOnly, "", perm("manage_credentials")},
			{"GET", "/v1/admin/audit-logs", usersOnly, "", perm("view_audit_logs")},
			{"GET", "/v1/admin/usage", usersOnly, "", perm("view_usage")},
			{"POST", "/v1/admin/keys", all, `{}`, perm("bootstrap key")},
		} {
			t.Run(tc.method+" "+tc.path, func(t *testing.T) {
				in.call(t, tc.method, tc.path, tc.key, tc.body).want(t, 403, tc.wantErr)
			})
		}
	})

	t.Run("bootstrap cannot manage users", func(t *testing.T) {
		e.unchanged(t, func() {
			in.call(t, "POST", "/v1/admin/users", testBootstrapKey, `{"name":"x"}`).want(t, 400, "Bootstrap key cannot manage users. Create an admin key first.")
		})
		// It owns nothing: lists are empty and ids are 404.
		r := in.call(t, "GET", "/v1/admin/users", testBootstrapKey, "").want(t, 200, "")
		if string(r.Data) != "[]" {
			t.Fatalf("bootstrap sees users: %s", r.Data)
		}
		in.call(t, "GET", "/v1/admin/users"+id, testBootstrapKey, "").want(t, 404, "User account not found")
		r = in.call(t, "GET", "/v1/admin/credentials", testBootstrapKey, "").want(t, 200, "")
		if string(r.Data) != "[]" {
			t.Fatalf("bootstrap sees credentials: %s", r.Data)
		}
		in.call(t, "POST", "/v1/admin/credentials", testBootstrapKey, `{"name":"c","user_account_id":"`+userID+`","network_id":0}`).want(t, 404, "User account not found")
	})
}

// callWithHeader sends a raw Authorization header.
func callWithHeader(t *testing.T, in *instance, method, path, authorization string) reply {
	t.Helper()
	return in.callHeader(t, method, path, authorization, "")
}
