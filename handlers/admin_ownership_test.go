package handlers

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestOwnership: an admin key sees and changes only what it created; for
// every endpoint another key's id answers exactly like a missing id, and
// nothing is written.
func TestOwnership(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	aKeyID, a := e.adminKey(in, "A", allPerms...)
	_, b := e.adminKey(in, "B", allPerms...)
	aUser := e.user(in, a, "a's user")
	aCred, aAPIKey := e.credential(in, a, aUser, "")
	aSuspended := e.user(in, a, "a's suspended user")
	in.call(t, "POST", "/v1/admin/users/"+aSuspended+"/suspend", a, "").want(t, 200, "")
	bUser := e.user(in, b, "b's user")
	bCred, _ := e.credential(in, b, bUser, "")
	missing := "00000000-0000-0000-0000-00000000dead"

	// Each row: B touching A's resource and B touching a missing one must
	// answer the same status and message.
	cases := []struct {
		name, method, path, missingPath, body string
		status                                int
		msg                                   string
	}{
		{"get user", "GET", "/v1/admin/users/" + aUser, "/v1/admin/users/" + missing, "", 404, "User account not found"},
		{"patch user", "PATCH", "/v1/admin/users/" + aUser, "/v1/admin/users/" + missing, `{"name":"stolen"}`, 404, "User account not found"},
		{"suspend user", "POST", "/v1/admin/users/" + aUser + "/suspend", "/v1/admin/users/" + missing + "/suspend", "", 404, "User account not found or already suspended"},
		{"reactivate user", "POST", "/v1/admin/users/" + aSuspended + "/reactivate", "/v1/admin/users/" + missing + "/reactivate", "", 404, "User account not found or not suspended"},
		{"create credential for user", "POST", "/v1/admin/credentials", "/v1/admin/credentials", "", 404, "User account not found"},
		{"get credential", "GET", "/v1/admin/credentials/" + aCred, "/v1/admin/credentials/" + missing, "", 404, "Credential not found"},
		{"patch credential", "PATCH", "/v1/admin/credentials/" + aCred, "/v1/admin/credentials/" + missing, `{"name":"stolen"}`, 404, "Credential not found or already revoked"},
		{"revoke credential", "DELETE", "/v1/admin/credentials/" + aCred, "/v1/admin/credentials/" + missing, "", 404, "Credential not found or already revoked"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			theirs, none := tc.body, tc.body
			if tc.name == "create credential for user" {
				theirs = `{"name":"x","network_id":0,"user_account_id":"` + aUser + `"}`
				none = `{"name":"x","network_id":0,"user_account_id":"` + missing + `"}`
			}
			e.unchanged(t, func() {
				got := in.call(t, tc.method, tc.path, b, theirs).want(t, tc.status, tc.msg)
				ref := in.call(t, tc.method, tc.missingPath, b, none).want(t, tc.status, tc.msg)
				if got.Raw != ref.Raw {
					t.Fatalf("another key's id answers %s, a missing id %s", got.Raw, ref.Raw)
				}
			})
		})
	}

	// Lists hold only one's own resources.
	t.Run("list users", func(t *testing.T) {
		r := in.call(t, "GET", "/v1/admin/users", b, "").want(t, 200, "")
		if _, _, total, _ := r.page(t); total != 1 || !strings.Contains(string(r.Data), bUser) || strings.Contains(string(r.Data), aUser) {
			t.Fatalf("B's users: %s", r.Raw)
		}
		r = in.call(t, "GET", "/v1/admin/users?status=suspended", b, "").want(t, 200, "")
		if string(r.Data) != "[]" {
			t.Fatalf("B's suspended users: %s", r.Data)
		}
	})
	t.Run("list credentials", func(t *testing.T) {
		r := in.call(t, "GET", "/v1/admin/credentials?includeRevoked=true", b, "").want(t, 200, "")
		if _, _, total, _ := r.page(t); total != 1 || !strings.Contains(string(r.Data), bCred) || strings.Contains(string(r.Data), aCred) {
			t.Fatalf("B's credentials: %s", r.Raw)
		}
	})
	t.Run("audit logs", func(t *testing.T) {
		r := in.call(t, "GET", "/v1/admin/audit-logs?limit=100", b, "").want(t, 200, "")
		var entries []map[string]json.RawMessage
		r.into(t, &entries)
		for _, en := range entries {
			if str(en["admin_entity_name"]) != "B" {
				t.Fatalf("B reads an entry of %s", en["admin_entity_name"])
			}
		}
		r = in.call(t, "GET", "/v1/admin/audit-logs?target_id="+aUser, b, "").want(t, 200, "")
		if _, _, total, _ := r.page(t); total != 0 {
			t.Fatalf("B reads entries about A's user: %s", r.Raw)
		}
		r = in.call(t, "GET", "/v1/admin/audit-logs?admin_key_id="+aKeyID, b, "").want(t, 200, "")
		if _, _, total, _ := r.page(t); total != 0 {
			t.Fatalf("B reads A's entries by filter: %s", r.Raw)
		}
		r = in.call(t, "GET", "/v1/admin/audit-logs?admin_key_id="+aKeyID, a, "").want(t, 200, "")
		if _, _, total, _ := r.page(t); total == 0 {
			t.Fatalf("A cannot read its own entries: %s", r.Raw)
		}
	})
	// A's key still works and A's resources are intact.
	in.call(t, "GET", "/v1/test/whoami", aAPIKey, "").want(t, 200, "")
	r := in.call(t, "GET", "/v1/admin/users/"+aUser, a, "").want(t, 200, "")
	if str(r.fields(t)["name"]) != "a's user" || str(r.fields(t)["status"]) != "active" {
		t.Fatalf("A's user changed: %s", r.Data)
	}
}
