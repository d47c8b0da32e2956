package dbsync_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync"
)

// limitActive admits n requests at a time to c's database until the test ends.
func limitActive(t *testing.T, c *chain, n int) {
	c.db.SetMaxActive(n)
	t.Cleanup(func() { c.db.SetMaxActive(0) })
}

// With one request admitted at a time, many at once still all finish with
// the same answers: they wait their turn instead of failing.
func TestMaxActiveQueuesRequests(t *testing.T) {
	needChains(t)
	c := chains[0]
	addr := mustAddress(t, samples.Small[0])
	want, err := c.db.TxsByAddress(t.Context(), addr, dbsync.HistoryQuery{Limit: 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	limitActive(t, c, 1)
	var wg sync.WaitGroup
	for range 12 {
		wg.Go(func() {
			got, err := c.db.TxsByAddress(t.Context(), addr, dbsync.HistoryQuery{Limit: 20}, nil)
			if err != nil || len(got.Items) != len(want.Items) || got.Total != want.Total {
				t.Errorf("queued request: %d items, total %d, %v; want %d, %d", len(got.Items), got.Total, err, len(want.Items), want.Total)
			}
		})
	}
	wg.Wait()
}

// A request that cannot get in before its deadline is a timeout (504), not
// a failure of the database.
func TestMaxActiveWaitTimesOut(t *testing.T) {
	needChains(t)
	c := chains[0]
	limitActive(t, c, 1)
	release := holdTheGate(t, c)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := c.db.TxHistory(ctx, mustAddress(t, samples.Small[0]), dbsync.HistoryQuery{Limit: 5}, nil)
	release()
	if !errors.Is(err, dbsync.ErrTimeout) {
		t.Fatalf("waiting past the deadline: %v, want ErrTimeout", err)
	}
}

// holdTheGate takes c's (only) gate slot with a transaction that waits;
// the returned func ends it and checks it ended well.
func holdTheGate(t *testing.T, c *chain) (release func()) {
	held, end := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- c.db.ReadTx(t.Context(), func(*dbsync.Snapshot) error {
			close(held)
			<-end
			return nil
		})
	}()
	<-held
	return func() {
		close(end)
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// A UTxO listing leaves the gate before it hands the client its first
// chunk: a client reading slowly must not keep other requests out.
func TestUTxOListingLeavesTheGateForTheClient(t *testing.T) {
	needChains(t)
	c := chains[0]
	c.db.SetUTxOChunk(1) // several chunks, so the listing goes on after the first
	t.Cleanup(func() { c.db.SetUTxOChunk(500) })
	limitActive(t, c, 1)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	chunks := 0
	err := c.db.EachUTxOByAddress(ctx, mustAddress(t, samples.Whale), func([]dbsync.UTxO) error {
		chunks++
		if chunks == 1 { // the client is "slow": another request runs meanwhile
			if _, err := c.db.TxHistory(ctx, mustAddress(t, samples.Small[0]), dbsync.HistoryQuery{Limit: 5}, nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || chunks < 2 {
		t.Fatalf("listing with a request in between: %d chunks, %v", chunks, err)
	}
}

// The health probe's tip read does not queue: a database whose gate is
// full is busy, not down.
func TestTipDoesNotWaitAtTheGate(t *testing.T) {
	needChains(t)
	c := chains[0]
	limitActive(t, c, 1)
	release := holdTheGate(t, c)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	_, err := c.db.Tip(ctx)
	release()
	if err != nil {
		t.Fatalf("tip with the gate full: %v", err)
	}
}

// Listings waiting on slow clients hold connections but never the
// connections admitted requests need: with one request admitted and more
// listings than there are stream slots waiting on their clients, other
// requests still run, and no more listings than slots are in progress.
// The listings are long ones (a chunk of one output): a list shorter than
// a chunk is read whole by one statement and holds no connection while
// its client reads it.
func TestPausedListingsLeaveConnectionsForAdmittedRequests(t *testing.T) {
	needChains(t)
	c := chains[0]
	limitActive(t, c, 1)
	c.db.SetUTxOChunk(1)
	t.Cleanup(func() { c.db.SetUTxOChunk(0) })
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	listings := dbsync.StreamSlots + 8
	var inProgress, most atomic.Int64
	paused, release := make(chan struct{}, listings), make(chan struct{})
	errs := make(chan error, listings)
	for range listings {
		go func() {
			first := true
			errs <- c.db.EachUTxOByAddress(ctx, mustAddress(t, samples.Whale), func([]dbsync.UTxO) error {
				if first {
					first = false
					n := inProgress.Add(1)
					defer inProgress.Add(-1)
					for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
					}
					paused <- struct{}{}
					<-release
				}
				return nil
			})
		}()
	}
	for range dbsync.StreamSlots {
		<-paused
	}
	for range 4 {
		if _, err := c.db.TxsByAddress(ctx, mustAddress(t, samples.Small[0]), dbsync.HistoryQuery{Limit: 5}, nil); err != nil {
			close(release)
			t.Fatalf("request while %d listings wait on their clients: %v", dbsync.StreamSlots, err)
		}
	}
	close(release)
	for range listings {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if most.Load() > int64(dbsync.StreamSlots) {
		t.Fatalf("%d listings in progress at once, want at most %d", most.Load(), dbsync.StreamSlots)
	}
}
