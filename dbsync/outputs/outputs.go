// Package outputs reads transaction outputs named by reference (the
// producing transaction's hash and the output's index), spent or not: the
// outputs a mempool transaction spends, whose addresses and amounts the
// transaction itself does not carry.
package outputs

import (
	"context"
	"encoding/hex"
	"fmt"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var sqlSpentOutputs = engine.Template("dbsync/mempool_spent_outputs.sql", engine.AlwaysGeneric, nil)

// Output is one output found by reference.
type Output struct {
	// Pos is the reference's position in the list asked.
	Pos      int    `db:"pos"`
	Address  string `db:"address"`
	Lovelace string `db:"lovelace"` // decimal
}

// ByRef returns the outputs db-sync holds among refs, in refs' order;
// a reference it does not hold (unknown transaction or index) has no
// Output. One statement, whatever the number of references.
func ByRef(ctx context.Context, db *dbsync.DB, refs []dbsync.OutputRef) ([]Output, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	hashes := make(pq.ByteaArray, len(refs))
	indexes := make(pq.Int64Array, len(refs))
	for i, r := range refs {
		h, err := hex.DecodeString(r.TxHash)
		if err != nil || len(h) != 32 {
			return nil, fmt.Errorf("outputs: reference %d: bad transaction hash %q", i, r.TxHash)
		}
		hashes[i], indexes[i] = h, int64(r.Index)
	}
	var out []Output
	if err := db.Reader().Select(ctx, &out, db.SQL(sqlSpentOutputs), hashes, indexes); err != nil {
		return nil, fmt.Errorf("outputs: %w", engine.Classify(err))
	}
	return out, nil
}
