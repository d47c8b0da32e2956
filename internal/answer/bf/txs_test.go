package bf

import (
	"slices"
	"testing"
)

// A /utxos answer watches the addresses of its outputs not spent yet
// (collateral outputs never are); one it cannot read is not answered.
func TestUnspentAddresses(t *testing.T) {
	body := []byte(`{"hash":"h","inputs":[{"address":"addr_in","collateral":false}],"outputs":[
		{"address":"addr_a","collateral":false,"consumed_by_tx":null},
		{"address":"addr_b","collateral":false,"consumed_by_tx":"abcd"},
		{"address":"addr_c","collateral":true,"consumed_by_tx":null},
		{"address":"addr_d","collateral":false}]}` + "\n")
	if got, ok := unspentAddresses(body); !ok || !slices.Equal(got, []string{"addr_a", "addr_d"}) {
		t.Errorf("watched %v %v, want addr_a and addr_d", got, ok)
	}
	if got, ok := unspentAddresses([]byte(`{"hash":"h","inputs":[],"outputs":[{"address":"x","consumed_by_tx":"ef"}]}`)); !ok || len(got) != 0 {
		t.Errorf("every output spent: watched %v %v, want none", got, ok)
	}
	for _, bad := range []string{``, `[`, `{"outputs":{}}`, `"text"`} {
		if _, ok := unspentAddresses([]byte(bad)); ok {
			t.Errorf("%q read", bad)
		}
	}
}
