package cardano

import "testing"

// TestGenesis: the figures Blockfrost's /genesis and /network/eras report
// for the served networks (mainnet's from its genesis files).
func TestGenesis(t *testing.T) {
	mainnet, _ := NetworkByName("mainnet")
	g := mainnet.Genesis()
	if g.SecurityParam != 2160 || g.ByronEpochLength() != 21600 || g.ByronSafeZone() != 4320 || g.SafeZone() != 129600 ||
		g.MaxLovelaceSupply != "45000000000000000" || g.SlotsPerKESPeriod != 129600 || g.MaxKESEvolutions != 62 {
		t.Fatalf("mainnet genesis: %+v", g)
	}
	// A Byron epoch lasts as long as a Shelley one (10k slots of 20 s,
	// k/f slots of 1 s): Blockfrost's epoch times rely on it.
	for _, n := range Networks {
		g := n.Genesis()
		if g.ByronEpochLength()*g.ByronSlotLength != n.EpochLength*g.SlotLength {
			t.Errorf("%s: Byron epoch %d s, Shelley epoch %d s", n.Name, g.ByronEpochLength()*g.ByronSlotLength, n.EpochLength)
		}
	}
	preview, _ := NetworkByName("preview")
	if s := preview.Genesis().SafeZone(); s != 25920 {
		t.Fatalf("preview safe zone %d", s)
	}
}

// TestCostModelNames: each language's names, as many as the parameters
// deployed on mainnet, none twice, and the ledger's order at the places
// where the languages' lists differ.
func TestCostModelNames(t *testing.T) {
	for lang, want := range map[string]struct {
		n     int
		index map[int]string
	}{
		"PlutusV1": {166, map[int]string{0: "addInteger-cpu-arguments-intercept", 165: "verifyEd25519Signature-memory-arguments"}},
		"PlutusV2": {185, map[int]string{133: "serialiseData-cpu-arguments-intercept", 174: "verifySchnorrSecp256k1Signature-memory-arguments",
			175: "integerToByteString-cpu-arguments-c0"}},
		"PlutusV3": {297, map[int]string{50: "divideInteger-cpu-arguments-model-arguments-c00", 193: "cekConstrCost-exBudgetCPU",
			250: "byteStringToInteger-memory-arguments-slope", 251: "andByteString-cpu-arguments-intercept", 296: "ripemd_160-memory-arguments"}},
	} {
		names := CostModelNames(lang)
		if len(names) != want.n {
			t.Errorf("%s: %d names, want %d", lang, len(names), want.n)
		}
		seen := map[string]bool{}
		for _, n := range names {
			if seen[n] {
				t.Errorf("%s: %s twice", lang, n)
			}
			seen[n] = true
		}
		for i, n := range want.index {
			if i >= len(names) || names[i] != n {
				t.Errorf("%s[%d] is not %s", lang, i, n)
			}
		}
	}
	if CostModelNames("PlutusV9") != nil {
		t.Error("names of an unknown language")
	}
}
