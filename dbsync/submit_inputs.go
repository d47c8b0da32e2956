package dbsync

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/lib/pq"
)

var (
	sqlUnspentInputs = layoutStatement("dbsync/unspent_inputs.sql", alwaysGeneric, nil)
)

// OutputRef names a transaction output: the producing transaction's hash
// (64 hex characters) and the output's index in it.
type OutputRef struct {
	TxHash string
	Index  uint32
}

// UnspentInputs checks, in one statement, that every input is an unspent
// output on chain as db-sync knows it, and returns the position in inputs of
// the first one that is not (unknown or already spent), or -1 when all are
// unspent. Outputs of transactions still in a mempool are unknown here.
func (db *DB) UnspentInputs(ctx context.Context, inputs []OutputRef) (int, error) {
	if len(inputs) == 0 {
		return -1, nil
	}
	hashes := make(pq.ByteaArray, len(inputs))
	indexes := make(pq.Int64Array, len(inputs))
	for i, in := range inputs {
		h, err := hex.DecodeString(in.TxHash)
		if err != nil || len(h) != 32 {
			return 0, fmt.Errorf("dbsync.UnspentInputs: input %d: bad transaction hash %q", i, in.TxHash)
		}
		hashes[i] = h
		indexes[i] = int64(in.Index)
	}
	query := db.sql(sqlUnspentInputs)
	var pos int64 // 1-based, from WITH ORDINALITY
	err := db.get(ctx, &pos, query, hashes, indexes)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return -1, nil
	case err != nil:
		return 0, fmt.Errorf("dbsync.UnspentInputs: %w", classify(err))
	}
	return int(pos - 1), nil
}
