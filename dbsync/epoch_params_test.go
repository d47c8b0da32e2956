package dbsync_test

import (
	"errors"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
)

// TestEpochParamsAtOrBefore: the newest row at or before the epoch asked
// for, with its cost models; nothing before the first Shelley epoch.
func TestEpochParamsAtOrBefore(t *testing.T) {
	forEachChain(t, func(t *testing.T, c *chain) {
		var first, last, minFeeB int64
		if err := c.raw.QueryRow(`SELECT min(epoch_no), max(epoch_no) FROM epoch_param`).Scan(&first, &last); err != nil {
			t.Fatal(err)
		}
		if err := c.raw.Get(&minFeeB, `SELECT min_fee_b FROM epoch_param WHERE epoch_no = $1`, last); err != nil {
			t.Fatal(err)
		}
		for _, asked := range []int64{last, last + 1, last + 1000} {
			p, err := c.db.EpochParamsAtOrBefore(t.Context(), asked)
			if err != nil || p.Epoch != last || p.MinFeeB != minFeeB || p.CostModels == nil || p.KeyDeposit == "" {
				t.Errorf("asked %d: %+v, %v; want epoch %d's row with its cost models", asked, p, err, last)
			}
		}
		if p, err := c.db.EpochParamsAtOrBefore(t.Context(), first); err != nil || p.Epoch != first {
			t.Errorf("first Shelley epoch %d: %d, %v", first, p.Epoch, err)
		}
		if _, err := c.db.EpochParamsAtOrBefore(t.Context(), first-1); !errors.Is(err, dbsync.ErrNotFound) {
			t.Errorf("epoch %d (Byron): %v, want ErrNotFound", first-1, err)
		}
	})
}
