package testdb

import (
	"context"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// DBSync creates a database, seeds a small deterministic chain in the given
// tx_out mode (13.7 schema, no address table) and returns its URL, the
// generator's manifest and a drop function. Meant for TestMain: the
// database is read-only for the tests, so they can share it and run in
// parallel. Same seed in every mode, so answers can be compared across
// modes.
func DBSync(mode chaingen.Mode, txs int) (dsn string, m *chaingen.Manifest, drop func(), err error) {
	return DBSyncVariant(chaingen.Variant{Mode: mode}, txs)
}

// DBSyncVariant is DBSync for any db-sync layout (chaingen.Variants lists
// one per layout a test matrix should cover). The chain is the same in
// every layout; only what the layout keeps of it differs.
func DBSyncVariant(v chaingen.Variant, txs int) (dsn string, m *chaingen.Manifest, drop func(), err error) {
	dsn, drop, err = Create("sg_test_dbsync_" + dbNamePart(v.String()))
	if err != nil {
		return "", nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	m, err = chaingen.Seed(ctx, dsn, chaingen.Options{Txs: txs, Seed: 42, Mode: v.Mode, AddressTable: v.AddressTable,
		Schema: v.Schema, TipTime: FixedTipTime})
	if err != nil {
		drop()
		return "", nil, nil, fmt.Errorf("seed %s: %w", v, err)
	}
	return dsn, m, drop, nil
}

// dbNamePart makes a variant name ("address+consumed@13.6") usable in a
// database name.
func dbNamePart(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// FixedTipTime pins the generated chain's newest block in tests, so every
// layout (and every run) describes the same chain.
var FixedTipTime = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// OpenDBSync opens a seeded db-sync database as the service does, served
// as mainnet with a 30 s statement timeout (the tests' usual setup).
func OpenDBSync(dsn string) (*dbsync.DB, error) {
	return OpenDBSyncWith(dsn, dbsync.Options{})
}

// OpenDBSyncWith is OpenDBSync with options (a test's knobs); the
// statement timeout is 30 s unless o sets one.
func OpenDBSyncWith(dsn string, o dbsync.Options) (*dbsync.DB, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	mainnet, _ := cardano.NetworkByName("mainnet")
	if o.StatementTimeout == 0 {
		o.StatementTimeout = 30 * time.Second
	}
	return dbsync.OpenWith(ctx, config.NetworkConfig{Network: mainnet, DBSyncURL: dsn}, o)
}

// MustOpenDBSync is OpenDBSync for one test: closed when it ends. Skips
// under -short.
func MustOpenDBSync(t testing.TB, dsn string) *dbsync.DB {
	t.Helper()
	return MustOpenDBSyncWith(t, dsn, dbsync.Options{})
}

// MustOpenDBSyncWith is OpenDBSyncWith for one test: closed when it ends.
func MustOpenDBSyncWith(t testing.TB, dsn string, o dbsync.Options) *dbsync.DB {
	t.Helper()
	SkipShort(t)
	db, err := OpenDBSyncWith(dsn, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}
