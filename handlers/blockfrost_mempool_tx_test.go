package handlers

import (
	"encoding/hex"
	"encoding/json"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/blake2b"

	"github.com/syncgate/syncgate/node"
)

// bfMempoolTx is mempool_tx_content, decoded.
type bfMempoolTx struct {
	Tx struct {
		Hash         string `json:"hash"`
		OutputAmount []struct {
			Unit     string `json:"unit"`
			Quantity string `json:"quantity"`
		} `json:"output_amount"`
		Fees, Deposit        string
		Size                 int
		InvalidBefore        *string `json:"invalid_before"`
		InvalidHereafter     *string `json:"invalid_hereafter"`
		UTxOCount            int     `json:"utxo_count"`
		WithdrawalCount      int     `json:"withdrawal_count"`
		MIRCertCount         int     `json:"mir_cert_count"`
		DelegationCount      int     `json:"delegation_count"`
		StakeCertCount       int     `json:"stake_cert_count"`
		PoolUpdateCount      int     `json:"pool_update_count"`
		PoolRetireCount      int     `json:"pool_retire_count"`
		AssetMintOrBurnCount int     `json:"asset_mint_or_burn_count"`
		RedeemerCount        int     `json:"redeemer_count"`
		ValidContract        bool    `json:"valid_contract"`
	} `json:"tx"`
	Inputs []struct {
		Address     *string `json:"address"`
		TxHash      string  `json:"tx_hash"`
		OutputIndex uint32  `json:"output_index"`
		Collateral  bool    `json:"collateral"`
		Reference   bool    `json:"reference"`
	} `json:"inputs"`
	Outputs []struct {
		Address string `json:"address"`
		Amount  []struct {
			Unit     string `json:"unit"`
			Quantity string `json:"quantity"`
		} `json:"amount"`
		OutputIndex         uint32  `json:"output_index"`
		DataHash            *string `json:"data_hash"`
		InlineDatum         *string `json:"inline_datum"`
		Collateral          bool    `json:"collateral"`
		ReferenceScriptHash *string `json:"reference_script_hash"`
	} `json:"outputs"`
	Redeemers []struct {
		TxIndex   uint32 `json:"tx_index"`
		Purpose   string `json:"purpose"`
		UnitMem   string `json:"unit_mem"`
		UnitSteps string `json:"unit_steps"`
	} `json:"redeemers"`
}

// txFields are mempool_tx_content's tx fields, all required.
var txFields = []string{"hash", "output_amount", "fees", "deposit", "size", "invalid_before", "invalid_hereafter",
	"utxo_count", "withdrawal_count", "mir_cert_count", "delegation_count", "stake_cert_count", "pool_update_count",
	"pool_retire_count", "asset_mint_or_burn_count", "redeemer_count", "valid_contract"}

