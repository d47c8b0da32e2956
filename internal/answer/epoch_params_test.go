package answer

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
)

// TestCostModelsJSON: cost_models is db-sync's value as stored;
// cost_models_raw has every language as an array, named costs (older
// db-sync versions) in the order of their names, languages in name order.
func TestCostModelsJSON(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		stored         *string
		wantNamed, raw string
	}{
		{nil, `null`, `null`},
		{str(`null`), `null`, `null`},
		{str(`{"PlutusV2": [4, 5], "PlutusV1": [1, 2, 3]}`), `{"PlutusV2": [4, 5], "PlutusV1": [1, 2, 3]}`, `{"PlutusV1":[1, 2, 3],"PlutusV2":[4, 5]}`},
		{str(`{"PlutusV1": {"b-slope": 2, "a-intercept": 1, "c": 30000000000}}`), `{"PlutusV1": {"b-slope": 2, "a-intercept": 1, "c": 30000000000}}`, `{"PlutusV1":[1,2,30000000000]}`},
		{str(`{}`), `{}`, `{}`},
	} {
		named, raw, err := costModelsJSON(tc.stored)
		if err != nil || string(named) != tc.wantNamed || string(raw) != tc.raw {
			t.Errorf("%v: %s %s %v, want %s %s", tc.stored, named, raw, err, tc.wantNamed, tc.raw)
		}
	}
	if _, _, err := costModelsJSON(str(`[1,2]`)); err == nil {
		t.Error("a cost model that is not an object by language was accepted")
	}
}

// TestEpochParamsJSON: Blockfrost's names and types, min_utxo and
// coins_per_utxo_word from coins_per_utxo_size once it exists, both names
// of the security-group threshold, nulls for an era's missing parameters.
func TestEpochParamsJSON(t *testing.T) {
	u, f := func(s string) *string { return &s }, func(v float64) *float64 { return &v }
	shelley := dbsync.EpochParams{Epoch: 210, MinFeeA: 44, MinFeeB: 155381, KeyDeposit: "2000000", MinUTxOValue: "1000000",
		Influence: 0.3, PriceStep: nil}
	conway := shelley
	conway.Epoch, conway.MinUTxOValue, conway.CoinsPerUTxOSize = 530, "0", u("4310")
	conway.PriceStep, conway.PvtPPSecurityGroup, conway.DRepDeposit = f(0.0000721), f(0.51), u("500000000")
	conway.CostModels = u(`{"PlutusV3": [1]}`)
	for _, tc := range []struct {
		p    dbsync.EpochParams
		want map[string]string // field → its JSON
	}{
		{shelley, map[string]string{"epoch": `210`, "min_fee_a": `44`, "key_deposit": `"2000000"`, "min_utxo": `"1000000"`,
			"a0": `0.3`, "coins_per_utxo_size": `null`, "coins_per_utxo_word": `null`, "price_step": `null`,
			"cost_models": `null`, "cost_models_raw": `null`, "pvtpp_security_group": `null`, "drep_deposit": `null`}},
		{conway, map[string]string{"min_utxo": `"4310"`, "coins_per_utxo_size": `"4310"`, "coins_per_utxo_word": `"4310"`,
			"price_step": `0.0000721`, "pvtpp_security_group": `0.51`, "pvt_p_p_security_group": `0.51`,
			"drep_deposit": `"500000000"`, "cost_models": `{"PlutusV3":[1]}`, "cost_models_raw": `{"PlutusV3":[1]}`}},
	} {
		b, err := epochParamsJSON(tc.p, false)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(string(b), "\n") {
			t.Error("the data ends in a newline")
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != 56 {
			t.Errorf("epoch %d: %d fields, want Blockfrost's 56", tc.p.Epoch, len(got))
		}
		for k, w := range tc.want {
			if string(got[k]) != w {
				t.Errorf("epoch %d: %s = %s, want %s", tc.p.Epoch, k, got[k], w)
			}
		}
	}
}

// TestNamedCostModels: each cost under its parameter's name in the
// ledger's order, costs beyond the known names under their position,
// languages in name order.
func TestNamedCostModels(t *testing.T) {
	v1 := make([]string, 167)
	for i := range v1 {
		v1[i] = strconv.Itoa(i * 10)
	}
	raw := `{"PlutusV9":[7],"PlutusV1":[` + strings.Join(v1, ",") + `]}`
	got, err := namedCostModels(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	var named map[string]map[string]json.Number
	if err := json.Unmarshal(got, &named); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if len(named["PlutusV1"]) != 167 || named["PlutusV1"]["addInteger-cpu-arguments-intercept"] != "0" ||
		named["PlutusV1"]["verifyEd25519Signature-memory-arguments"] != "1650" || named["PlutusV1"]["166"] != "1660" ||
		named["PlutusV9"]["0"] != "7" {
		t.Fatalf("named cost models: %s", got)
	}
	if !strings.HasPrefix(string(got), `{"PlutusV1":{"addInteger-cpu-arguments-intercept":0,"addInteger-cpu-arguments-slope":10,`) {
		t.Fatalf("not in the ledger's order: %.120s", got)
	}
	if got, err := namedCostModels(json.RawMessage(`null`)); err != nil || string(got) != "null" {
		t.Fatalf("null: %s %v", got, err)
	}
}
