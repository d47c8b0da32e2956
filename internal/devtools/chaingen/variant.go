package chaingen

import (
	"fmt"
	"strings"
)

// Mode is db-sync's tx_out.value option: how, and whether, outputs and
// spends are stored.
type Mode string

const (
	// ModeCore (db-sync's "enable") fills tx_in and leaves
	// tx_out.consumed_by_tx_id NULL.
	ModeCore Mode = "core"
	// ModeConsumed fills tx_out.consumed_by_tx_id and leaves tx_in empty.
	ModeConsumed Mode = "consumed"
	// ModePrune is consumed plus db-sync's periodic delete of outputs
	// spent more than 2k blocks before the prune run (their ma_tx_out rows
	// go with them through the foreign key prune mode adds).
	ModePrune Mode = "prune"
	// ModeBootstrap leaves tx_out and ma_tx_out empty while syncing and
	// loads the UTxO set from the ledger at the tip: only unspent outputs,
	// numbered in ledger (tx hash, index) order. tx.fee is 0 and
	// redeemer.script_hash NULL, as db-sync leaves them.
	ModeBootstrap Mode = "bootstrap"
	// ModeDisable stores no tx_in, tx_out or ma_tx_out at all; tx.fee is 0
	// and redeemer.script_hash NULL.
	ModeDisable Mode = "disable"
)

// Modes lists every tx_out.value the generator writes.
var Modes = []Mode{ModeCore, ModeConsumed, ModePrune, ModeBootstrap, ModeDisable}

// fillsConsumed: db-sync maintains tx_out.consumed_by_tx_id (and skips
// tx_in) in these modes.
func (m Mode) fillsConsumed() bool {
	return m == ModeConsumed || m == ModePrune || m == ModeBootstrap
}

// prunes: spent outputs are deleted (bootstrap never inserts them).
func (m Mode) prunes() bool { return m == ModePrune || m == ModeBootstrap }

// inOutDisabled: db-sync's "disInOut" state, in which it writes tx.fee = 0
// and no redeemer.script_hash (bootstrap is in it until the tip).
func (m Mode) inOutDisabled() bool { return m == ModeBootstrap || m == ModeDisable }

// Schema is the db-sync schema release line the tables follow.
type Schema string

const (
	// Schema137 is 13.7.2.1: epoch is a view over epoch_finalized and
	// epoch_current, switched by epoch_sync_enabled.
	Schema137 Schema = "13.7"
	// Schema136 is 13.6.0.x (schema up to migration-2-0044): epoch is a
	// table, one row per epoch including the current one.
	Schema136 Schema = "13.6"
)

// Variant names one database layout: db-sync's tx_out.value, whether
// tx_out.use_address_table is set, and the schema release.
type Variant struct {
	Mode         Mode   `json:"mode"`
	AddressTable bool   `json:"address_table"`
	Schema       Schema `json:"schema"`
}

// String names the variant the way ParseVariant reads it: the mode
// ("core", "consumed", …), "address" for core with the address table,
// "address+<mode>" for another mode with it, and "@13.6" after any of
// them on the 13.6 schema.
func (v Variant) String() string {
	v = v.normal()
	s := string(v.Mode)
	if v.AddressTable {
		s = "address"
		if v.Mode != ModeCore {
			s += "+" + string(v.Mode)
		}
	}
	if v.Schema != Schema137 {
		s += "@" + string(v.Schema)
	}
	return s
}

// normal fills the defaults: core mode, schema 13.7.
func (v Variant) normal() Variant {
	if v.Mode == "" {
		v.Mode = ModeCore
	}
	if v.Schema == "" {
		v.Schema = Schema137
	}
	return v
}

// valid reports an unknown mode or schema.
func (v Variant) valid() error {
	v = v.normal()
	known := false
	for _, m := range Modes {
		known = known || m == v.Mode
	}
	if !known {
		return fmt.Errorf("unknown mode %q (core, consumed, prune, bootstrap or disable)", v.Mode)
	}
	if v.Schema != Schema137 && v.Schema != Schema136 {
		return fmt.Errorf("unknown schema %q (13.7 or 13.6)", v.Schema)
	}
	return nil
}

// ParseVariant reads a variant name: "core", "consumed", "prune",
// "bootstrap", "disable", "address" (core with the address table),
// "address+consumed" (or "consumed+address") and the like, each optionally
// followed by "@13.6" or "@13.7".
func ParseVariant(name string) (Variant, error) {
	var v Variant
	base, schema, hasSchema := strings.Cut(strings.TrimSpace(name), "@")
	if hasSchema {
		if schema == "" {
			return Variant{}, fmt.Errorf("variant %q: no schema after @", name)
		}
		v.Schema = Schema(schema)
	}
	for _, part := range strings.Split(base, "+") {
		switch {
		case part == "address" && !v.AddressTable:
			v.AddressTable = true
		case part != "address" && part != "" && v.Mode == "":
			v.Mode = Mode(part)
		default:
			return Variant{}, fmt.Errorf("variant %q: expected [address+]mode[@schema]", name)
		}
	}
	v = v.normal()
	if err := v.valid(); err != nil {
		return Variant{}, fmt.Errorf("variant %q: %w", name, err)
	}
	return v, nil
}

// Variants lists one variant per layout a test matrix should cover: every
// tx_out.value on 13.7, the address table, and the 13.6 schema.
func Variants() []Variant {
	return []Variant{
		{Mode: ModeCore, Schema: Schema137},
		{Mode: ModeConsumed, Schema: Schema137},
		{Mode: ModeCore, AddressTable: true, Schema: Schema137},
		{Mode: ModePrune, Schema: Schema137},
		{Mode: ModeBootstrap, Schema: Schema137},
		{Mode: ModeDisable, Schema: Schema137},
		{Mode: ModeCore, Schema: Schema136},
	}
}
