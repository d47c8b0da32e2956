package txs

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
)

// UTxOs are a transaction's inputs (the outputs it spent, referenced or
// offered as collateral) and its outputs (its collateral output too).
type UTxOs struct {
	Hash    string
	Inputs  []Input
	Outputs []Output
}

// Datum is what an output carries beside its value: its datum hash, its
// inline datum (CBOR, hex) and the hash of its reference script.
type Datum struct {
	DataHash            *string
	InlineDatum         *string
	ReferenceScriptHash *string
}

// Input is an output a transaction spent (or only referenced, or offered
// as collateral), named by the transaction that created it.
type Input struct {
	TxHash      string
	OutputIndex int
	Address     string
	Value       dbsync.Value
	Datum
	Collateral bool
	Reference  bool
}

// Output is an output the transaction created, or its collateral output
// (created only if the transaction fails phase-2 validation, when db-sync
// records it as an ordinary output too), with the transaction that spent
// it, if any.
type Output struct {
	OutputIndex int
	Address     string
	Value       dbsync.Value // collateral outputs: lovelace only
	Datum
	Collateral bool
	ConsumedBy *string
}

// The kinds of txs_utxos.sql rows.
const (
	kindHead = iota - 1
	kindInput
	kindReference
	kindCollateralInput
	kindOutput
	kindCollateralOutput
)

type utxoRow struct {
	Kind                int            `db:"kind"`
	SourceHash          *string        `db:"source_hash"`
	OutputIndex         *int           `db:"output_index"`
	Address             *string        `db:"address"`
	Lovelace            *string        `db:"lovelace"`
	DataHash            *string        `db:"data_hash"`
	InlineDatum         *string        `db:"inline_datum"`
	ReferenceScriptHash *string        `db:"reference_script_hash"`
	ConsumedBy          *string        `db:"consumed_by"`
	Assets              pq.StringArray `db:"assets"`
}

// UTxOsOf returns the transaction's inputs and outputs, or
// dbsync.ErrNotFound. Inputs come as the ledger orders each kind (source
// tx hash, then output index): spent, then referenced, then collateral;
// outputs by index, an ordinary output before a collateral one.
func UTxOsOf(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) (UTxOs, error) {
	var rows []utxoRow
	if err := db.Reader().Select(ctx, &rows, db.SQL(sqlUTxOs), hash[:]); err != nil {
		return UTxOs{}, fmt.Errorf("txs.UTxOsOf(%s): %w", hash, engine.Classify(err))
	}
	if len(rows) == 0 {
		return UTxOs{}, dbsync.ErrNotFound
	}
	out := UTxOs{Hash: hash.String(), Inputs: []Input{}, Outputs: []Output{}}
	for _, r := range rows {
		if r.Kind == kindHead {
			continue
		}
		if r.OutputIndex == nil || r.Address == nil || r.Lovelace == nil {
			return UTxOs{}, fmt.Errorf("txs.UTxOsOf(%s): a row of kind %d without its output", hash, r.Kind)
		}
		v, err := value(*r.Lovelace, r.Assets)
		if err != nil {
			return UTxOs{}, fmt.Errorf("txs.UTxOsOf(%s): %w", hash, err)
		}
		d := Datum{DataHash: r.DataHash, InlineDatum: r.InlineDatum, ReferenceScriptHash: r.ReferenceScriptHash}
		switch r.Kind {
		case kindInput, kindReference, kindCollateralInput:
			if r.SourceHash == nil {
				return UTxOs{}, fmt.Errorf("txs.UTxOsOf(%s): an input without its source", hash)
			}
			out.Inputs = append(out.Inputs, Input{TxHash: *r.SourceHash, OutputIndex: *r.OutputIndex, Address: *r.Address,
				Value: v, Datum: d, Collateral: r.Kind == kindCollateralInput, Reference: r.Kind == kindReference})
		case kindOutput, kindCollateralOutput:
			out.Outputs = append(out.Outputs, Output{OutputIndex: *r.OutputIndex, Address: *r.Address, Value: v, Datum: d,
				Collateral: r.Kind == kindCollateralOutput, ConsumedBy: r.ConsumedBy})
		default:
			return UTxOs{}, fmt.Errorf("txs.UTxOsOf(%s): a row of kind %d", hash, r.Kind)
		}
	}
	slices.SortFunc(out.Inputs, func(a, b Input) int {
		return cmp.Or(cmp.Compare(inputKind(a), inputKind(b)), strings.Compare(a.TxHash, b.TxHash),
			cmp.Compare(a.OutputIndex, b.OutputIndex))
	})
	slices.SortFunc(out.Outputs, func(a, b Output) int {
		return cmp.Or(cmp.Compare(a.OutputIndex, b.OutputIndex), cmpBool(a.Collateral, b.Collateral))
	})
	return out, nil
}

func inputKind(in Input) int {
	switch {
	case in.Reference:
		return kindReference
	case in.Collateral:
		return kindCollateralInput
	}
	return kindInput
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
