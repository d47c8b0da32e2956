package demonode_test

import (
	"crypto/ed25519"
	"database/sql"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	_ "github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/demonode"
)

var mainnet, _ = cardano.NetworkByName("mainnet")

// demoChain is a seeded chain with the demo wallet funded, a demo node
// over it and a follower taking the node's mempool.
type demoChain struct {
	db       *sql.DB
	manifest *chaingen.Manifest
	wallet   *chaingen.DemoWallet
	key      ed25519.PrivateKey
	node     *demonode.Node
	follower *chaingen.Follower
	submit   *node.Submitter
	policy   [28]byte
	// addrTable: tx_out names its address through the address table.
	addrTable bool
}

// newDemoChain seeds a fresh chain in layout v (chaingen creates every
// db-sync relation, tx_cbor and extra_key_witness included, so the
// follower writes a submitted transaction's CBOR and signers).
func newDemoChain(t *testing.T, v chaingen.Variant) *demoChain {
	t.Helper()
	testdb.RequireServices(t)
	dsn, m, drop, err := testdb.DBSyncVariant(v, 2500)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := t.Context()
	w, err := chaingen.FundDemoWallet(ctx, db, m)
	if err != nil {
		t.Fatal(err)
	}
	ledgerDB := testdb.MustOpenDBSync(t, dsn)
	dir, err := os.MkdirTemp("", "sgdemo") // unix socket paths are short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "node.socket")
	n, err := demonode.Listen(ctx, sock, demonode.Options{Network: mainnet, Ledger: ledgerDB})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	f, err := chaingen.NewFollower(ctx, db, chaingen.FollowOptions{Manifest: m, Submitted: n.Mempool(),
		SlotsPerBlock: 20, TxsPerBlock: 1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	unit, _ := hex.DecodeString(strings.Replace(w.Token.Unit, ".", "", 1))
	return &demoChain{db: db, manifest: m, wallet: w, key: chaingen.DemoWalletKey(), node: n, follower: f,
		submit: node.NewSubmitter(map[string]string{"mainnet": sock}, node.Options{}), policy: [28]byte(unit[:28]),
		addrTable: v.AddressTable}
}

// coin is an unspent output of an address, read with the test's own SQL.
type coin struct {
	in     demonode.Input
	value  uint64
	tokens uint64 // the demo token
}

func (c *demoChain) coins(t *testing.T, addr string) []coin {
	t.Helper()
	where := "o.address = $1"
	if c.addrTable {
		where = "o.address_id = (SELECT id FROM address WHERE address = $1)"
	}
	rows, err := c.db.QueryContext(t.Context(), `
SELECT t.hash, o.index, o.value::bigint,
       COALESCE((SELECT sum(m.quantity) FROM ma_tx_out m JOIN multi_asset a ON a.id = m.ident
                 WHERE m.tx_out_id = o.id AND a.name = 'SGDEMO'), 0)::bigint
FROM tx_out o JOIN tx t ON t.id = o.tx_id
WHERE `+where+`
  AND NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)
  AND o.consumed_by_tx_id IS NULL
ORDER BY o.value DESC`, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []coin
	for rows.Next() {
		var c coin
		var h []byte
		if err := rows.Scan(&h, &c.in.Index, &c.value, &c.tokens); err != nil {
			t.Fatal(err)
		}
		c.in.TxHash = [32]byte(h)
		out = append(out, c)
	}
	return out
}

// tipSlot is the chain's newest slot.
func (c *demoChain) tipSlot(t *testing.T) uint64 {
	t.Helper()
	var s uint64
	if err := c.db.QueryRowContext(t.Context(), `SELECT max(slot_no) FROM block`).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// send submits through syncgate's own node client, as /v1 submit does.
func (c *demoChain) send(t *testing.T, raw []byte) error {
	t.Helper()
	tx, err := node.DecodeTx(raw)
	if err != nil {
		t.Fatalf("syncgate cannot decode the test transaction: %v", err)
	}
	return c.submit.Submit(t.Context(), mainnet, tx.EraID, raw)
}

// block appends the follower's next block.
func (c *demoChain) block(t *testing.T) chaingen.FollowEvent {
	t.Helper()
	ev, err := c.follower.AppendBlock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// newBaseAddress is a base address of fresh keys: a receiver the chain has
// never seen, whose stake credential has no stake_address row yet.
func newBaseAddress(t *testing.T, seed string) (addr string, pay, stakeRaw []byte) {
	t.Helper()
	p := common.Blake2b224Hash([]byte(seed + " payment"))
	s := common.Blake2b224Hash([]byte(seed + " stake"))
	a, err := common.NewAddressFromParts(common.AddressTypeKeyKey, common.AddressNetworkMainnet, p[:], s[:])
	if err != nil {
		t.Fatal(err)
	}
	return a.String(), p[:], append([]byte{0xe1}, s[:]...)
}

// rejection is the readable reason syncgate's node client got.
func rejection(t *testing.T, err error) string {
	t.Helper()
	var rej *node.RejectedError
	if !errors.As(err, &rej) {
		t.Fatalf("want a rejection, got %v", err)
	}
	return rej.Reason
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
