package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/syncgate/syncgate/internal/chaingen"
	"github.com/syncgate/syncgate/internal/pgdb"
)

// runSeed writes a synthetic db-sync chain (and optionally its manifest).
func runSeed(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	dbURL := fs.String("db", "", "target database URL (required)")
	txs := fs.Int("txs", 50_000, "number of transactions")
	seed := fs.Int64("seed", 1, "random seed (same seed, same chain)")
	mode := fs.String("mode", "core", "core (tx_in filled) or consumed (tx_out.consumed_by_tx_id filled)")
	manifest := fs.String("manifest", "manifest.json", "where to write the manifest of notable entities")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dbURL == "" {
		return errors.New("seed: --db is required")
	}
	if *mode != string(chaingen.ModeCore) && *mode != string(chaingen.ModeConsumed) {
		return fmt.Errorf("seed: --mode must be core or consumed, not %q", *mode)
	}
	if *txs < 1 {
		return errors.New("seed: --txs must be positive")
	}
	if err := pgdb.EnsureDatabase(ctx, *dbURL); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	start := time.Now()
	m, err := chaingen.Seed(ctx, *dbURL, chaingen.Options{
		Txs: *txs, Seed: *seed, Mode: chaingen.Mode(*mode),
		Logf:     func(f string, a ...any) { fmt.Printf(f+"\n", a...) },
		Progress: newProgress(os.Stderr, "seed", time.Now).report,
	})
	if err != nil {
		return err
	}
	if *manifest != "" {
		if err := m.WriteFile(*manifest); err != nil {
			return err
		}
	}
	fmt.Printf("seeded %d transactions in %s; manifest: %s\n", *txs, time.Since(start).Round(time.Second), *manifest)
	return nil
}
