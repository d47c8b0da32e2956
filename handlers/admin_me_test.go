package handlers

import (
	"slices"
	"testing"

	"github.com/syncgate/syncgate/admin"
)

// TestAdminMe: each key learns its own identity and permissions; bad keys
// get the usual 401s.
func TestAdminMe(t *testing.T) {
	e := newAdminEnv(t)
	in := e.instance()
	id, key := e.adminKey(in, "Partner A", admin.PermViewUsage, admin.PermManageUsers)
	type me struct {
		ID          string   `json:"id"`
		PartnerID   string   `json:"partner_id"`
		Name        string   `json:"admin_entity_name"`
		Permissions []string `json:"permissions"`
		Bootstrap   bool     `json:"bootstrap"`
	}
	var m me
	in.call(t, "GET", "/v1/admin/me", key, "").want(t, 200, "").into(t, &m)
	var partner string
	if err := e.db.Get(&partner, `SELECT partner_id::text FROM syncgate.admin_keys WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	slices.Sort(m.Permissions)
	if m.ID != id || m.PartnerID != partner || m.Name != "Partner A" || m.Bootstrap ||
		!slices.Equal(m.Permissions, []string{admin.PermManageUsers, admin.PermViewUsage}) {
		t.Errorf("partner key: %+v (id %s, partner %s)", m, id, partner)
	}
	m = me{}
	in.call(t, "GET", "/v1/admin/me", testBootstrapKey, "").want(t, 200, "").into(t, &m)
	if !m.Bootstrap || m.ID != admin.BootstrapKeyID.String() || m.Permissions == nil || len(m.Permissions) != 0 {
		t.Errorf("bootstrap key: %+v", m)
	}
	in.call(t, "GET", "/v1/admin/me", "", "").want(t, 401, "Missing or malformed Authorization header")
	in.call(t, "GET", "/v1/admin/me", "sga1_"+"ab"+"0000000000000000000000000000000000000000000000", "").want(t, 401, "Invalid API key")
	in.call(t, "DELETE", "/v1/admin/keys/"+id, testBootstrapKey, "").want(t, 200, "")
	in.call(t, "GET", "/v1/admin/me", key, "").want(t, 401, "Invalid API key")
}
