package handlers

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/admin"
)

var userFields = []string{"id", "admin_key_id", "admin_entity_name", "external_id", "name", "email", "metadata", "created_at", "updated_at", "status", "billing_plan", "plan_id"}

func wantFields(t *testing.T, got map[string]json.RawMessage, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("fields %v, want exactly %v", keys(got), want)
	}
	for _, f := range want {
		if _, ok := got[f]; !ok {
			t.Fatalf("field %q missing from %v", f, keys(got))
		}
	}
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestCreateUser(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	keyID, key := e.adminKey(in, "Partner A", admin.PermManageUsers)
	r := in.call(t, "POST", "/v1/admin/users", key,
		`{"name":"Alice","external_id":"cust-1","email":"a@example.com","billing_plan":"pro","metadata":{"tier":2,"big":123456789012345678901234567890},"ignored":true}`).want(t, 201, "")
	if r.Message != "User account created successfully" {
		t.Errorf("message %q", r.Message)
	}
	f := r.fields(t)
	wantFields(t, f, userFields)
	if str(f["admin_key_id"]) != keyID || str(f["admin_entity_name"]) != "Partner A" || str(f["status"]) != "active" ||
		string(f["updated_at"]) != "null" || str(f["external_id"]) != "cust-1" || str(f["email"]) != "a@example.com" ||
		str(f["billing_plan"]) != "pro" || str(f["name"]) != "Alice" || !strings.HasSuffix(str(f["created_at"]), "Z") {
		t.Fatalf("user = %s", r.Data)
	}
	if string(f["metadata"]) != `{"big":123456789012345678901234567890,"tier":2}` {
		t.Fatalf("metadata = %s (numbers must stay exact)", f["metadata"])
	}
	// Optional fields default to "" and {}.
	r = in.call(t, "POST", "/v1/admin/users", key, `{"name":"Bob"}`).want(t, 201, "")
	f = r.fields(t)
	if str(f["external_id"]) != "" || str(f["email"]) != "" || str(f["billing_plan"]) != "" || string(f["metadata"]) != "{}" {
		t.Fatalf("defaults: %s", r.Data)
	}
	// 255 characters (not bytes) is fine.
	in.call(t, "POST", "/v1/admin/users", key, `{"name":"`+strings.Repeat("é", 255)+`"}`).want(t, 201, "")
}

func str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func TestCreateUserBadInput(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, key := e.adminKey(in, "p", admin.PermManageUsers)
	nameMsg := "Name is required and must be a non-empty string"
	cases := []struct{ name, body, wantErr string }{
		{"malformed json", `{"name":"x"`, "Invalid JSON body"},
		{"not an object", `"x"`, "Invalid JSON body"},
		{"empty body", ``, "Invalid JSON body"},
		{"missing name", `{"email":"a@b"}`, nameMsg},
		{"empty name", `{"name":""}`, nameMsg},
		{"blank name", `{"name":"   "}`, nameMsg},
		{"number name", `{"name":42}`, nameMsg},
		{"null name", `{"name":null}`, nameMsg},
		{"long name", `{"name":"` + strings.Repeat("x", 256) + `"}`, "Name must be 255 characters or less"},
		{"NUL in name", `{"name":"a\u0000"}`, "Name must not contain \\u0000 characters"},
		{"number external_id", `{"name":"x","external_id":7}`, "external_id must be a string"},
		{"object email", `{"name":"x","email":{}}`, "email must be a string"},
		{"long billing_plan", `{"name":"x","billing_plan":"` + strings.Repeat("p", 256) + `"}`, "billing_plan must be 255 characters or less"},
		{"long email", `{"name":"x","email":"` + strings.Repeat("e", 256) + `"}`, "email must be 255 characters or less"},
		{"long external_id", `{"name":"x","external_id":"` + strings.Repeat("i", 256) + `"}`, "external_id must be 255 characters or less"},
		{"number billing_plan", `{"name":"x","billing_plan":5}`, "billing_plan must be a string"},
		{"metadata array", `{"name":"x","metadata":[1]}`, "metadata must be a JSON object"},
		{"metadata string", `{"name":"x","metadata":"{}"}`, "metadata must be a JSON object"},
		{"metadata NUL", `{"name":"x","metadata":{"a":"\u0000"}}`, "metadata must not contain \\u0000 characters or numbers beyond double precision range"},
		{"metadata huge number", `{"name":"x","metadata":{"a":1e999999}}`, "metadata must not contain \\u0000 characters or numbers beyond double precision range"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.unchanged(t, func() {
				in.call(t, "POST", "/v1/admin/users", key, tc.body).want(t, 400, tc.wantErr)
			})
		})
	}
}