// mempoolTxOf asks for one transaction and checks the answer's fields
// are exactly the schema's.
func mempoolTxOf(t *testing.T, h http.Handler, hash string) bfMempoolTx {
	t.Helper()
	var shape struct {
		Tx map[string]json.RawMessage `json:"tx"`
	}
	bfJSON(t, h, "/mempool/"+hash, &shape)
	var keys []string
	for k := range shape.Tx {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := slices.Sorted(slices.Values(txFields)); !slices.Equal(keys, want) {
		t.Errorf("%s: tx fields %v, want %v", hash, keys, want)
	}
	var tx bfMempoolTx
	bfJSON(t, h, "/mempool/"+hash, &tx)
	if tx.Tx.Hash != hash {
		t.Errorf("asked %s, answered %s", hash, tx.Tx.Hash)
	}
	return tx
}

func blake(size int, b []byte) string {
	d, _ := blake2b.New(size, nil)
	d.Write(b)
	return hex.EncodeToString(d.Sum(nil))
}

func TestBlockfrostMempoolTx(t *testing.T) {
	for _, c := range seededChains(t) {
		w := newMempoolWorld(t, c)
		h, _ := bfMempoolServer(t, c.db, w.all...)
		t.Run(string(c.mode), func(t *testing.T) {
			aHash, bHash, cHash := w.hashes[len(w.hashes)-3], w.hashes[len(w.hashes)-2], w.hashes[len(w.hashes)-1]

			// a: inputs, collateral and reference input from the chain; a
			// balance the deposit follows from.
			a := mempoolTxOf(t, h, aHash)
			in := big.NewInt(w.x[0].Lovelace + w.x[1].Lovelace)
			deposit := in.Add(in, big.NewInt(3_000_000-6_234_567-200_000-1_000))
			body := a.Tx
			if body.Fees != "200000" || body.Deposit != deposit.String() || body.Size != len(w.all[len(w.all)-3]) ||
				ptrText(body.InvalidBefore) != "0" || ptrText(body.InvalidHereafter) != "200000000" || body.UTxOCount != 4 ||
				body.WithdrawalCount != 1 || body.MIRCertCount != 0 || body.DelegationCount != 2 || body.StakeCertCount != 3 ||
				body.PoolUpdateCount != 0 || body.PoolRetireCount != 0 || body.AssetMintOrBurnCount != 0 || body.RedeemerCount != 2 ||
				!body.ValidContract {
				t.Errorf("a: %+v (deposit want %s)", body, deposit)
			}
			if len(body.OutputAmount) != 2 || body.OutputAmount[0] != struct {
				Unit     string `json:"unit"`
				Quantity string `json:"quantity"`
			}{"lovelace", "6234567"} || body.OutputAmount[1].Unit != strings.Repeat("ab", 28)+"746f6b" || body.OutputAmount[1].Quantity != "7" {
				t.Errorf("a output amount %+v", body.OutputAmount)
			}
			wantIns := []struct {
				addr              string
				ref               node.Input
				collateral, refIn bool
			}{{w.x[0].Address, w.x[0].input(), false, false}, {w.x[1].Address, w.x[1].input(), false, false},
				{w.yOut.Address, w.yOut.input(), true, false}, {w.zOut.Address, w.zOut.input(), false, true}}
			if len(a.Inputs) != len(wantIns) {
				t.Fatalf("a inputs %+v", a.Inputs)
			}
			for i, wi := range wantIns {
				got := a.Inputs[i]
				if ptrText(got.Address) != wi.addr || got.TxHash != wi.ref.TxHash || got.OutputIndex != wi.ref.Index ||
					got.Collateral != wi.collateral || got.Reference != wi.refIn {
					t.Errorf("a input %d: %+v, want %+v", i, got, wi)
				}
			}
			if len(a.Outputs) != 3 {
				t.Fatalf("a outputs %+v", a.Outputs)
			}
			o0, o1, cr := a.Outputs[0], a.Outputs[1], a.Outputs[2]
			if o0.Address != w.y || o0.OutputIndex != 0 || len(o0.Amount) != 2 || o0.Amount[0].Quantity != "5000000" ||
				ptrText(o0.InlineDatum) != "182a" || ptrText(o0.DataHash) != blake(32, []byte{0x18, 0x2a}) ||
				ptrText(o0.ReferenceScriptHash) != blake(28, []byte{0x00, 0x82, 0x01, 0x80}) || o0.Collateral {
				t.Errorf("a output 0: %+v", o0)
			}
			if o1.Address != w.z || o1.OutputIndex != 1 || len(o1.Amount) != 1 || o1.Amount[0].Quantity != "1234567" ||
				o1.DataHash != nil || o1.InlineDatum != nil || o1.ReferenceScriptHash != nil || o1.Collateral {
				t.Errorf("a output 1: %+v", o1)
			}
			if cr.Address != w.x[0].Address || cr.OutputIndex != 2 || !cr.Collateral || cr.Amount[0].Quantity != "1000000" {
				t.Errorf("a collateral return: %+v", cr)
			}
			if len(a.Redeemers) != 2 || a.Redeemers[0].Purpose != "spend" || a.Redeemers[1].Purpose != "mint" ||
				a.Redeemers[0].UnitMem != "1000" || a.Redeemers[1].UnitSteps != "200001" || a.Redeemers[1].TxIndex != 0 {
				t.Errorf("a redeemers %+v", a.Redeemers)
			}

			// b: one input from a (the mempool), one nobody knows, so the
			// deposit is what its certificates say: a key registration at
			// the chain's key deposit, a Conway deregistration, a DRep
			// leaving and another coming, a registered pool's update.
			b := mempoolTxOf(t, h, bHash)
			wantDeposit := new(big.Int).Sub(w.keyDeposit, big.NewInt(2_000_000))
			if b.Tx.Deposit != wantDeposit.String() || b.Tx.Fees != "170000" || b.Tx.InvalidBefore != nil || b.Tx.InvalidHereafter != nil ||
				b.Tx.StakeCertCount != 2 || b.Tx.DelegationCount != 0 || b.Tx.PoolUpdateCount != 1 || b.Tx.UTxOCount != 3 {
				t.Errorf("b: %+v (deposit want %s)", b.Tx, wantDeposit)
			}
			if len(b.Inputs) != 2 || ptrText(b.Inputs[0].Address) != w.y || b.Inputs[0].TxHash != aHash || b.Inputs[1].Address != nil {
				t.Errorf("b inputs %+v", b.Inputs)
			}
			raw := bfGet(t, h, mainnetKey, "/mempool/"+bHash).Body
			if n := strings.Count(string(raw), `"address"`); n != 2 { // one input, one output
				t.Errorf("b: %d addresses in %s (an unknown input's is left out)", n, raw)
			}

			// c: a script expected to fail pays no deposit.
			cTx := mempoolTxOf(t, h, cHash)
			if cTx.Tx.ValidContract || cTx.Tx.Deposit != "0" || len(cTx.Inputs) != 2 || !cTx.Inputs[1].Collateral ||
				ptrText(cTx.Inputs[1].Address) != w.y || cTx.Inputs[0].Address != nil {
				t.Errorf("c: %+v", cTx)
			}
			mempoolVectorFacts(t, h, w)
		})
	}
}

// mempoolVectorFacts checks the real transactions (none of whose inputs
// the seeded chain holds) against what their CBOR and their vectors say.
func mempoolVectorFacts(t *testing.T, h http.Handler, w mempoolWorld) {
	t.Helper()
	byID := map[string]*node.Tx{}
	for _, v := range loadSubmitVectors(t).Vectors {
		for _, tx := range w.vectors {
			if tx.Hash == v.TxHash {
				byID[v.ID] = tx
			}
		}
	}
	for id, tx := range byID {
		got := mempoolTxOf(t, h, tx.Hash)
		dec := decodedVector(t, tx)
		sum := new(big.Int)
		for _, o := range dec.Outputs {
			sum.Add(sum, o.Lovelace)
		}
		if got.Tx.Size != len(tx.CBOR) || got.Tx.UTxOCount != len(tx.Inputs)+len(dec.Outputs) ||
			got.Tx.OutputAmount[0].Quantity != sum.String() || len(got.Inputs) < len(tx.Inputs) {
			t.Errorf("%s: %+v", id, got.Tx)
		}
		for _, in := range got.Inputs {
			if in.Address != nil {
				t.Errorf("%s: input %s#%d has an address no one holds", id, in.TxHash, in.OutputIndex)
			}
		}
	}
	check := func(id string, ok func(bfMempoolTx) bool) {
		if got := mempoolTxOf(t, h, byID[id].Hash); !ok(got) {
			t.Errorf("%s: %+v", id, got)
		}
	}
	check("pallas-mary2", func(g bfMempoolTx) bool { // a new pool and a delegation
		return g.Tx.Deposit == w.poolDep.String() && g.Tx.PoolUpdateCount == 1 && g.Tx.DelegationCount == 1 && g.Tx.StakeCertCount == 0
	})
	check("pallas-mary3", func(g bfMempoolTx) bool { // a key registered and delegated
		return g.Tx.Deposit == w.keyDeposit.String() && g.Tx.StakeCertCount == 1 && g.Tx.DelegationCount == 1
	})
	check("pallas-mary1", func(g bfMempoolTx) bool { return g.Tx.AssetMintOrBurnCount == 1 && g.Tx.Deposit == "0" })
	check("pallas-allegra1", func(g bfMempoolTx) bool { return g.Tx.MIRCertCount == 1 && g.Tx.Deposit == "0" })
	check("pallas-alonzo2", func(g bfMempoolTx) bool {
		return ptrText(g.Tx.InvalidBefore) == "58924382" && ptrText(g.Tx.InvalidHereafter) == "58927082" && g.Tx.Fees == "824079" &&
			len(g.Redeemers) == 1 && g.Redeemers[0].Purpose == "spend" && g.Redeemers[0].TxIndex == 1 &&
			g.Redeemers[0].UnitMem == "4649576" && g.Redeemers[0].UnitSteps == "1765246504" && g.Inputs[len(g.Inputs)-1].Collateral
	})
	check("blockfrost-1a43e381a072", func(g bfMempoolTx) bool {
		refs := 0
		for _, in := range g.Inputs {
			if in.Reference {
				refs++
			}
		}
		last := g.Outputs[len(g.Outputs)-1]
		return refs == 4 && len(g.Outputs) == 3 && last.Collateral && last.OutputIndex == 2 &&
			ptrText(g.Outputs[0].InlineDatum) == "9f0000000000ff" && ptrText(g.Outputs[0].DataHash) == blake(32, mustHex(t, "9f0000000000ff"))
	})
	check("blockfrost-6aa2246eed20", func(g bfMempoolTx) bool { return ptrText(g.Tx.InvalidBefore) == "0" })
	check("blockfrost-e1157373ab32", func(g bfMempoolTx) bool { return g.Tx.InvalidHereafter == nil && g.Tx.InvalidBefore == nil })
	check("pallas-shelley1", func(g bfMempoolTx) bool {
		return g.Tx.Fees == "168449" && ptrText(g.Tx.InvalidHereafter) == "5288520" && g.Tx.ValidContract && len(g.Redeemers) == 0
	})
}

func ptrText(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
