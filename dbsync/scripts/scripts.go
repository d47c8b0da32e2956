// Package scripts reads scripts, their redeemers and datums as
// Blockfrost's script routes describe them: the list of every script, one
// script by hash, the redeemers that ran one, and a datum by hash. The
// unspent outputs holding a reference script are a UTxO listing of dbsync
// (EachUTxOByReferenceScript). One statement per call.
package scripts

import (
	"context"
	"errors"
	"fmt"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlListAsc       = engine.Template("dbsync/scripts_list.sql", engine.AlwaysGeneric, asc)
	sqlListDesc      = engine.Template("dbsync/scripts_list.sql", engine.AlwaysGeneric, desc)
	sqlByHash        = engine.Fixed("dbsync/scripts_by_hash.sql")
	sqlRedeemersAsc  = engine.Template("dbsync/scripts_redeemers.sql", engine.AlwaysGeneric, asc)
	sqlRedeemersDesc = engine.Template("dbsync/scripts_redeemers.sql", engine.AlwaysGeneric, desc)
	sqlDatum         = engine.Fixed("dbsync/scripts_datum.sql")
)

// Each list is rendered in both directions: an ORDER BY that picks its
// direction from a parameter cannot walk an index.
var asc, desc = map[string]any{"Order": "ASC"}, map[string]any{"Order": "DESC"}

// ordered is the list's statement for the page's direction.
func ordered(db *dbsync.DB, p Page, ascending, descending *dbsync.Statement) dbsync.Query {
	if p.Desc {
		return db.SQL(descending)
	}
	return db.SQL(ascending)
}

// Page selects Limit items after Offset, oldest first unless Desc (then
// counted from the newest).
type Page struct {
	Offset, Limit int
	Desc          bool
}

// List returns a page of every script's hash (hex) in chain order.
func List(ctx context.Context, db *dbsync.DB, p Page) ([]string, error) {
	hashes := []string{}
	if err := db.Reader().Select(ctx, &hashes, ordered(db, p, sqlListAsc, sqlListDesc), p.Limit, p.Offset); err != nil {
		return nil, wrap("List", err)
	}
	return hashes, nil
}

// Script is one script as db-sync stores it.
type Script struct {
	Hash           string  `db:"hash"`
	Type           string  `db:"type"` // db-sync's scripttype: multisig, timelock, plutusV1…
	SerialisedSize *int64  `db:"serialised_size"`
	JSON           *string `db:"json"` // a native script's JSON
	CBOR           *string `db:"cbor"` // hex
}

// ByHash returns the script with the 28-byte hash, or dbsync.ErrNotFound.
func ByHash(ctx context.Context, db *dbsync.DB, hash []byte) (Script, error) {
	var s Script
	if err := db.Reader().Get(ctx, &s, sqlByHash, hash); err != nil {
		return Script{}, wrap("ByHash", err)
	}
	return s, nil
}

// Redeemer is one redeemer that ran a script.
type Redeemer struct {
	TxHash           string `db:"tx_hash"`
	TxIndex          int64  `db:"tx_index"` // the redeemer's pointer index in the transaction
	Purpose          string `db:"purpose"`
	RedeemerDataHash string `db:"redeemer_data_hash"`
	UnitMem          string `db:"unit_mem"`
	UnitSteps        string `db:"unit_steps"`
	Fee              string `db:"fee"`
}

// Redeemers returns a page of the redeemers that ran the script (28-byte
// hash) in chain order.
func Redeemers(ctx context.Context, db *dbsync.DB, hash []byte, p Page) ([]Redeemer, error) {
	rs := []Redeemer{}
	if err := db.Reader().Select(ctx, &rs, ordered(db, p, sqlRedeemersAsc, sqlRedeemersDesc), hash, p.Limit, p.Offset); err != nil {
		return nil, wrap("Redeemers", err)
	}
	return rs, nil
}

// Datum is a datum (or a redeemer's data): db-sync's JSON rendering of
// the Plutus data (nil when db-sync could not render it) and its CBOR.
type Datum struct {
	JSON *string `db:"json_value"`
	CBOR string  `db:"cbor"` // hex
}

// DatumByHash returns the datum with the 32-byte hash, or
// dbsync.ErrNotFound.
func DatumByHash(ctx context.Context, db *dbsync.DB, hash []byte) (Datum, error) {
	var d Datum
	if err := db.Reader().Get(ctx, &d, sqlDatum, hash); err != nil {
		return Datum{}, wrap("DatumByHash", err)
	}
	return d, nil
}

// wrap classifies a store error (ErrNotFound for no row) and names the call.
func wrap(call string, err error) error {
	err = engine.Classify(err)
	if errors.Is(err, dbsync.ErrNotFound) {
		return dbsync.ErrNotFound
	}
	return fmt.Errorf("scripts.%s: %w", call, err)
}
