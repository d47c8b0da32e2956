package engine

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
	// Pruned: db-sync deletes spent outputs (tx_out.value prune or
	// bootstrap); only the UTxO set is whole.
	Pruned bool
	// NoOutputs: db-sync stores no outputs at all (tx_out.value disable):
	// transactions exist, tx_out is empty.
	NoOutputs bool
}

// DetectCapabilities inspects a db-sync database (catalog lookups and
// index-backed probes only; safe on mainnet size).
func DetectCapabilities(ctx context.Context, db *sqlx.DB) (Capabilities, error) {
	var row struct {
		HasAddressColumn    bool `db:"has_address_column"`
		HasAddressTable     bool `db:"has_address_table"`
		HasConsumedColumn   bool `db:"has_consumed_column"`
		TxInPopulated       bool `db:"tx_in_populated"`
		TxOutPopulated      bool `db:"tx_out_populated"`
		TxPopulated         bool `db:"tx_populated"`
		HasEpochSyncEnabled bool `db:"has_epoch_sync_enabled"`
		HasExtraMigrations  bool `db:"has_extra_migrations"`
	}
	if err := db.GetContext(ctx, &row, sqlCapabilities.Text); err != nil {
		return Capabilities{}, fmt.Errorf("detect capabilities (is this a db-sync database?): %w", Classify(err))
	}
	c := Capabilities{
		Variant:           "core",
		HasConsumedColumn: row.HasConsumedColumn,
		TxInPopulated:     row.TxInPopulated,
		NoOutputs:         row.TxPopulated && !row.TxOutPopulated,
	}
	if !row.HasAddressColumn && row.HasAddressTable {
		c.Variant = "address"
	}
	if row.HasConsumedColumn && row.HasExtraMigrations {
		var mode struct {
			Consumed bool `db:"consumed_populated"`
			Pruned   bool `db:"pruned"`
		}
		if err := db.GetContext(ctx, &mode, sqlConsumedPopulated.Text); err != nil {
			return Capabilities{}, fmt.Errorf("detect consumed mode: %w", Classify(err))
		}
		c.ConsumedPopulated, c.Pruned = mode.Consumed, mode.Pruned
	}
	if row.HasEpochSyncEnabled {
		if err := db.GetContext(ctx, &c.EpochViewEnabled, sqlEpochViewEnabled.Text); err != nil && err != sql.ErrNoRows {
			return Capabilities{}, fmt.Errorf("detect epoch view: %w", Classify(err))
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

// Keeps says whether this database holds the facts an answer needs: the
// UTxO set (outputs stored at all) or spent outputs too (not pruned).
func (c Capabilities) Keeps(f Facts) bool {
	switch f {
	case FactsUnspent:
		return !c.NoOutputs
	case FactsSpent:
		return !c.NoOutputs && !c.Pruned
	}
	return true
}

// Facts names what an endpoint reads of the outputs.
type Facts int

const (
	// FactsUnspent: the UTxO set (UTxOs, balances, live stake).
	FactsUnspent Facts = iota + 1
	// FactsSpent: spent outputs too (history, a transaction's inputs and
	// outputs, every address a stake key used).
	FactsSpent
)

// LayoutName names the db-sync layout for /v1/health and the logs: the
// statement layout, then "prune" (spent outputs deleted) or "disable" (no
// outputs) where that applies.
func (c Capabilities) LayoutName() string {
	switch {
	case c.NoOutputs:
		return "disable"
	case c.Pruned:
		name := "prune"
		if c.Variant == "address" {
			name += "+address"
		}
		return name
	}
	return c.Layout().String()
}

// Supported reports why this service cannot serve the database, or nil.
func (c Capabilities) Supported() error {
	if c.Variant != "core" && c.Variant != "address" {
		return fmt.Errorf("unknown db-sync tx_out layout %q", c.Variant)
	}
	return nil
}
