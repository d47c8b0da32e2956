package handlers

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/admin"
)

type auditRow struct {
	ID              string          `json:"id"`
	Action          string          `json:"action"`
	AdminKeyID      string          `json:"admin_key_id"`
	AdminEntityName string          `json:"admin_entity_name"`
	TargetID        *string         `json:"target_id"`
	TargetType      string          `json:"target_type"`
	IPAddress       *string         `json:"ip_address"`
	Details         json.RawMessage `json:"details"`
	CreatedAt       string          `json:"created_at"`
}

func TestAuditLog(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	keyID, key := e.adminKey(in, "Auditor", allPerms...)

	// One of every action, through the API.
	userID := e.user(in, key, "U")
	in.call(t, "GET", "/v1/admin/users", key, "").want(t, 200, "")
	in.call(t, "GET", "/v1/admin/users/"+userID, key, "").want(t, 200, "")
	in.call(t, "PATCH", "/v1/admin/users/"+userID, key, `{"email":"new@x"}`).want(t, 200, "")
	in.call(t, "POST", "/v1/admin/users/"+userID+"/suspend", key, "").want(t, 200, "")
	in.call(t, "POST", "/v1/admin/users/"+userID+"/reactivate", key, "").want(t, 200, "")
	credID, apiKey := e.credential(in, key, userID, "")
	in.call(t, "GET", "/v1/admin/credentials", key, "").want(t, 200, "")
	in.call(t, "GET", "/v1/admin/credentials/"+credID, key, "").want(t, 200, "")
	in.call(t, "PATCH", "/v1/admin/credentials/"+credID, key, `{"name":"renamed"}`).want(t, 200, "")
	in.call(t, "DELETE", "/v1/admin/credentials/"+credID, key, "").want(t, 200, "")
	// Refused requests leave no entry.
	in.call(t, "GET", "/v1/admin/users/00000000-0000-0000-0000-00000000dead", key, "").want(t, 404, "User account not found")

	r := in.call(t, "GET", "/v1/admin/audit-logs", key, "").want(t, 200, "")
	if _, ok := r.Pagination["hasMore"]; ok {
		t.Fatalf("audit pagination has hasMore: %s", r.Raw)
	}
	limit, offset, total, _ := r.page(t)
	var rows []auditRow
	r.into(t, &rows)
	var raws []map[string]json.RawMessage
	r.into(t, &raws)
	wantActions := []string{ // newest first
		admin.ActionCredentialRevoked, admin.ActionCredentialUpdated, admin.ActionCredentialViewed, admin.ActionCredentialListed,
		admin.ActionCredentialCreated, admin.ActionUserReactivated, admin.ActionUserSuspended, admin.ActionUserUpdated,
		admin.ActionUserViewed, admin.ActionUserListed, admin.ActionUserCreated,
	}
	if limit != 50 || offset != 0 || total != len(wantActions) || len(rows) != len(wantActions) {
		t.Fatalf("page %d %d %d, %d rows; want %d entries: %s", limit, offset, total, len(rows), len(wantActions), r.Raw)
	}
	for i, row := range rows {
		if row.Action != wantActions[i] {
			t.Fatalf("entry %d is %s, want %s", i, row.Action, wantActions[i])
		}
		if row.AdminKeyID != keyID || row.AdminEntityName != "Auditor" || row.IPAddress == nil || *row.IPAddress != "203.0.113.7" ||
			!strings.HasSuffix(row.CreatedAt, "Z") || len(row.Details) == 0 || row.Details[0] != '{' {
			t.Fatalf("entry %d = %+v", i, row)
		}
		wantFields(t, raws[i], []string{"id", "action", "admin_key_id", "admin_entity_name", "target_id", "target_type", "ip_address", "details", "created_at"})
		switch {
		case strings.HasPrefix(row.Action, "credential."):
			if row.TargetType != "credential" {
				t.Fatalf("%s target_type %s", row.Action, row.TargetType)
			}
			if row.Action != admin.ActionCredentialListed && (row.TargetID == nil || *row.TargetID != credID) {
				t.Fatalf("%s target %v", row.Action, row.TargetID)
			}
		case strings.HasPrefix(row.Action, "user_account."):
			if row.TargetType != "user_account" {
				t.Fatalf("%s target_type %s", row.Action, row.TargetType)
			}
			if row.Action != admin.ActionUserListed && (row.TargetID == nil || *row.TargetID != userID) {
				t.Fatalf("%s target %v", row.Action, row.TargetID)
			}
		}
	}
	if string(rows[1].Details) != `{"changes":{"name":"renamed"}}` || string(rows[7].Details) != `{"changes":{"email":"new@x"}}` {
		t.Fatalf("update details: %s / %s", rows[1].Details, rows[7].Details)
	}
	// No key is ever written to the audit log (prefixes only).
	var all string
	if err := e.db.Get(&all, `SELECT string_agg(details::text, ' ') FROM syncgate.audit_logs`); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(all, apiKey) || strings.Contains(all, key) {
		t.Fatal("a key is in the audit log")
	}

	// The read above was itself recorded.
	r = in.call(t, "GET", "/v1/admin/audit-logs?action=audit_log.viewed", key, "").want(t, 200, "")
	r.into(t, &rows)
	if len(rows) != 1 || rows[0].TargetType != "audit_log" || rows[0].TargetID != nil {
		t.Fatalf("audit_log.viewed: %s", r.Raw)
	}

	// Filters.
	r = in.call(t, "GET", "/v1/admin/audit-logs?target_id="+credID+"&limit=2&offset=1", key, "").want(t, 200, "")
	r.into(t, &rows)
	if _, _, total, _ := r.page(t); total != 4 || len(rows) != 2 || rows[0].Action != admin.ActionCredentialUpdated {
		t.Fatalf("target filter: %s", r.Raw)
	}
	r = in.call(t, "GET", "/v1/admin/audit-logs?action=user_account.suspended&admin_key_id="+keyID, key, "").want(t, 200, "")
	if _, _, total, _ := r.page(t); total != 1 {
		t.Fatalf("action + key filter: %s", r.Raw)
	}
	r = in.call(t, "GET", "/v1/admin/audit-logs?action=no_such.action", key, "").want(t, 200, "")
	if string(r.Data) != "[]" {
		t.Fatalf("unknown action: %s", r.Data)
	}

	// The bootstrap key reads every key's entries, including its own.
	r = in.call(t, "GET", "/v1/admin/audit-logs?action=admin_key.created", testBootstrapKey, "").want(t, 200, "")
	r.into(t, &rows)
	if len(rows) != 1 || rows[0].AdminKeyID != admin.BootstrapKeyID.String() || rows[0].AdminEntityName != "bootstrap" ||
		rows[0].TargetID == nil || *rows[0].TargetID != keyID || rows[0].TargetType != "admin_key" {
		t.Fatalf("bootstrap's own entries: %s", r.Raw)
	}
	r = in.call(t, "GET", "/v1/admin/audit-logs?admin_key_id="+keyID+"&limit=100", testBootstrapKey, "").want(t, 200, "")
	if _, _, total, _ := r.page(t); total < len(wantActions) {
		t.Fatalf("bootstrap sees %d of the key's entries", total)
	}

	// Bad filters: 400, nothing written.
	e.unchanged(t, func() {
		for q, msg := range map[string]string{
			"limit=0":             "Invalid limit: must be an integer from 1 to 100",
			"limit=101":           "Invalid limit: must be an integer from 1 to 100",
			"offset=-5":           "Invalid offset: must be an integer from 0 to 1000000",
			"admin_key_id=123":    "Invalid admin_key_id: must be a UUID",
			"target_id=x":         "Invalid target_id: must be a UUID",
			"action=DROP%20TABLE": "Invalid action: must be an audit action such as credential.created",
			"action=%00":          "Invalid action: must be an audit action such as credential.created",
			"action=":             "Invalid action: must be an audit action such as credential.created",
		} {
			in.call(t, "GET", "/v1/admin/audit-logs?"+q, key, "").want(t, 400, msg)
		}
	})
}
