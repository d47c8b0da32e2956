package answer

import (
	"context"
	"math"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
)

// epochLatestData is GET /v1/epochs/latest (the client SDK's chain position).
type epochLatestData struct {
	Tip struct {
		Slot      int64 `json:"slot"`
		Epoch     int64 `json:"epoch"`
		EpochSlot int64 `json:"epoch_slot"`
	} `json:"tip"`
	Network struct {
		Era          string  `json:"era"`
		Name         string  `json:"name"`
		SyncProgress float64 `json:"sync_progress"`
	} `json:"network"`
	Params struct {
		EpochLength int64 `json:"epoch_length"`
		SlotLength  int64 `json:"slot_length"`
	} `json:"params"`
}

// EpochsLatest answers GET /v1/epochs/latest. The client SDK takes
// tip.slot as "now" for every transaction's TTL, so it is the caller's
// network's tip, read in the same statement as last_updated, at most a
// second old (dbsync.RecentPosition), and never older than the request's
// tip (readAt, which waited for its min_slot).
func (s *Service) EpochsLatest(ctx context.Context, db *dbsync.DB) ([]byte, error) {
	db, tip, err := s.readAt(ctx, db)
	if waitFailed(ctx, err) {
		return nil, err
	}
	pos, err := db.RecentPosition(ctx)
	if err == nil && pos.SlotNo < tip.SlotNo {
		// The position memo is older than the request's tip (its min_slot
		// may lie between them): read it again on the same server.
		pos, err = db.LatestPosition(ctx)
	}
	if err != nil {
		return nil, err
	}
	if pos.BlockHash != tip.BlockHash {
		answeredAt(ctx, pos.Tip) // the headers name the tip the body reports
	}
	progress := syncProgress(pos.SystemStart, pos.BlockTime, s.opts.Now(), s.opts.MaxTipLag)
	key := epochAnswerKey{network: db.Network.Name, blockHash: pos.BlockHash, slot: pos.SlotNo, progress: progress}
	if a, ok := s.epochAnswers.Load(key.network); ok && a.(*epochAnswer).key == key {
		return a.(*epochAnswer).body, nil
	}
	var d epochLatestData
	d.Tip.Slot, d.Tip.EpochSlot = pos.SlotNo, pos.EpochSlotNo
	if pos.EpochNo != nil {
		d.Tip.Epoch = *pos.EpochNo
	}
	d.Network.Era, d.Network.Name = pos.Era(), db.Network.Name
	d.Network.SyncProgress = progress
	d.Params.EpochLength, d.Params.SlotLength = db.Network.EpochLength, 1
	lu := lastUpdatedOf(pos.Tip)
	body, err := wire.Encode(wire.Envelope{Success: true, Data: d, LastUpdated: &lu})
	if err != nil {
		return nil, err
	}
	s.epochAnswers.Store(key.network, &epochAnswer{key: key, body: body})
	return body, nil
}

// epochAnswer is a network's last /v1/epochs/latest answer, sent again
// while its position and sync progress are the same: clients poll it
// before every transaction, tens of thousands of times a second, and
// encoding it was 3 % of the server's CPU.
type epochAnswer struct {
	key  epochAnswerKey
	body []byte
}

// epochAnswerKey is everything an answer depends on (the position read
// in one statement: its block and slot; the progress, which moves with
// the clock only while db-sync lags).
type epochAnswerKey struct {
	network   string
	blockHash string
	slot      int64
	progress  float64
}

// syncProgress is how far the tip's time lies between the network's start
// and now, in percent with two decimals (rounded down, so 100 means
// caught up): 100 when the tip is within maxLag of now.
func syncProgress(start, tip, now time.Time, maxLag time.Duration) float64 {
	if maxLag > 0 && now.Sub(tip) <= maxLag || !now.After(start) {
		return 100
	}
	p := float64(tip.Sub(start)) / float64(now.Sub(start)) * 100
	// The epsilon keeps 99.9 from flooring to 99.89 through binary rounding.
	return math.Max(0, math.Min(100, math.Floor(p*100+1e-6)/100))
}
