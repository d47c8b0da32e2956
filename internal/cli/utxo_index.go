package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/internal/service/utxoindex"
)

// UTxOIndex builds syncgate's unspent-output index in a core-mode
// db-sync database to within its lag of the tip (resuming where a previous
// run stopped), printing each step; with --follow it then keeps it
// current until interrupted, as `syncgate serve` does.
func UTxOIndex(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("utxo-index", flag.ContinueOnError)
	dbURL := fs.String("db", "", "db-sync database URL, writable (required)")
	follow := fs.Bool("follow", false, "keep the index current after catching up, until interrupted")
	o := utxoindex.DefaultOptions()
	fs.IntVar(&o.Batch, "batch", o.Batch, "transactions per step (one transaction each)")
	fs.IntVar(&o.Lag, "lag", o.Lag, "blocks below the tip the index stops at")
	// The same default as serve's, so a run beside a service keeping
	// every spend does not sweep them.
	keepDefault := os.Getenv("UTXO_INDEX_KEEP_BLOCKS")
	if keepDefault == "" {
		keepDefault = strconv.Itoa(config.MinKeepBlocks)
	}
	keep := fs.String("keep-blocks", keepDefault, "blocks spends stay marked (history pages read them), or all (default: UTXO_INDEX_KEEP_BLOCKS, else 2160)")
	quiet := fs.Bool("quiet", false, "print only the summary")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var err error
	if o.Keep, err = config.ParseKeepBlocks(*keep); err != nil {
		return fmt.Errorf("utxo-index: --keep-blocks: %w", err)
	}
	if o.Keep < 0 {
		o.Keep = utxoindex.KeepAll
	}
	if *dbURL == "" {
		return errors.New("utxo-index: --db is required")
	}
	db, err := sqlx.Open("postgres", *dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	x, err := utxoindex.New(ctx, db, o)
	if errors.Is(err, utxoindex.ErrNotNeeded) {
		fmt.Println("utxo-index: this db-sync records spends in tx_out (consumed, prune or bootstrap); no index needed")
		return nil
	}
	if err != nil {
		return err
	}
	start := time.Now()
	var steps int
	res, err := x.CatchUp(ctx, func(r utxoindex.StepResult) {
		steps++
		if !*quiet {
			fmt.Printf("%s: tx %d -> %d of %d (+%d outputs, %d deleted, %d marked, %d swept, %d unmarked) in %s\n",
				r.Action, r.From, r.To, r.Target, r.Inserted, r.Deleted, r.Marked, r.Swept, r.Unmarked, r.Duration.Round(time.Millisecond))
		}
	})
	if err != nil {
		return fmt.Errorf("utxo-index: %w", err)
	}
	fmt.Printf("utxo-index: at tx %d after %d steps in %s\n", res.To, steps, time.Since(start).Round(time.Millisecond))
	if !*follow {
		return nil
	}
	t := time.NewTicker(utxoindex.DefaultPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if _, err := x.CatchUp(ctx, nil); err != nil && ctx.Err() == nil {
			fmt.Println("utxo-index:", err)
		}
	}
}
