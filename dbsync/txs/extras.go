package txs

import (
	"context"
	"errors"
	"fmt"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Metadatum is one label of a transaction's metadata: the value as db-sync
// renders it in JSON (nil when it has no JSON form) and its CBOR (hex).
type Metadatum struct {
	Label *string `db:"label"`
	JSON  *string `db:"json"`
	CBOR  *string `db:"cbor"`
}

// Metadata returns the transaction's metadata by label.
func Metadata(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]Metadatum, error) {
	return list(ctx, db, "Metadata", sqlMetadata, hash, func(r Metadatum) bool { return r.Label != nil })
}

// Redeemer is one redeemer of a transaction. ScriptHash is nil where
// db-sync could not resolve it (its outputs disabled).
type Redeemer struct {
	TxIndex    *int64  `db:"tx_index"`
	Purpose    *string `db:"purpose"`
	ScriptHash *string `db:"script_hash"`
	DataHash   *string `db:"data_hash"`
	UnitMem    *string `db:"unit_mem"`
	UnitSteps  *string `db:"unit_steps"`
	Fee        *string `db:"fee"`
}

// Redeemers returns the transaction's redeemers in db-sync's order.
func Redeemers(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]Redeemer, error) {
	return list(ctx, db, "Redeemers", sqlRedeemers, hash, func(r Redeemer) bool { return r.Purpose != nil })
}

// RequiredSigners returns the key hashes (hex) the transaction's body
// requires signatures of, in the body's order.
func RequiredSigners(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]string, error) {
	type row struct {
		Hash *string `db:"witness_hash"`
	}
	rows, err := list(ctx, db, "RequiredSigners", sqlRequiredSigners, hash, func(r row) bool { return r.Hash != nil })
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = *r.Hash
	}
	return out, nil
}

// ErrNoCBOR: db-sync did not keep the transaction's CBOR (its tx_cbor
// option off, or a schema without the table).
var ErrNoCBOR = errors.New("txs: transaction CBOR not kept")

// undefinedTable is PostgreSQL's code for a relation that does not exist.
const undefinedTable = "42P01"

// CBOR returns the transaction's CBOR (hex) as db-sync keeps it, ErrNoCBOR
// when it does not, or dbsync.ErrNotFound for an unknown transaction.
func CBOR(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) (string, error) {
	var cbor *string
	err := db.Reader().Get(ctx, &cbor, sqlCBOR, hash[:])
	var pqErr *pq.Error
	switch {
	case err == nil && cbor == nil:
		return "", ErrNoCBOR
	case err == nil:
		return *cbor, nil
	case errors.As(err, &pqErr) && pqErr.Code == undefinedTable:
		return "", ErrNoCBOR
	}
	if err = engine.Classify(err); errors.Is(err, dbsync.ErrNotFound) {
		return "", err
	}
	return "", fmt.Errorf("txs.CBOR(%s): %w", hash, err)
}
