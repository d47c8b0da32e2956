package sqlfiles

import (
	"strings"
	"testing"
)

// Compose expands a shared fragment in place and leaves no template
// action behind; a file without actions comes back unchanged.
func TestCompose(t *testing.T) {
	got := Compose("admin/credential.sql")
	for _, want := range []string{"SELECT\n  c.id,", "JOIN syncgate.admin_keys k ON k.id = c.admin_key_id\nWHERE c.id = $1"} {
		if !strings.Contains(got, want) {
			t.Errorf("composed credential.sql lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "{{") {
		t.Errorf("template action left:\n%s", got)
	}
	if plain := Must("admin/revoke_credential.sql"); Compose("admin/revoke_credential.sql") != plain {
		t.Error("a file without actions changed")
	}
}
