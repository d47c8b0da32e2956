package cli

import (
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// seed's layout flags: --variant, the older --mode, --address-table and
// --schema combine into one variant; contradictions are refused.
func TestSeedVariantFlags(t *testing.T) {
	for _, c := range []struct {
		variant, mode string
		address       bool
		schema, want  string
	}{
		{"", "", false, "13.7", "core"},
		{"", "consumed", false, "13.7", "consumed"},
		{"consumed", "consumed", false, "13.7", "consumed"},
		{"address", "", false, "13.7", "address"},
		{"address+consumed", "consumed", false, "13.7", "address+consumed"},
		{"prune", "", true, "13.7", "address+prune"},
		{"", "bootstrap", true, "13.6", "address+bootstrap@13.6"},
		{"disable", "", false, "13.6", "disable@13.6"},
	} {
		v, err := seedVariant(c.variant, c.mode, c.address, c.schema)
		if err != nil || v.String() != c.want {
			t.Errorf("%+v: %v, %v; want %s", c, v, err, c.want)
		}
	}
	for _, c := range []struct {
		variant, mode, schema string
	}{
		{"consumed", "core", "13.7"},   // contradiction
		{"", "address", "13.7"},        // --mode is a tx_out.value only
		{"", "enable", "13.7"},         // db-sync's word for core is not ours
		{"core@13.6", "", "13.7"},      // the schema has its own flag
		{"core", "", "13.5"},           // unknown release
		{"address+core+x", "", "13.7"}, // not a variant
	} {
		if v, err := seedVariant(c.variant, c.mode, false, c.schema); err == nil {
			t.Errorf("%+v accepted as %s", c, v)
		}
	}
	if v, _ := seedVariant("", "", false, "13.7"); v != (chaingen.Variant{Mode: chaingen.ModeCore, Schema: chaingen.Schema137}) {
		t.Errorf("default %+v", v)
	}
}
