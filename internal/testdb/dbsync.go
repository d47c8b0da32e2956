package testdb

import (
	"context"
	"fmt"
	"time"

	"github.com/syncgate/syncgate/internal/chaingen"
)

// DBSync creates a database, seeds a small deterministic chain in the given
// mode and returns its URL, the generator's manifest and a drop function.
// Meant for TestMain: the database is read-only for the tests, so they can
// share it and run in parallel. Same seed in both modes, so answers can be
// compared across modes.
func DBSync(mode chaingen.Mode, txs int) (dsn string, m *chaingen.Manifest, drop func(), err error) {
	dsn, drop, err = Create("sg_test_dbsync_" + string(mode))
	if err != nil {
		return "", nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	m, err = chaingen.Seed(ctx, dsn, chaingen.Options{Txs: txs, Seed: 42, Mode: mode, TipTime: FixedTipTime})
	if err != nil {
		drop()
		return "", nil, nil, fmt.Errorf("seed %s: %w", mode, err)
	}
	return dsn, m, drop, nil
}

// FixedTipTime pins the generated chain's newest block in tests, so both
// modes (and every run) describe the same chain.
var FixedTipTime = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
