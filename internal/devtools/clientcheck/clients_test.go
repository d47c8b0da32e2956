// Package clientcheck_test runs the Blockfrost dialect's real JavaScript
// clients, unchanged, against a real syncgate over a moving chain:
// blockfrost-js calls every method of the dialect's routes and the
// answers are compared with SQL of the test's own (a route not served yet
// is reported, and checked once it is); Lucid Evolution and Mesh build,
// sign and submit payments from the demo wallet and wait for them as a
// wallet does, while a webhook watches the receivers; Mesh's provider
// also reads accounts, assets, a handle and a proposal, compared with SQL.
package clientcheck_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// TestClients builds one stack and runs the three clients on it in turn:
// blockfrost-js while the chain stands still (its answers and the test's
// SQL describe the same chain), then Lucid and Mesh while it moves.
func TestClients(t *testing.T) {
	s := startStack(t)
	// Lucid and Mesh load while blockfrost-js runs; each pays only once
	// the previous payment is in a block (they spend from one wallet).
	lucidPay, meshPay := s.payment(lucidReceiver, "Lucid Evolution"), s.payment(meshReceiver, "Mesh")
	lucid := startGated(t, "testdata/lucid_pay.mjs", map[string]string{"BF_URL": s.url(), "BF_KEY": s.key,
		"WALLET_SKEY": s.wallet.SigningKey, "PAY": mustJSON(lucidPay)})
	// Mesh makes its reads first, while the chain stands still.
	reads, readsDone := s.meshReads(t), filepath.Join(t.TempDir(), "reads-done")
	mesh := startGated(t, "testdata/mesh_pay.mjs", map[string]string{"BF_URL": s.keyURL(), "WALLET_ADDRESS": s.wallet.Address,
		"WALLET_SKEY_CBOR": s.wallet.SigningKeyCBORHex, "PAY": mustJSON(meshPay), "READS": mustJSON(reads), "READS_DONE": readsDone})

	submit := s.selfPayment(t)
	t.Run("blockfrost-js", func(t *testing.T) { testBlockfrostJS(t, s, submit) })
	mesh.waitFile(t, readsDone, 2*time.Minute)
	// The chain moves from here on: blockfrost-js's submission goes into
	// the next block.
	s.chain.resume()
	s.waitInBlock(t, submit.Hash, 30*time.Second)
	hook := s.watch(t, lucidReceiver, meshReceiver)
	t.Run("lucid", func(t *testing.T) {
		if served(t, lucidRoutes) {
			checkLucid(t, s, hook, lucidPay, lucid.run(t))
		}
	})
	t.Run("mesh", func(t *testing.T) {
		if served(t, meshRoutes) {
			out := mesh.run(t)
			checkMesh(t, s, hook, meshPay, out)
			var got struct{ Reads map[string]callResult }
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			t.Run("reads", func(t *testing.T) { checkMeshReads(t, s, reads, got.Reads) })
		}
	})
	s.chain.check(t)
}

// testBlockfrostJS runs every blockfrost-js method of the dialect and
// compares each answer with the test's SQL.
func testBlockfrostJS(t *testing.T, s *stack, submit submitTx) {
	in := s.bfInput(t, submit)
	calls := map[string]callResult{}
	runScript(t, "testdata/blockfrost_js.mjs", map[string]string{"BF_URL": s.url(), "BF_KEY": s.key, "BF_INPUT": mustJSON(in)}, &calls)
	if dump := os.Getenv("CLIENTCHECK_DUMP"); dump != "" {
		_ = os.WriteFile(dump, []byte(mustJSON(calls)), 0o644)
	}
	r := newResults(t, calls)
	checkMisc(t, s, r, in)
	checkChain(t, s, r, in)
	checkTxs(t, s, r, in)
	checkAddresses(t, s, r, in)
	checkScripts(t, s, r, in)
	checkAccounts(t, s, r, in)
	checkAssets(t, s, r, in)
	checkPools(t, s, r, in)
	checkGovernance(t, s, r, in)
	r.report()
}
