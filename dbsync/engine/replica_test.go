//go:build linux

package engine_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/sql"
)

// replicated is a db-sync chain on a primary of the test's own with a
// streaming replica, and an engine over both.
type replicated struct {
	primary, replica *testdb.Cluster
	primaryDB        *sqlx.DB // the primary's chain, to write to it
	eng              *engine.Engine
}

// newReplicated seeds a chain on a new primary, starts a streaming replica
// of it and an engine (probing every 200 ms, 1 s timeout, unless o says otherwise), and
// returns once both servers are in rotation.
func newReplicated(t *testing.T, o engine.Options) *replicated {
	t.Helper()
	c := testdb.NewCluster(t) // skips under -short
	dsn := c.CreateDatabase("sg_replica")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := chaingen.Seed(ctx, dsn, chaingen.Options{Txs: 2500, Seed: 7, Mode: chaingen.ModeCore, TipTime: testdb.FixedTipTime}); err != nil {
		t.Fatal(err)
	}
	r := c.NewReplica()
	if o.ProbeInterval == 0 {
		o.ProbeInterval, o.ProbeTimeout = 200*time.Millisecond, time.Second
	}
	eng, err := engine.New(config.NetworkConfig{Network: cardano.Networks[0], DBSyncURL: dsn, ReplicaURLs: []string{r.URL("sg_replica")}}, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	if err := eng.Started(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "replica in rotation", 20*time.Second, func() bool { return eng.Servers()[1].Up })
	db, err := sqlx.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &replicated{primary: c, replica: r, primaryDB: db, eng: eng}
}

// advance moves the primary's newest block d on (slot and time), as
// db-sync writing a newer block does.
func (rp *replicated) advance(t *testing.T, d time.Duration) {
	t.Helper()
	secs := int64(d / time.Second)
	if _, err := rp.primaryDB.Exec(`UPDATE block SET slot_no = slot_no + $1, time = time + make_interval(secs => $1)
		WHERE id = (SELECT max(id) FROM block)`, secs); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond until it holds and returns how long that took.
func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > within {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Since(start)
}

var sqlInRecovery = sqlfiles.Statement{Name: "test in recovery", Text: `SELECT pg_is_in_recovery()`}

// TestFrozenReplicaReadsMoveToPrimary: snapshots already open on a replica
// when it freezes, whose statements are then stuck on it, are interrupted
// when the replica leaves rotation and run again on the primary, well
// within their deadline, instead of waiting it out (a 504).
func TestFrozenReplicaReadsMoveToPrimary(t *testing.T) {
	rp := newReplicated(t, engine.Options{})
	const readers, deadline = 4, 8 * time.Second
	var opened sync.WaitGroup
	frozen := make(chan struct{})
	type result struct {
		inRecovery bool
		err        error
		took       time.Duration
	}
	results := make(chan result, readers)
	var frozeAt time.Time
	for range readers {
		r := rp.eng.Pinned()
		if r.Server() != "replica1" {
			t.Fatalf("pinned to %s, want the replica", r.Server())
		}
		opened.Add(1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			var first sync.Once
			var inRecovery bool
			err := r.ReadTx(ctx, func(tx *engine.Snapshot) error {
				// The first attempt has its snapshot open on the replica
				// when the replica freezes; its statements come after.
				first.Do(func() {
					opened.Done()
					<-frozen
				})
				if _, err := engine.TipIn(ctx, tx); err != nil {
					return err
				}
				return tx.GetContext(ctx, &inRecovery, sqlInRecovery)
			})
			results <- result{inRecovery, err, time.Since(frozeAt)}
		}()
	}
	opened.Wait()
	if err := rp.replica.Freeze(); err != nil {
		t.Fatal(err)
	}
	frozeAt = time.Now()
	close(frozen)
	var slowest time.Duration
	for range readers {
		res := <-results
		slowest = max(slowest, res.took)
		switch {
		case res.err != nil:
			t.Errorf("read caught on the frozen replica: %v after %s", res.err, res.took.Round(time.Millisecond))
		case res.inRecovery:
			t.Errorf("read answered by the replica")
		case res.took > deadline/2:
			t.Errorf("read answered after %s, want well within its %s deadline", res.took, deadline)
		}
	}
	t.Logf("reads caught on the frozen replica answered by the primary %s after the freeze", slowest.Round(time.Millisecond))
	if rp.eng.Servers()[1].Up {
		t.Error("frozen replica still in rotation")
	}
}

// TestLaggingReplicaLeavesRotation: a replica that stops replaying while
// the primary's chain moves on leaves rotation once it is more than
// MaxReplicaLag behind, reads go to the primary meanwhile, and it comes
// back once it has caught up.
func TestLaggingReplicaLeavesRotation(t *testing.T) {
	rp := newReplicated(t, engine.Options{ServerOptions: engine.ServerOptions{MaxReplicaLag: 5 * time.Second}})
	rp.replica.PauseReplay()
	rp.advance(t, time.Minute)
	out := waitFor(t, "lagging replica out of rotation", 5*time.Second, func() bool { return !rp.eng.Servers()[1].Up })
	if err := rp.eng.Servers()[1].Err; err == nil || !strings.Contains(err.Error(), "behind") {
		t.Errorf("out of rotation because %v, want its lag", err)
	}
	for range 5 {
		if s := rp.eng.Pinned().Server(); s != "primary" {
			t.Errorf("read from %s while the replica lags", s)
		}
	}
	rp.replica.ResumeReplay()
	back := waitFor(t, "replica back in rotation", 10*time.Second, func() bool { return rp.eng.Servers()[1].Up })
	t.Logf("replica a minute behind: out of rotation %s after the primary's block; back %s after replay resumed",
		out.Round(time.Millisecond), back.Round(time.Millisecond))
}

// TestReadsNeverGoBack: once a tip was read on this engine (the primary's,
// as /v1/health shows it), no read is answered by a replica still behind
// it, even one within MaxReplicaLag that stays in rotation; once the
// replica has caught up it takes reads again.
func TestReadsNeverGoBack(t *testing.T) {
	rp := newReplicated(t, engine.Options{})
	ctx := t.Context()
	rp.replica.PauseReplay()
	rp.advance(t, 2*time.Second)
	var primaryTip engine.Tip
	if err := rp.eng.OnPrimary(ctx, func(ctx context.Context, get engine.GetFunc) (err error) {
		primaryTip, err = engine.ReadTip(ctx, get)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		r := rp.eng.Pinned()
		var tip engine.Tip
		if err := r.ReadTx(ctx, func(tx *engine.Snapshot) (err error) {
			tip, err = engine.TipIn(ctx, tx)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if tip.SlotNo < primaryTip.SlotNo {
			t.Fatalf("read %d (%s) at slot %d, after the primary's %d was read", i, r.Server(), tip.SlotNo, primaryTip.SlotNo)
		}
		recent, err := engine.Recent(ctx, rp.eng.Any(), "tip", engine.ReadTip)
		if err != nil {
			t.Fatal(err)
		}
		if recent.SlotNo < primaryTip.SlotNo {
			t.Fatalf("remembered tip %d, after the primary's %d was read", recent.SlotNo, primaryTip.SlotNo)
		}
	}
	if !rp.eng.Servers()[1].Up {
		t.Error("a replica two seconds behind left rotation (DBSYNC_MAX_REPLICA_LAG is 30 s)")
	}
	rp.replica.ResumeReplay()
	if err := rp.replica.CatchUp(rp.primary, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	back := waitFor(t, "caught-up replica reads again", 5*time.Second, func() bool { return rp.eng.Pinned().Server() == "replica1" })
	t.Logf("caught-up replica read from again %s after replaying", back.Round(time.Millisecond))
}

// TestBackgroundReadsLeaveReplicasInRotation: a tip read by background
// work on the primary (PrimaryTx: the tracker of touched addresses, the
// event scanner) is no client's, so a replica a block behind it stays
// the one reads go to; a client's read of that tip takes it out of
// reads until it has the block.
func TestBackgroundReadsLeaveReplicasInRotation(t *testing.T) {
	rp := newReplicated(t, engine.Options{})
	ctx := t.Context()
	rp.replica.PauseReplay()
	defer rp.replica.ResumeReplay()
	rp.advance(t, 2*time.Second)
	readTip := func(run func(func(tx *engine.Snapshot) error) error) engine.Tip {
		t.Helper()
		var tip engine.Tip
		if err := run(func(tx *engine.Snapshot) (err error) {
			tip, err = engine.TipIn(ctx, tx)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return tip
	}
	ahead := readTip(func(fn func(tx *engine.Snapshot) error) error { return rp.eng.PrimaryTx(ctx, fn) })
	for i := range 10 {
		r := rp.eng.Pinned()
		if r.Server() != "replica1" {
			t.Fatalf("read %d pinned to %s after a background read of the primary's tip", i, r.Server())
		}
		if tip := readTip(func(fn func(tx *engine.Snapshot) error) error { return r.ReadTx(ctx, fn) }); tip.SlotNo >= ahead.SlotNo {
			t.Fatalf("the replica read slot %d: it was meant to be behind %d", tip.SlotNo, ahead.SlotNo)
		}
	}
	// A client's read on the primary: reads go there until the replica has it.
	if err := rp.eng.OnPrimary(ctx, func(ctx context.Context, get engine.GetFunc) error {
		_, err := engine.ReadTip(ctx, get)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if s := rp.eng.Pinned().Server(); s == "replica1" {
		t.Fatal("reads stayed on a replica behind a tip served")
	}
}
