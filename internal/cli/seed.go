package cli

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/platform/pgdb"
)

// Seed writes a synthetic db-sync chain (and optionally its manifest).
func Seed(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	dbURL := fs.String("db", "", "target database URL (required)")
	txs := fs.Int("txs", 50_000, "number of transactions")
	seed := fs.Int64("seed", 1, "random seed (same seed, same chain)")
	variant := fs.String("variant", "", "db-sync layout: core, consumed, prune, bootstrap, disable (tx_out.value), "+
		"address (core with tx_out.use_address_table) or address+<mode>; default core")
	mode := fs.String("mode", "", "tx_out.value alone (core, consumed, prune, bootstrap, disable); older spelling of --variant")
	addressTable := fs.Bool("address-table", false, "add tx_out.use_address_table to the variant (same as address+<mode>)")
	schema := fs.String("schema", "13.7", "db-sync schema release: 13.7 (epoch view) or 13.6 (epoch table)")
	manifest := fs.String("manifest", "manifest.json", "where to write the manifest of notable entities")
	follow := fs.Duration("follow", 0, "after seeding (or on an already seeded database), keep appending a block every this long, "+
		"with traffic to the manifest's addresses and occasional rollbacks of 1-3 blocks, until interrupted (0: off)")
	rollbackEvery := fs.Int("rollback-every", 50, "with --follow: roll back 1-3 blocks after every this many blocks (0: never)")
	nodeSocket := fs.String("node-socket", "", "with --follow: fund the demo wallet and run a demo cardano-node on this unix socket, "+
		"whose accepted transactions open the next block (give it to syncgate as NODE_SOCKET_MAINNET)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dbURL == "" {
		return errors.New("seed: --db is required")
	}
	v, err := seedVariant(*variant, *mode, *addressTable, *schema)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	if *txs < 1 {
		return errors.New("seed: --txs must be positive")
	}
	if *follow < 0 {
		return errors.New("seed: --follow must not be negative")
	}
	if *nodeSocket != "" && *follow == 0 {
		return errors.New("seed: --node-socket needs --follow (the chain must move to take transactions)")
	}
	fc := followConfig{every: *follow, rollbackEvery: *rollbackEvery, seed: *seed, socket: *nodeSocket, manifest: *manifest}
	if *follow > 0 && seeded(ctx, *dbURL) {
		// An existing chain: its manifest, when there is one, names the
		// addresses the traffic uses (else the newest outputs' addresses).
		m, _ := chaingen.ReadManifest(*manifest)
		return followChain(ctx, *dbURL, m, fc)
	}
	if err := pgdb.EnsureDatabase(ctx, *dbURL); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	start := time.Now()
	status := newStatusLine(os.Stdout, time.Now)
	m, err := chaingen.Seed(ctx, *dbURL, chaingen.Options{
		Txs: *txs, Seed: *seed, Mode: v.Mode, AddressTable: v.AddressTable, Schema: v.Schema,
		Logf: status.logf, Progress: status.progress,
	})
	status.done()
	if err != nil {
		return err
	}
	if *manifest != "" {
		if err := m.WriteFile(*manifest); err != nil {
			return err
		}
	}
	fmt.Printf("seeded %d transactions (%s) in %s; manifest: %s\n", *txs, v, time.Since(start).Round(time.Second), *manifest)
	if *follow > 0 {
		return followChain(ctx, *dbURL, m, fc)
	}
	return nil
}

// seeded reports whether dbURL already holds a chain (a block table with
// rows), so --follow can move an existing database without seeding again.
func seeded(ctx context.Context, dbURL string) bool {
	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		return false
	}
	defer db.Close()
	var n int
	return db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM block LIMIT 1) b`).Scan(&n) == nil && n > 0
}

// followConfig is what --follow and its companions ask for.
type followConfig struct {
	every         time.Duration
	rollbackEvery int
	seed          int64
	socket        string // the demo node's socket ("": none)
	manifest      string // where the manifest goes
}

// followChain appends blocks to the chain at dbURL until ctx ends, the
// way db-sync does while it follows a node (chaingen.Follow), printing a
// line per block and rollback. With a socket it first funds the demo
// wallet and starts the demo node, whose transactions open each block.
func followChain(ctx context.Context, dbURL string, m *chaingen.Manifest, fc followConfig) error {
	opts := chaingen.FollowOptions{Interval: fc.every, RollbackEvery: fc.rollbackEvery, Seed: fc.seed, Manifest: m,
		Report: printFollowEvent}
	if fc.socket != "" {
		dn, err := startDemoNode(ctx, dbURL, fc.socket, m)
		if err != nil {
			return fmt.Errorf("seed: %w", err)
		}
		defer dn.Close()
		if m != nil && fc.manifest != "" {
			if err := m.WriteFile(fc.manifest); err != nil {
				return err
			}
		}
		printDemoNode(dn)
		opts.Submitted = dn.node.Mempool()
	}
	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	defer db.Close()
	fmt.Printf("following: a block every %s (Ctrl-C stops)\n", fc.every)
	err = chaingen.Follow(ctx, db, opts)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// seedVariant combines --variant, its older spelling --mode (a tx_out.value
// alone), --address-table and --schema into one layout. --variant and
// --mode may both be given only when they agree.
func seedVariant(variant, mode string, addressTable bool, schema string) (chaingen.Variant, error) {
	if strings.Contains(variant+mode, "@") {
		return chaingen.Variant{}, errors.New("give the schema with --schema, not in the variant")
	}
	var fromMode chaingen.Mode
	if mode != "" {
		m, err := chaingen.ParseVariant(mode)
		if err != nil || m.AddressTable {
			return chaingen.Variant{}, fmt.Errorf("--mode must be core, consumed, prune, bootstrap or disable, not %q", mode)
		}
		fromMode = m.Mode
	}
	name := variant
	if name == "" {
		name = string(fromMode)
	}
	if name == "" {
		name = string(chaingen.ModeCore)
	}
	v, err := chaingen.ParseVariant(name + "@" + schema)
	if err != nil {
		return chaingen.Variant{}, err
	}
	if fromMode != "" && v.Mode != fromMode {
		return chaingen.Variant{}, fmt.Errorf("--mode %s contradicts --variant %s", mode, variant)
	}
	v.AddressTable = v.AddressTable || addressTable
	return v, nil
}

// printFollowEvent prints one line per block appended or rolled back.
func printFollowEvent(e chaingen.FollowEvent) {
	switch e.Kind {
	case chaingen.BlockAppended:
		epoch := ""
		if e.EpochStart {
			epoch = " (first of its epoch)"
		}
		fmt.Printf("block %d slot %d epoch %d %s: %d transactions%s\n", e.Block.BlockNo, e.Block.Slot, e.Block.Epoch, e.Block.Hash, len(e.Txs), epoch)
	default:
		fmt.Printf("rolled back %d blocks; tip now block %d %s\n", len(e.Removed), e.Block.BlockNo, e.Block.Hash)
	}
}
