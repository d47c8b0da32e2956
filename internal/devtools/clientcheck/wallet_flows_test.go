package clientcheck_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/devtools/jsclients"
)

// The receivers of the wallet flows: CIP-19's test vectors (an enterprise
// and a base address of one payment key), on no generated chain.
const (
	lucidReceiver = "addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8"
	meshReceiver  = "addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x"
)

// payment is what a wallet flow pays its receiver (PAY).
type payment struct {
	To       string `json:"to"`
	Lovelace string `json:"lovelace"`
	Unit     string `json:"unit"` // policy id and asset name, hex
	Quantity string `json:"quantity"`
	Message  string `json:"message"`
}

func (s *stack) payment(to, client string) payment {
	return payment{To: to, Lovelace: "3000000", Unit: strings.Replace(s.wallet.Token.Unit, ".", "", 1), Quantity: "25",
		Message: "syncgate clientcheck: paid by " + client}
}

// checkPaid checks, with the test's SQL and syncgate's own routes, that
// the payment's transaction is in a block, pays the receiver the lovelace
// and the token, carries the message, is in_block for /v1/tx/status, and
// was pushed to the webhook watching the receiver.
func checkPaid(t *testing.T, s *stack, hook *webhook, hash string, pay payment) {
	t.Helper()
	s.waitInBlock(t, hash, 10*time.Second)
	var out struct {
		Value  string
		Tokens string
		Spent  bool
	}
	s.sql(t, &out, `SELECT o.value::text AS value,
		COALESCE((SELECT sum(mo.quantity)::text FROM ma_tx_out mo JOIN multi_asset a ON a.id = mo.ident
		  WHERE mo.tx_out_id = o.id AND encode(a.policy, 'hex') || encode(a.name, 'hex') = $3), '0') AS tokens,
		EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index) AS spent
		FROM tx_out o JOIN tx ON tx.id = o.tx_id WHERE tx.hash = decode($1, 'hex') AND o.address = $2`, hash, pay.To, pay.Unit)
	eq(t, "the receiver's output: lovelace", out.Value, pay.Lovelace)
	eq(t, "the receiver's output: tokens", out.Tokens, pay.Quantity)
	eq(t, "the receiver's output: unspent", out.Spent, false)
	var msg string
	s.sql(t, &msg, `SELECT json::text FROM tx_metadata WHERE key = 674 AND tx_id = (SELECT id FROM tx WHERE hash = decode($1, 'hex'))`, hash)
	if !sameJSON([]byte(msg), []byte(mustJSON(map[string]any{"msg": []string{pay.Message}}))) {
		t.Errorf("label 674 of %s: %s", hash, msg)
	}

	status, raw := s.do(t, "GET", "/v1/tx/status/"+hash, s.key, "")
	var st struct {
		Data struct{ Status string }
	}
	if status != http.StatusOK || json.Unmarshal(raw, &st) != nil || st.Data.Status != "in_block" {
		t.Errorf("/v1/tx/status/%s: %d %s", hash, status, raw)
	}

	ev := hook.confirmed(t, hash, 30*time.Second)
	if len(ev.Items) != 1 || ev.Items[0].Value != pay.To || ev.Items[0].Received.Lovelace != pay.Lovelace ||
		len(ev.Items[0].Received.Assets) != 1 || ev.Items[0].Received.Assets[0].Unit != pay.Unit ||
		ev.Items[0].Received.Assets[0].Quantity != pay.Quantity {
		t.Errorf("tx.confirmed for %s: %s", hash, mustJSON(ev))
	}
}

// The routes each wallet flow reads (the provider sources in jsclients'
// node_modules).
var (
	lucidRoutes = []string{"GET /epochs/latest/parameters", "GET /addresses/{address}/utxos", "POST /tx/submit", "GET /txs/{hash}/cbor"}
	meshRoutes  = []string{"GET /epochs/latest/parameters", "GET /addresses/{address}/utxos", "POST /tx/submit", "GET /txs/{hash}",
		"GET /txs/{hash}/utxos", "GET /blocks/{hash_or_number}"}
)