func TestListUsers(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, key := e.adminKey(in, "p", admin.PermManageUsers)
	var ids []string
	for i := 0; i < 23; i++ {
		ids = append(ids, e.user(in, key, "user"))
	}
	r := in.call(t, "GET", "/v1/admin/users", key, "").want(t, 200, "")
	var list []map[string]json.RawMessage
	r.into(t, &list)
	limit, offset, total, more := r.page(t)
	if limit != 20 || offset != 0 || total != 23 || more == nil || !*more || len(list) != 20 {
		t.Fatalf("default page: limit %d offset %d total %d hasMore %v len %d", limit, offset, total, more, len(list))
	}
	for i, u := range list {
		wantFields(t, u, userFields)
		if str(u["id"]) != ids[22-i] {
			t.Fatalf("item %d is %s, want newest first (%s)", i, u["id"], ids[22-i])
		}
	}
	r = in.call(t, "GET", "/v1/admin/users?limit=5&offset=20", key, "").want(t, 200, "")
	r.into(t, &list)
	if _, _, _, more := r.page(t); len(list) != 3 || more == nil || *more {
		t.Fatalf("last page: len %d hasMore %v", len(list), more)
	}
	// Status filter.
	in.call(t, "POST", "/v1/admin/users/"+ids[0]+"/suspend", key, "").want(t, 200, "")
	in.call(t, "POST", "/v1/admin/users/"+ids[5]+"/suspend", key, "").want(t, 200, "")
	r = in.call(t, "GET", "/v1/admin/users?status=suspended", key, "").want(t, 200, "")
	r.into(t, &list)
	if _, _, total, _ := r.page(t); total != 2 || len(list) != 2 || str(list[0]["id"]) != ids[5] || str(list[1]["id"]) != ids[0] {
		t.Fatalf("suspended: %s", r.Raw)
	}
	r = in.call(t, "GET", "/v1/admin/users?status=active&limit=100", key, "").want(t, 200, "")
	if _, _, total, _ := r.page(t); total != 21 {
		t.Fatalf("active total %d", total)
	}
	r = in.call(t, "GET", "/v1/admin/users?status=pending", key, "").want(t, 200, "")
	if string(r.Data) != "[]" {
		t.Fatalf("pending: %s", r.Data)
	}
	// Bad query parameters: 400 naming the parameter, nothing written (not even audit).
	e.unchanged(t, func() {
		for q, msg := range map[string]string{
			"limit=0":        "Invalid limit: must be an integer from 1 to 100",
			"limit=101":      "Invalid limit: must be an integer from 1 to 100",
			"limit=abc":      "Invalid limit: must be an integer from 1 to 100",
			"offset=-1":      "Invalid offset: must be an integer from 0 to 1000000",
			"offset=x":       "Invalid offset: must be an integer from 0 to 1000000",
			"status=deleted": "Invalid status: must be one of active, suspended, pending",
			"status=":        "Invalid status: must be one of active, suspended, pending",
		} {
			in.call(t, "GET", "/v1/admin/users?"+q, key, "").want(t, 400, msg)
		}
	})
}

