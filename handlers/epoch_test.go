package handlers

import (
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
)

// sdkEpochLatest mirrors what the client SDK declares for GET
// /v1/epochs/latest (OpenAPI schema EpochsLatest).
type sdkEpochLatest struct {
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

func TestEpochsLatest(t *testing.T) {
	for _, c := range seededChains(t) {
		var want struct {
			Slot      int64     `db:"slot_no"`
			Epoch     int64     `db:"epoch_no"`
			EpochSlot int64     `db:"epoch_slot_no"`
			Era       string    `db:"era"`
			Time      time.Time `db:"time"`
			Start     time.Time `db:"start_time"`
		}
		if err := c.raw.Get(&want, `SELECT b.slot_no, b.epoch_no, b.epoch_slot_no, b.time, m.start_time,
			CASE WHEN b.proto_major <= 1 THEN 'byron' WHEN b.proto_major = 2 THEN 'shelley' WHEN b.proto_major = 3 THEN 'allegra'
			     WHEN b.proto_major = 4 THEN 'mary' WHEN b.proto_major <= 6 THEN 'alonzo' WHEN b.proto_major <= 8 THEN 'babbage'
			     ELSE 'conway' END AS era
			FROM block b, meta m WHERE b.slot_no = (SELECT max(slot_no) FROM block)`); err != nil {
			t.Fatal(err)
		}
		tipTime, start := want.Time.UTC(), want.Start.UTC()
		// One server whose clock moves: its remembered answer must follow
		// the progress.
		var now time.Time
		s := New(Deps{
			Networks:    map[string]*dbsync.DB{"mainnet": c.db},
			Credentials: testCredentials,
			Redis:       testRedis(t),
			Log:         quietLog,
			Config:      config.Config{MaxTipLag: 10 * time.Minute},
			Now:         func() time.Time { return now },
			Limiter:     cache.NewLimiter(nil, time.Now), // the test's clock runs backwards
		})
		for _, tc := range []struct {
			now      time.Time
			progress float64
		}{
			{tipTime.Add(5 * time.Minute), 100},   // within MAX_TIP_LAG: caught up
			{tipTime.Add(tipTime.Sub(start)), 50}, // the tip halfway between start and now
			{tipTime.Add(tipTime.Sub(start) / 3), 75},
		} {
			now = tc.now
			r := get(t, s, "/v1/epochs/latest")
			if r.Status != http.StatusOK || !r.Success {
				t.Fatalf("%s: %d %s", c.mode, r.Status, r.Raw)
			}
			if again := get(t, s, "/v1/epochs/latest"); string(again.Raw) != string(r.Raw) {
				t.Fatalf("%s: the answer repeated differs:\n%s\nwant\n%s", c.mode, again.Raw, r.Raw)
			}
			got := decodeSDK[sdkEpochLatest](t, r.Data)
			if got.Tip.Slot != want.Slot || got.Tip.Epoch != want.Epoch || got.Tip.EpochSlot != want.EpochSlot {
				t.Errorf("%s: tip %+v, want slot %d epoch %d epoch_slot %d", c.mode, got.Tip, want.Slot, want.Epoch, want.EpochSlot)
			}
			if got.Network.Era != want.Era || got.Network.Name != "mainnet" || got.Params.EpochLength != 432000 || got.Params.SlotLength != 1 {
				t.Errorf("%s: network %+v params %+v; want era %s on mainnet, 432000 one-second slots", c.mode, got.Network, got.Params, want.Era)
			}
			if math.Abs(got.Network.SyncProgress-tc.progress) > 0.011 {
				t.Errorf("%s now=%s: sync_progress %v, want %v", c.mode, tc.now, got.Network.SyncProgress, tc.progress)
			}
			checkLastUpdated(t, c, r)
		}
	}
}
