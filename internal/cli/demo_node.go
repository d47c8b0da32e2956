package cli

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/node/demonode"
)

// demoNode is the demo's cardano-node over a synthetic chain, and the
// funded wallet whose transactions it takes.
type demoNode struct {
	node   *demonode.Node
	ledger *dbsync.DB
	wallet *chaingen.DemoWallet
	socket string
}

// defaultDemoSocket is where the demo node listens unless told otherwise
// (short: unix socket paths are limited to about 108 bytes).
func defaultDemoSocket() string {
	return filepath.Join(os.TempDir(), "syncgate-demo", "node.socket")
}

// demoSkeyFile is where the demo writes the wallet's cardano-cli key file.
const demoSkeyFile = "demo-wallet.skey"

// startDemoNode funds the demo wallet on the chain at dbURL when it holds
// nothing (naming it in m when m is not nil), writes its key file and
// starts the demo node on socket. Call it before the chain follower starts.
func startDemoNode(ctx context.Context, dbURL, socket string, m *chaingen.Manifest) (*demoNode, error) {
	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		return nil, err
	}
	w, err := chaingen.FundDemoWallet(ctx, db, m)
	db.Close()
	if err != nil {
		return nil, fmt.Errorf("demo wallet: %w", err)
	}
	if err := os.WriteFile(demoSkeyFile, w.SkeyFile(), 0o600); err != nil {
		return nil, fmt.Errorf("demo wallet: %w", err)
	}
	mainnet, _ := cardano.NetworkByName("mainnet")
	ledger, err := dbsync.Open(ctx, config.NetworkConfig{Network: mainnet, DBSyncURL: dbURL}, 30*time.Second)
	if err != nil {
		return nil, fmt.Errorf("demo node: %w", err)
	}
	n, err := demonode.Listen(ctx, socket, demonode.Options{Network: mainnet, Ledger: ledger,
		Log: slog.New(slog.NewTextHandler(os.Stderr, nil))})
	if err != nil {
		ledger.Close()
		return nil, err
	}
	return &demoNode{node: n, ledger: ledger, wallet: w, socket: socket}, nil
}

// Close stops the node.
func (d *demoNode) Close() {
	d.node.Close()
	d.ledger.Close()
}

// describe says where the node and the wallet are.
func (d *demoNode) describe() string {
	w := d.wallet
	return fmt.Sprintf(`  demo node (cardano-node's LocalTxSubmission and LocalTxMonitor): %[1]s
  demo wallet (its key is public: for this demo chain only, never send it real funds):
    address:      %[2]s  (%[3]d unspent outputs: ADA and %[4]s)
    signing key:  %[5]s
                  cardano-cli's form: %[6]s (cborHex %[7]s)
`, d.socket, w.Address, w.UTxOs, w.Token.Unit, w.SigningKey, demoSkeyFile, w.SigningKeyCBORHex)
}

// demoClientBanner is the banner's part about the demo node and wallet and
// the JavaScript clients (Blockfrost's API under /api/v0).
func demoClientBanner(base string, access admin.DemoAccess, d *demoNode, blockEvery time.Duration) string {
	confirm := "the next block (every " + blockEvery.String() + ") confirms them"
	if blockEvery <= 0 {
		confirm = "with a static chain (--block-every 0) nothing confirms them"
	}
	return d.describe() + fmt.Sprintf(`  transactions signed with it and submitted to syncgate wait in the node's mempool; %[4]s:
  curl -H 'Authorization: Bearer %[2]s' %[1]s/v1/utxos/address/%[3]s
  curl -H 'Authorization: Bearer %[2]s' %[1]s/v1/mempool

  blockfrost-js:
    const api = new BlockFrostAPI({ projectId: "%[2]s", customBackend: "%[1]s/api/v0" });
  Lucid Evolution:
    const lucid = await Lucid(new Blockfrost("%[1]s/api/v0", "%[2]s"), "Mainnet");
    lucid.selectWallet.fromPrivateKey("%[5]s");
  Mesh (the key in the path):
    const provider = new BlockfrostProvider("%[1]s/key/%[2]s/api/v0");
`, base, access.APIKey, d.wallet.Address, confirm, d.wallet.SigningKey)
}

// printDemoNode is what `syncgate seed --follow --node-socket` prints.
func printDemoNode(d *demoNode) {
	fmt.Print(d.describe())
	fmt.Printf("  point syncgate at it with NODE_SOCKET_MAINNET=%s\n", d.socket)
}