func TestGetAndUpdateUser(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, key := e.adminKey(in, "p", admin.PermManageUsers)
	r := in.call(t, "POST", "/v1/admin/users", key, `{"name":"Alice","email":"a@x","metadata":{"a":1,"b":2}}`).want(t, 201, "")
	id := str(r.fields(t)["id"])
	created := r.Data

	r = in.call(t, "GET", "/v1/admin/users/"+id, key, "").want(t, 200, "")
	if string(r.Data) != string(created) || r.Message != "" {
		t.Fatalf("get = %s, want %s", r.Raw, created)
	}

	r = in.call(t, "PATCH", "/v1/admin/users/"+id, key, `{"name":"Alice B","billing_plan":"gold","metadata":{"c":3},"email":null}`).want(t, 200, "")
	if r.Message != "User account updated successfully" {
		t.Errorf("message %q", r.Message)
	}
	f := r.fields(t)
	wantFields(t, f, userFields)
	if str(f["name"]) != "Alice B" || str(f["billing_plan"]) != "gold" || str(f["email"]) != "a@x" ||
		string(f["metadata"]) != `{"c":3}` || str(f["status"]) != "active" || string(f["updated_at"]) == "null" {
		t.Fatalf("patched = %s (metadata replaced whole, null ignored)", r.Data)
	}
	// An empty patch changes nothing but updated_at.
	in.call(t, "PATCH", "/v1/admin/users/"+id, key, `{}`).want(t, 200, "")

	e.unchanged(t, func() {
		for _, tc := range []struct{ method, path, body, status, msg string }{
			{"GET", "/v1/admin/users/not-a-uuid", "", "404", "User account not found"},
			{"GET", "/v1/admin/users/00000000-0000-0000-0000-00000000abcd", "", "404", "User account not found"},
			{"PATCH", "/v1/admin/users/not-a-uuid", `{"name":"x"}`, "404", "User account not found"},
			{"PATCH", "/v1/admin/users/00000000-0000-0000-0000-00000000abcd", `{"name":"x"}`, "404", "User account not found"},
			{"PATCH", "/v1/admin/users/" + id, `{"name":""}`, "400", "Name must be a non-empty string"},
			{"PATCH", "/v1/admin/users/" + id, `{"name":5}`, "400", "Name must be a non-empty string"},
			{"PATCH", "/v1/admin/users/" + id, `{"name":"` + strings.Repeat("n", 256) + `"}`, "400", "Name must be 255 characters or less"},
			{"PATCH", "/v1/admin/users/" + id, `{"external_id":1}`, "400", "external_id must be a string"},
			{"PATCH", "/v1/admin/users/" + id, `{"metadata":[]}`, "400", "metadata must be a JSON object"},
			{"PATCH", "/v1/admin/users/" + id, `{"name":`, "400", "Invalid JSON body"},
			// Unknown fields are named, and nothing changes (not even updated_at).
			{"PATCH", "/v1/admin/users/" + id, `{"nickname":"x"}`, "400", "Unknown field: nickname. Allowed: name, external_id, email, billing_plan, metadata, plan_id"},
			{"PATCH", "/v1/admin/users/" + id, `{"name":"ok","status":"suspended","id":null}`, "400", "Unknown fields: id, status. Allowed: name, external_id, email, billing_plan, metadata, plan_id"},
		} {
			status := 400
			if tc.status == "404" {
				status = 404
			}
			in.call(t, tc.method, tc.path, key, tc.body).want(t, status, tc.msg)
		}
	})
}

func TestSuspendReactivateUser(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	_, key := e.adminKey(in, "p", allPerms...)
	id := e.user(in, key, "Carol")
	_, apiKey := e.credential(in, key, id, "")
	in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")

	r := in.call(t, "POST", "/v1/admin/users/"+id+"/suspend", key, "").want(t, 200, "")
	f := r.fields(t)
	wantFields(t, f, []string{"id", "name", "status", "updated_at"})
	if str(f["status"]) != "suspended" || str(f["name"]) != "Carol" || str(f["id"]) != id || string(f["updated_at"]) == "null" ||
		r.Message != "User account suspended successfully" {
		t.Fatalf("suspend = %s", r.Raw)
	}
	in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 401, "User account is not active")
	e.unchanged(t, func() {
		in.call(t, "POST", "/v1/admin/users/"+id+"/suspend", key, "").want(t, 404, "User account not found or already suspended")
		in.call(t, "POST", "/v1/admin/users/bogus/suspend", key, "").want(t, 404, "User account not found or already suspended")
	})

	r = in.call(t, "POST", "/v1/admin/users/"+id+"/reactivate", key, "").want(t, 200, "")
	f = r.fields(t)
	if str(f["status"]) != "active" || r.Message != "User account reactivated successfully" {
		t.Fatalf("reactivate = %s", r.Raw)
	}
	in.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 200, "")
	e.unchanged(t, func() {
		in.call(t, "POST", "/v1/admin/users/"+id+"/reactivate", key, "").want(t, 404, "User account not found or not suspended")
		in.call(t, "POST", "/v1/admin/users/bogus/reactivate", key, "").want(t, 404, "User account not found or not suspended")
	})
	// pending is reserved: such a user can be neither suspended nor reactivated, and its keys httpx.Fail.
	if _, err := e.db.Exec(`UPDATE syncgate.user_accounts SET status = 'pending' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	e.unchanged(t, func() {
		in.call(t, "POST", "/v1/admin/users/"+id+"/suspend", key, "").want(t, 404, "User account not found or already suspended")
		in.call(t, "POST", "/v1/admin/users/"+id+"/reactivate", key, "").want(t, 404, "User account not found or not suspended")
	})
	fresh := e.instance() // a cold cache reads the pending status
	fresh.call(t, "GET", "/v1/test/whoami", apiKey, "").want(t, 401, "User account is not active")
}
