package dbsync

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// UTxOMode says how "unspent" is decided in this database.
type UTxOMode string

const (
	// ModeCore: tx_in is populated; unspent = no tx_in row on (tx_id, index).
	ModeCore UTxOMode = "core"
	// ModeConsumed: db-sync runs with tx_out.value = consumed (or prune/bootstrap);
	// unspent = consumed_by_tx_id IS NULL, and tx_in is usually empty.
	ModeConsumed UTxOMode = "consumed"
)

// Capabilities is what DetectCapabilities found.
type Capabilities struct {
	// Variant is "core" (tx_out.address column) or "address" (address table).
	Variant           string
	HasConsumedColumn bool
	ConsumedPopulated bool
	TxInPopulated     bool
	EpochViewEnabled  bool
	UTxOMode          UTxOMode
}

// DetectCapabilities inspects a db-sync database (catalog lookups and
// index-backed probes only; safe on mainnet size).
func DetectCapabilities(ctx context.Context, db *sqlx.DB) (Capabilities, error) {
	var row struct {
		HasAddressColumn    bool `db:"has_address_column"`
		HasAddressTable     bool `db:"has_address_table"`
		HasConsumedColumn   bool `db:"has_consumed_column"`
		TxInPopulated       bool `db:"tx_in_populated"`
		HasEpochSyncEnabled bool `db:"has_epoch_sync_enabled"`
		HasExtraMigrations  bool `db:"has_extra_migrations"`
	}
	if err := db.GetContext(ctx, &row, sqlCapabilities); err != nil {
		return Capabilities{}, fmt.Errorf("detect capabilities (is this a db-sync database?): %w", classify(err))
	}
	c := Capabilities{
		Variant:           "core",
		HasConsumedColumn: row.HasConsumedColumn,
		TxInPopulated:     row.TxInPopulated,
	}
	if !row.HasAddressColumn && row.HasAddressTable {
		c.Variant = "address"
	}
	if row.HasConsumedColumn && row.HasExtraMigrations {
		if err := db.GetContext(ctx, &c.ConsumedPopulated, sqlConsumedPopulated); err != nil {
			return Capabilities{}, fmt.Errorf("detect consumed mode: %w", classify(err))
		}
	}
	if row.HasEpochSyncEnabled {
		if err := db.GetContext(ctx, &c.EpochViewEnabled, sqlEpochViewEnabled); err != nil && err != sql.ErrNoRows {
			return Capabilities{}, fmt.Errorf("detect epoch view: %w", classify(err))
		}
	}
	// consumed_by_tx_id is authoritative when db-sync maintains it (tx_in may
	// then be empty); otherwise the tx_in anti-join is the only truth.
	c.UTxOMode = ModeCore
	if c.ConsumedPopulated {
		c.UTxOMode = ModeConsumed
	}
	return c, nil
}

// Layout is the statement layout this database is served with.
func (c Capabilities) Layout() Layout {
	return Layout{Consumed: c.UTxOMode == ModeConsumed, AddressTable: c.Variant == "address"}
}

// Supported reports why this service cannot serve the database, or nil.
func (c Capabilities) Supported() error {
	if c.Variant != "core" && c.Variant != "address" {
		return fmt.Errorf("unknown db-sync tx_out layout %q", c.Variant)
	}
	return nil
}
