package epochs

import (
	"context"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var sqlProtocols = engine.Fixed("dbsync/epoch_protocols.sql")

// Protocols is where each protocol major version took effect, with the
// tip's epoch and slot within it.
type Protocols struct {
	// FirstEpoch maps a protocol major version to the first epoch it was
	// in force (epoch_param: from Shelley on).
	FirstEpoch   map[int64]int64
	TipEpoch     int64
	TipEpochSlot int64
}

// ProtocolStarts reads Protocols; an empty chain is dbsync.ErrNotFound.
func ProtocolStarts(ctx context.Context, db *dbsync.DB) (Protocols, error) {
	var rows []struct {
		Major        *int64 `db:"major"`
		FirstEpoch   *int64 `db:"first_epoch"`
		TipEpoch     *int64 `db:"tip_epoch"`
		TipEpochSlot int64  `db:"tip_epoch_slot"`
	}
	if err := db.Reader().Select(ctx, &rows, sqlProtocols); err != nil {
		return Protocols{}, epochsErr("ProtocolStarts", engine.Classify(err))
	}
	if len(rows) == 0 {
		return Protocols{}, dbsync.ErrNotFound
	}
	p := Protocols{FirstEpoch: map[int64]int64{}, TipEpochSlot: rows[0].TipEpochSlot}
	if rows[0].TipEpoch != nil {
		p.TipEpoch = *rows[0].TipEpoch
	}
	for _, r := range rows {
		if r.Major != nil && r.FirstEpoch != nil {
			p.FirstEpoch[*r.Major] = *r.FirstEpoch
		}
	}
	return p, nil
}
