package bf

import (
	"context"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/epochs"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Era is one item of Blockfrost's network-eras: where an era starts and
// ends (time in seconds from the network's start, absolute slot, epoch)
// and its epoch and slot lengths and safe zone.
type Era struct {
	Start      EraBound  `json:"start"`
	End        EraBound  `json:"end"`
	Parameters EraParams `json:"parameters"`
}

// EraBound is an era's start or end.
type EraBound struct {
	Time  int64 `json:"time"`
	Slot  int64 `json:"slot"`
	Epoch int64 `json:"epoch"`
}

// EraParams are an era's lengths.
type EraParams struct {
	EpochLength int64 `json:"epoch_length"`
	SlotLength  int64 `json:"slot_length"`
	SafeZone    int64 `json:"safe_zone"`
}

// eraOfMajor numbers the era of a protocol major version: 0 Byron, 1
// Shelley, 2 Allegra, 3 Mary, 4 Alonzo (5, 6), 5 Babbage (7, 8), 6 Conway
// (9 on).
func eraOfMajor(major int64) int {
	switch {
	case major <= 1:
		return 0
	case major <= 4:
		return int(major) - 1
	case major <= 6:
		return 4
	case major <= 8:
		return 5
	}
	return 6
}

// Eras answers /network/eras. The eras' boundaries come from db-sync:
// the first epoch each protocol major version was in force (epoch_param,
// the ledger's version: block headers' versions signal what producers
// are ready for, ahead of the hard fork). Byron ends where the first
// Shelley-based parameters begin; an era the chain skipped (a network
// that forked into a later era at once) is listed with no length, as
// Blockfrost does. The last era ends at the epoch after the tip's, or the
// one after that once the tip is within the safe zone of its epoch's end
// (no hard fork can be decided later). Lengths and safe zones are the
// network's genesis parameters (cardano.Genesis).
func (a *Answers) Eras(ctx context.Context, db *dbsync.DB) ([]byte, error) {
	return cached(ctx, a, db, "eras", nil, func(ctx context.Context, db *dbsync.DB) ([]Era, error) {
		p, err := epochs.ProtocolStarts(ctx, db)
		if err != nil {
			return nil, notFound(err)
		}
		return erasOf(db.Network, p), nil
	})
}

// erasOf lays the eras out from where each protocol version began.
func erasOf(n cardano.Network, p epochs.Protocols) []Era {
	g := n.Genesis()
	starts := make([]int64, 7) // by era; -1: not reached
	for i := range starts {
		starts[i] = -1
	}
	for major, first := range p.FirstEpoch {
		if e := eraOfMajor(major); e > 0 && (starts[e] < 0 || first < starts[e]) {
			starts[e] = first
		}
	}
	// An era skipped starts (and ends) where the next one reached starts.
	last := 0
	for e := 6; e >= 1; e-- {
		if starts[e] >= 0 && last == 0 {
			last = e
		}
		if starts[e] < 0 && last > e {
			starts[e] = starts[e+1]
		}
	}
	byronParams := EraParams{EpochLength: g.ByronEpochLength(), SlotLength: g.ByronSlotLength, SafeZone: g.ByronSafeZone()}
	params := EraParams{EpochLength: n.EpochLength, SlotLength: g.SlotLength, SafeZone: g.SafeZone()}
	tipParams := params
	if last == 0 {
		tipParams = byronParams
	}
	end := p.TipEpoch + 1
	if p.TipEpochSlot >= tipParams.EpochLength-tipParams.SafeZone {
		end++
	}
	byronEnd := end // no Shelley-based era yet
	if last > 0 {
		byronEnd = starts[1]
	}
	bound := func(epoch int64) EraBound {
		byron, later := min(epoch, byronEnd), max(epoch-byronEnd, 0)
		return EraBound{
			Time:  byron*g.ByronEpochLength()*g.ByronSlotLength + later*n.EpochLength*g.SlotLength,
			Slot:  byron*g.ByronEpochLength() + later*n.EpochLength,
			Epoch: epoch,
		}
	}
	eras := []Era{{Start: bound(0), End: bound(byronEnd), Parameters: byronParams}}
	for e := 1; e <= last; e++ {
		to := end
		if e < last {
			to = starts[e+1]
		}
		eras = append(eras, Era{Start: bound(starts[e]), End: bound(to), Parameters: params})
	}
	return eras
}