// served reports whether every route a flow needs is served; it logs the
// missing ones (their family has not merged yet).
func served(t *testing.T, routes []string) bool {
	t.Helper()
	table := servedRoutes()
	var missing []string
	for _, r := range routes {
		if !table[routeShape(r)] {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		t.Logf("not run: routes not served yet: %s", strings.Join(missing, ", "))
	}
	return len(missing) == 0
}

// checkLucid: Lucid Evolution paid the receiver from the demo wallet and
// awaited the transaction as a dapp does.
func checkLucid(t *testing.T, s *stack, hook *webhook, pay payment, out []byte) {
	var got struct {
		From   string
		Params struct {
			MinFeeA          int64   `json:"minFeeA"`
			MinFeeB          int64   `json:"minFeeB"`
			MaxTxSize        int64   `json:"maxTxSize"`
			KeyDeposit       numText `json:"keyDeposit"`
			DRepDeposit      numText `json:"drepDeposit"`
			CoinsPerUTxOByte numText `json:"coinsPerUtxoByte"`
			CostModels       map[string]json.RawMessage
		}
		Hash      string
		Confirmed bool
		Before    []json.RawMessage
		After     []struct {
			TxHash      string            `json:"txHash"`
			OutputIndex int               `json:"outputIndex"`
			Assets      map[string]string `json:"assets"`
		}
		MS map[string]int64
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("lucid_pay.mjs printed %s: %v", out, err)
	}
	t.Logf("Lucid: built and submitted in %d ms, awaited in %d ms", got.MS["build"], got.MS["await"])
	eq(t, "Lucid's wallet address", got.From, s.wallet.Address)
	p := s.latestParams(t)
	eq(t, "Lucid's minFeeA", got.Params.MinFeeA, p.MinFeeA)
	eq(t, "Lucid's minFeeB", got.Params.MinFeeB, p.MinFeeB)
	eq(t, "Lucid's maxTxSize", got.Params.MaxTxSize, p.MaxTxSize)
	eq(t, "Lucid's keyDeposit", string(got.Params.KeyDeposit), p.KeyDeposit)
	eq(t, "Lucid's drepDeposit", string(got.Params.DRepDeposit), p.DRepDeposit)
	eq(t, "Lucid's coinsPerUtxoByte", string(got.Params.CoinsPerUTxOByte), p.CoinsPerUTxOSize)
	if len(got.Params.CostModels) < 3 {
		t.Errorf("Lucid's cost models: %v", got.Params.CostModels)
	}
	if !got.Confirmed || len(got.Before) != 0 {
		t.Errorf("Lucid: confirmed %v, the receiver held %d UTxOs before", got.Confirmed, len(got.Before))
	}
	found := false
	for _, u := range got.After {
		if u.TxHash == got.Hash {
			found = u.Assets["lovelace"] == pay.Lovelace && u.Assets[pay.Unit] == pay.Quantity
		}
	}
	if !found {
		t.Errorf("Lucid's utxosAt(receiver) after awaitTx: %+v, want %s's output of %s lovelace and %s %s",
			got.After, got.Hash, pay.Lovelace, pay.Quantity, pay.Unit)
	}
	checkPaid(t, s, hook, got.Hash, pay)
}

// gated is a node script started early: it loads its packages (what
// takes longest), then waits for its gate file before it reads the chain
// (GATE), so the test can run it after another client spends from the
// same wallet.
type gated struct {
	name     string
	gate     string
	done     chan gatedResult
	finished chan struct{} // closed when the script ended
}

type gatedResult struct {
	out []byte
	err error
	ran time.Duration
}

func startGated(t *testing.T, script string, env map[string]string) *gated {
	g := &gated{name: script, gate: filepath.Join(t.TempDir(), "go"), done: make(chan gatedResult, 1), finished: make(chan struct{})}
	env["GATE"] = g.gate
	go func() {
		start := time.Now()
		out, err := jsclients.Run(t, t.Context(), script, env)
		g.done <- gatedResult{out, err, time.Since(start)}
		close(g.finished)
	}()
	return g
}

// run opens the gate and returns what the script printed once it ends.
func (g *gated) run(t *testing.T) []byte {
	t.Helper()
	if err := os.WriteFile(g.gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := <-g.done
	t.Logf("%s ran in %s (loading from the start)", g.name, r.ran.Round(time.Millisecond))
	if r.err != nil {
		t.Fatalf("%v\nstdout: %s", r.err, r.out)
	}
	return r.out
}

// checkMesh: Mesh paid the receiver from the demo wallet and saw
// onTxConfirmed fire.
func checkMesh(t *testing.T, s *stack, hook *webhook, pay payment, out []byte) {
	var got struct {
		WalletUTxOs int `json:"walletUtxos"`
		Params      struct {
			MinFeeA          int64   `json:"minFeeA"`
			MinFeeB          int64   `json:"minFeeB"`
			KeyDeposit       numText `json:"keyDeposit"`
			CoinsPerUTxOSize numText `json:"coinsPerUtxoSize"`
		}
		Hash      string
		Confirmed bool
		After     []struct {
			Input struct {
				TxHash      string `json:"txHash"`
				OutputIndex int    `json:"outputIndex"`
			}
			Output struct {
				Address string
				Amount  []amount
			}
		}
		Info struct {
			Hash  string
			Block string
		}
		MS map[string]int64
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("mesh_pay.mjs printed %s: %v", out, err)
	}
	t.Logf("Mesh: built and submitted in %d ms, confirmed in %d ms", got.MS["build"], got.MS["await"])
	p := s.latestParams(t)
	eq(t, "Mesh's minFeeA", got.Params.MinFeeA, p.MinFeeA)
	eq(t, "Mesh's minFeeB", got.Params.MinFeeB, p.MinFeeB)
	eq(t, "Mesh's keyDeposit", string(got.Params.KeyDeposit), p.KeyDeposit)
	eq(t, "Mesh's coinsPerUtxoSize (Blockfrost's coins_per_utxo_word)", string(got.Params.CoinsPerUTxOSize), p.CoinsPerUTxOSize)
	if got.WalletUTxOs == 0 || !got.Confirmed || got.Info.Hash != got.Hash {
		t.Errorf("Mesh: %d wallet UTxOs, confirmed %v, fetchTxInfo %+v", got.WalletUTxOs, got.Confirmed, got.Info)
	}
	found := false
	for _, u := range got.After {
		if u.Input.TxHash == got.Hash {
			found = amountKey(u.Output.Amount) == amountKey([]amount{{"lovelace", pay.Lovelace}, {pay.Unit, pay.Quantity}})
		}
	}
	if !found {
		t.Errorf("Mesh's fetchAddressUTxOs(receiver) after onTxConfirmed: %s, want %s's output", mustJSON(got.After), got.Hash)
	}
	var block string
	s.sql(t, &block, `SELECT encode(b.hash, 'hex') FROM tx JOIN block b ON b.id = tx.block_id WHERE tx.hash = decode($1, 'hex')`, got.Hash)
	eq(t, "Mesh's fetchTxInfo block", got.Info.Block, block)
	checkPaid(t, s, hook, got.Hash, pay)
}

// params are the current epoch's parameters a wallet reads.
type params struct {
	MinFeeA, MinFeeB, MaxTxSize               int64
	KeyDeposit, DRepDeposit, CoinsPerUTxOSize string
}

func (s *stack) latestParams(t *testing.T) params {
	t.Helper()
	var p params
	s.sql(t, &p, `SELECT min_fee_a AS minfeea, min_fee_b AS minfeeb, max_tx_size AS maxtxsize, key_deposit::text AS keydeposit,
		COALESCE(drep_deposit::text, '') AS drepdeposit, coins_per_utxo_size::text AS coinsperutxosize
		FROM epoch_param ORDER BY epoch_no DESC LIMIT 1`)
	return p
}

// numText is a quantity a client printed as a JSON number or string.
type numText string

func (n *numText) UnmarshalJSON(b []byte) error {
	*n = numText(strings.Trim(string(b), `"`))
	return nil
}
