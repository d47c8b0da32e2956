package cli

import (
	"context"
	"crypto/ed25519"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/fxamacker/cbor/v2"
	"golang.org/x/crypto/blake2b"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/node"
)

// TestSeedFollowNodeSocket: `seed --follow --node-socket` funds the demo
// wallet (named in the manifest, its key file written), serves the demo
// node there, and a payment from the wallet submitted to it over syncgate's
// node client is in a block a moment later.
func TestSeedFollowNodeSocket(t *testing.T) {
	testdb.RequireServices(t)
	t.Chdir(t.TempDir()) // the key file lands here
	dsn, drop, err := testdb.Create("sg_test_seed_node")
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	if err := Seed(t.Context(), []string{"--db", dsn, "--manifest", "manifest.json", "--txs", "2500"}); err != nil {
		t.Fatal(err)
	}
	if err := Seed(t.Context(), []string{"--db", dsn, "--node-socket", "x.socket"}); err == nil {
		t.Fatal("--node-socket without --follow was accepted")
	}
	dir, err := os.MkdirTemp("", "sgseed")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "node.socket")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Seed(ctx, []string{"--db", dsn, "--manifest", "manifest.json", "--follow", "200ms", "--rollback-every", "0",
			"--node-socket", sock})
	}()
	mainnet, _ := cardano.NetworkByName("mainnet")
	pool := node.NewMempool(map[string]string{"mainnet": sock}, node.MempoolOptions{})
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := pool.Snapshot(ctx, mainnet); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the demo node never answered: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	m, err := chaingen.ReadManifest("manifest.json")
	if err != nil || m.DemoWallet == nil || m.DemoWallet.UTxOs != 6 {
		t.Fatalf("manifest's demo wallet: %+v (%v)", m, err)
	}
	skey, err := os.ReadFile(demoSkeyFile)
	if err != nil || !strings.Contains(string(skey), `"cborHex": "`+m.DemoWallet.SigningKeyCBORHex+`"`) {
		t.Fatalf("key file: %s (%v)", skey, err)
	}

	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	raw, hash := demoSelfPayment(t, db, m.DemoWallet.Address)
	tx, err := node.DecodeTx(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := node.NewSubmitter(map[string]string{"mainnet": sock}, node.Options{}).Submit(ctx, mainnet, tx.EraID, raw); err != nil {
		t.Fatalf("submit: %v", err)
	}
	h, _ := hex.DecodeString(hash)
	for {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM tx WHERE hash = $1`, h).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the submitted transaction never reached a block")
		}
		select {
		case err := <-done: // the follower stopped before writing it
			t.Fatalf("seed --follow stopped before the submitted transaction reached a block: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// demoSelfPayment is the demo wallet paying its biggest output to itself,
// signed with its key, at the chain's minimum fee.
func demoSelfPayment(t *testing.T, db *sql.DB, addr string) ([]byte, string) {
	t.Helper()
	var txHash []byte
	var index, value uint64
	err := db.QueryRow(`SELECT t.hash, o.index, o.value::bigint FROM tx_out o JOIN tx t ON t.id = o.tx_id
	  WHERE o.address = $1 AND NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)
	  ORDER BY o.value DESC LIMIT 1`, addr).Scan(&txHash, &index, &value)
	if err != nil {
		t.Fatal(err)
	}
	a, err := common.NewAddress(addr)
	if err != nil {
		t.Fatal(err)
	}
	ab, _ := a.Bytes()
	key := chaingen.DemoWalletKey()
	em, _ := cbor.CoreDetEncOptions().EncMode()
	build := func(fee uint64) ([]byte, string) {
		body, _ := em.Marshal(map[uint64]any{0: cbor.Tag{Number: 258, Content: []any{[]any{txHash, index}}},
			1: []any{map[uint64]any{0: ab, 1: value - fee}}, 2: fee})
		h := blake2b.Sum256(body)
		wit := map[uint64]any{0: []any{[]any{[]byte(key.Public().(ed25519.PublicKey)), ed25519.Sign(key, h[:])}}}
		raw, _ := em.Marshal([]any{cbor.RawMessage(body), wit, true, nil})
		return raw, hex.EncodeToString(h[:])
	}
	raw, _ := build(200_000)
	return build(44*uint64(len(raw)) + 155381)
}

// The banner shows the wallet, the node and the JavaScript clients'
// settings.
func TestDemoClientBanner(t *testing.T) {
	w := chaingen.NewDemoWallet()
	w.UTxOs = 6
	d := &demoNode{wallet: w, socket: "/tmp/x.socket"}
	got := demoClientBanner("http://127.0.0.1:8080", admin.DemoAccess{APIKey: "sg_test_key"}, d, 5*time.Second)
	for _, want := range []string{
		`new BlockFrostAPI({ projectId: "sg_test_key", customBackend: "http://127.0.0.1:8080/api/v0" })`,
		`new BlockfrostProvider("http://127.0.0.1:8080/key/sg_test_key/api/v0")`,
		w.Address, w.SigningKey, w.SigningKeyCBORHex, "/tmp/x.socket",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("banner lacks %q:\n%s", want, got)
		}
	}
}
