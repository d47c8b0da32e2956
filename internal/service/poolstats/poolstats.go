// Package poolstats keeps every pool's live stake distribution (current
// delegators and their live balances) in the admin database, where every
// instance reads it. Computing live stake needs every delegator's unspent
// outputs and rewards, far too much for a request, so a background
// refresher recomputes it with one set-based db-sync query (dbsync
// PoolStakeAll) at start, at each new epoch and every Interval while the
// chain moves (never more than a tenth of the time: refreshDue), and merges it into syncgate.pool_stake in one transaction.
// Only one instance refreshes a network at a time (an advisory lock in the
// admin database). Requests read the stored rows only. It does not import
// gin; its SQL lives in sql/admin/pool_stake_*.sql.
package poolstats

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"log/slog"
	"math/big"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/sql"
)

var (
	sqlLock          = sqlfiles.Must("admin/pool_stake_lock.sql")
	sqlUnlock        = sqlfiles.Must("admin/pool_stake_unlock.sql")
	sqlStageCreate   = sqlfiles.Must("admin/pool_stake_stage_create.sql")
	sqlStageAnalyze  = sqlfiles.Must("admin/pool_stake_stage_analyze.sql")
	sqlDeleteGone    = sqlfiles.Must("admin/pool_stake_delete_gone.sql")
	sqlUpsert        = sqlfiles.Must("admin/pool_stake_upsert.sql")
	sqlSummaryDelete = sqlfiles.Must("admin/pool_stake_summary_delete.sql")
	sqlSummaryInsert = sqlfiles.Must("admin/pool_stake_summary_insert.sql")
	sqlRefreshUpsert = sqlfiles.Must("admin/pool_stake_refresh_upsert.sql")
	sqlRefreshGet    = sqlfiles.Must("admin/pool_stake_refresh_get.sql")
	sqlSummaryGet    = sqlfiles.Must("admin/pool_stake_summary_get.sql")
	sqlDelegators    = sqlfiles.Must("admin/pool_stake_delegators.sql")
	sqlAnalyze       = sqlfiles.Must("admin/pool_stake_analyze.sql")
)

// Defaults: a refresh at most every 2 minutes while blocks arrive, the tip
// checked every 30 s (so a new epoch is picked up within 30 s), and up to
// 30 minutes for one mainnet-sized pass.
const (
	DefaultInterval = 2 * time.Minute
	DefaultPoll     = 30 * time.Second
	DefaultTimeout  = 30 * time.Minute
)

// lockBase is the advisory lock key of network_id 0 ("sgpools\0"); each
// network adds its id.
const lockBase = 0x7367706f6f6c7300

// ErrBusy: another instance is refreshing this network right now.
var ErrBusy = errors.New("poolstats: refresh already running elsewhere")

// Options tunes the refresher.
type Options struct {
	Interval time.Duration // minimum time between refreshes while the tip moves
	Poll     time.Duration // how often the tip and epoch are checked
	Timeout  time.Duration // statement timeout of the db-sync pass
	Log      *slog.Logger
	Now      func() time.Time
	// RefreshDB, when set, is the refresher's own pool (one connection
	// is enough: a pass runs on one session, which holds the lock); nil:
	// the pool given to New.
	RefreshDB *sqlx.DB
}

// Stats is the stored stake distribution of every served network.
type Stats struct {
	admin *sqlx.DB
	nets  map[string]*dbsync.DB
	opts  Options

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New returns Stats over the (migrated) admin database for the given
// db-sync databases, keyed by network name.
func New(admin *sqlx.DB, networks map[string]*dbsync.DB, opts Options) *Stats {
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.Poll <= 0 {
		opts.Poll = DefaultPoll
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.RefreshDB == nil {
		opts.RefreshDB = admin
	}
	return &Stats{admin: admin, nets: networks, opts: opts}
}

// Start runs one refresher per network in the background until Stop.
func (s *Stats) Start(ctx context.Context) {
	ctx, s.cancel = context.WithCancel(ctx)
	for name := range s.nets {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.loop(ctx, name)
		}()
	}
}

// Stop cancels the refreshers (an in-flight pass is aborted and rolled
// back) and waits for them.
func (s *Stats) Stop() {
	if s.cancel != nil {
		s.cancel()
	}
	s.wg.Wait()
}

func (s *Stats) loop(ctx context.Context, network string) {
	t := time.NewTicker(s.opts.Poll)
	defer t.Stop()
	for {
		s.tick(ctx, network)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// tick refreshes when nothing was stored yet, when the epoch changed, or
// when the tip moved and Interval has passed since the last refresh.
func (s *Stats) tick(ctx context.Context, network string) {
	due, err := s.due(ctx, network)
	if err != nil {
		if ctx.Err() == nil {
			s.opts.Log.Warn("pool stake: cannot check freshness", slog.String("network", network), slog.String("error", err.Error()))
		}
		return
	}
	if !due {
		return
	}
	st, err := s.Refresh(ctx, network)
	switch {
	case errors.Is(err, ErrBusy):
		s.opts.Log.Debug("pool stake: another instance is refreshing", slog.String("network", network))
	case err != nil:
		if ctx.Err() == nil {
			s.opts.Log.Error("pool stake refresh failed", slog.String("network", network), slog.String("error", err.Error()))
		}
	default:
		s.opts.Log.Info("pool stake refreshed", slog.String("network", network), slog.Int64("delegators", st.Delegators),
			slog.Int64("pools", st.Pools), slog.Int64("duration_ms", st.DurationMS), slog.Int64("tip_slot", st.TipSlotNo))
	}
}

func (s *Stats) due(ctx context.Context, network string) (bool, error) {
	db, ok := s.nets[network]
	if !ok {
		return false, fmt.Errorf("network %s not served", network)
	}
	tip, err := db.Tip(ctx)
	if err != nil {
		return false, err
	}
	st, ok, err := s.State(ctx, network)
	if err != nil || !ok {
		return !ok, err
	}
	if st.TipBlockHash == tip.BlockHash {
		return false, nil
	}
	epochChanged := tip.EpochNo != nil && (st.TipEpochNo == nil || *st.TipEpochNo != *tip.EpochNo)
	return refreshDue(s.opts.Now().Sub(st.RefreshedAt), time.Duration(st.DurationMS)*time.Millisecond, s.opts.Interval, epochChanged), nil
}

// Duty cycle: a pass is a set-based read of every delegator's outputs, a
// minute of PostgreSQL work on a 4 M-tx chain and up to half an hour on
// mainnet, so a moving tip may not start one more often than keeps the
// passes to a tenth of the time (to half while db-sync catches up through
// epochs, when every block can start a new one).
const (
	movedTipShare = 10 // a pass at most every 10 durations while blocks arrive
	newEpochShare = 2  // at most every 2 durations when the epoch changed
)

// refreshDue decides from the time since the last pass started and how
// long it took: a new epoch at once (within its duty cycle), a moved tip
// once interval has passed (within its duty cycle).
func refreshDue(sinceStart, lastDuration, interval time.Duration, epochChanged bool) bool {
	if epochChanged {
		return sinceStart >= newEpochShare*lastDuration
	}
	return sinceStart >= max(interval, movedTipShare*lastDuration)
}

// State is a network's last completed refresh.
type State struct {
	RefreshedAt  time.Time `db:"refreshed_at"`
	TipBlockHash string    `db:"tip_block_hash"`
	TipSlotNo    int64     `db:"tip_slot_no"`
	TipEpochNo   *int64    `db:"tip_epoch_no"`
	Delegators   int64     `db:"delegators"`
	Pools        int64     `db:"pools"`
	DurationMS   int64     `db:"duration_ms"`
}

// State returns the network's last completed refresh; ok is false before
// the first one.
func (s *Stats) State(ctx context.Context, network string) (st State, ok bool, err error) {
	return stateOn(ctx, s.admin, network)
}

// stateOn is State on q (the refresher reads it on its own connection).
func stateOn(ctx context.Context, q sqlx.QueryerContext, network string) (st State, ok bool, err error) {
	err = sqlx.GetContext(ctx, q, &st, sqlRefreshGet, network)
	if errors.Is(err, sql.ErrNoRows) {
		return State{}, false, nil
	}
	if err != nil {
		return State{}, false, fmt.Errorf("poolstats.State(%s): %w", network, err)
	}
	return st, true, nil
}

// Refresh recomputes the network's distribution now, unless another
// instance holds the network's refresh lock (ErrBusy) or the stored one
// already reflects the current tip (then it returns that one). The
// db-sync rows stream straight into a COPY; the merge, the summaries and
// the state row are written in one transaction, so readers see the old
// distribution or the new one, never a mix.
func (s *Stats) Refresh(ctx context.Context, network string) (State, error) {
	db, ok := s.nets[network]
	if !ok {
		return State{}, fmt.Errorf("poolstats: network %s not served", network)
	}
	lock := int64(lockBase)
	if n, ok := cardano.NetworkByName(network); ok {
		lock += int64(n.ID)
	}
	conn, err := s.opts.RefreshDB.Connx(ctx)
	if err != nil {
		return State{}, fmt.Errorf("poolstats: %w", err)
	}
	defer conn.Close()
	var got bool
	if err := conn.GetContext(ctx, &got, sqlLock, lock); err != nil {
		return State{}, fmt.Errorf("poolstats: lock: %w", err)
	}
	if !got {
		return State{}, ErrBusy
	}
	defer unlock(ctx, conn, lock)

	// Another instance may have finished a pass while we waited for our turn.
	if tip, err := db.Tip(ctx); err == nil {
		if st, ok, err := stateOn(ctx, conn, network); err == nil && ok && st.TipBlockHash == tip.BlockHash {
			return st, nil
		}
	}
	st, err := s.refresh(ctx, conn, db, network)
	if err != nil {
		return State{}, fmt.Errorf("poolstats.Refresh(%s): %w", network, err)
	}
	return st, nil
}

// unlockTimeout bounds the unlock, which runs even after ctx is cancelled.
const unlockTimeout = 5 * time.Second

// unlock releases the refresh lock taken on conn. The lock belongs to the
// PostgreSQL session, and conn.Close only returns that session to the pool,
// where it would keep the lock (and every instance's refresh would be
// ErrBusy) until the pool happened to close it. So when the unlock fails or
// finds the lock not held, the connection is discarded instead: its session
// ends, and the lock with it.
func unlock(ctx context.Context, conn *sqlx.Conn, lock int64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), unlockTimeout)
	defer cancel()
	var released bool
	if err := conn.GetContext(ctx, &released, sqlUnlock, lock); err != nil || !released {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // database/sql closes a conn reported bad
	}
}

func (s *Stats) refresh(ctx context.Context, conn *sqlx.Conn, db *dbsync.DB, network string) (State, error) {
	start := s.opts.Now()
	tx, err := conn.BeginTxx(ctx, nil)
	if err != nil {
		return State{}, err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after commit
	if _, err := tx.ExecContext(ctx, sqlStageCreate); err != nil {
		return State{}, fmt.Errorf("stage: %w", err)
	}
	copyIn, err := tx.PrepareContext(ctx, pq.CopyIn("pool_stake_stage", "stake_address", "pool_id_hex", "amount", "active_epoch_no"))
	if err != nil {
		return State{}, fmt.Errorf("copy: %w", err)
	}
	var delegators int64
	pools := map[string]struct{}{}
	tip, err := db.PoolStakeAll(ctx, s.opts.Timeout, func(r dbsync.PoolStake) error {
		delegators++
		pools[r.PoolIDHex] = struct{}{}
		_, err := copyIn.ExecContext(ctx, r.StakeAddress, r.PoolIDHex, r.Amount, r.ActiveEpochNo)
		return err
	})
	if err != nil {
		copyIn.Close()
		return State{}, err
	}
	if _, err := copyIn.ExecContext(ctx); err != nil {
		copyIn.Close()
		return State{}, fmt.Errorf("copy: %w", err)
	}
	if err := copyIn.Close(); err != nil {
		return State{}, fmt.Errorf("copy: %w", err)
	}
	for _, step := range []struct {
		name, sql string
		args      []any
	}{
		{"analyze", sqlStageAnalyze, nil},
		{"delete", sqlDeleteGone, []any{network}},
		{"upsert", sqlUpsert, []any{network}},
		{"summary delete", sqlSummaryDelete, []any{network}},
		{"summary insert", sqlSummaryInsert, []any{network, start, tip.SlotNo}},
	} {
		if _, err := tx.ExecContext(ctx, step.sql, step.args...); err != nil {
			return State{}, fmt.Errorf("%s: %w", step.name, err)
		}
	}
	st := State{
		RefreshedAt:  start,
		TipBlockHash: tip.BlockHash,
		TipSlotNo:    tip.SlotNo,
		TipEpochNo:   tip.EpochNo,
		Delegators:   delegators,
		Pools:        int64(len(pools)),
		DurationMS:   s.opts.Now().Sub(start).Milliseconds(),
	}
	if _, err := tx.ExecContext(ctx, sqlRefreshUpsert, network, st.RefreshedAt, st.TipBlockHash, st.TipSlotNo,
		st.TipEpochNo, st.Delegators, st.Pools, st.DurationMS); err != nil {
		return State{}, fmt.Errorf("state: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return State{}, err
	}
	// The rows are stored; stale statistics only slow reads down, so a
	// failure here is logged, not returned.
	if _, err := conn.ExecContext(ctx, sqlAnalyze); err != nil {
		s.opts.Log.Warn("pool stake: analyze after refresh", slog.String("network", network), slog.String("error", err.Error()))
	}
	return st, nil
}

// Summary is one pool's live stake as of the last refresh.
type Summary struct {
	LiveStake      *big.Int
	DelegatorCount int64
	// NetworkLiveStake is every pool's live stake of the same refresh
	// (PoolSummary only; nil from PoolDelegators).
	NetworkLiveStake *big.Int
	RefreshedAt      time.Time
	TipSlotNo        int64
}

type summaryRow struct {
	RefreshedAt    time.Time      `db:"refreshed_at"`
	TipSlotNo      int64          `db:"tip_slot_no"`
	LiveStake      sql.NullString `db:"live_stake"`
	DelegatorCount sql.NullInt64  `db:"delegator_count"`
	NetworkLive    sql.NullString `db:"network_live_stake"`
}

func (r summaryRow) summary() (Summary, error) {
	sum := Summary{LiveStake: new(big.Int), DelegatorCount: r.DelegatorCount.Int64, RefreshedAt: r.RefreshedAt, TipSlotNo: r.TipSlotNo}
	if r.LiveStake.Valid {
		if _, ok := sum.LiveStake.SetString(r.LiveStake.String, 10); !ok {
			return Summary{}, fmt.Errorf("live stake %q is not an integer", r.LiveStake.String)
		}
	}
	if r.NetworkLive.Valid {
		sum.NetworkLiveStake = new(big.Int)
		if _, ok := sum.NetworkLiveStake.SetString(r.NetworkLive.String, 10); !ok {
			return Summary{}, fmt.Errorf("network live stake %q is not an integer", r.NetworkLive.String)
		}
	}
	return sum, nil
}

// PoolSummary returns the pool's stored live stake and delegator count;
// ok is false when no refresh of the network has completed yet.
func (s *Stats) PoolSummary(ctx context.Context, network string, pool cardano.PoolID) (Summary, bool, error) {
	var row summaryRow
	err := s.admin.GetContext(ctx, &row, sqlSummaryGet, network, pool.Hex())
	if errors.Is(err, sql.ErrNoRows) {
		return Summary{}, false, nil
	}
	if err != nil {
		return Summary{}, false, fmt.Errorf("poolstats.PoolSummary(%s): %w", pool, err)
	}
	sum, err := row.summary()
	return sum, err == nil, err
}

// Delegator is one stored delegator of a pool.
type Delegator struct {
	StakeAddress  string `json:"stake_address" db:"stake_address"`
	Amount        string `json:"amount" db:"amount"`
	ActiveEpochNo int64  `json:"active_epoch_no" db:"active_epoch_no"`
}

// PoolDelegators returns one page of the pool's stored delegators and the
// pool's summary, from one statement (one snapshot, one round trip), so
// the page and the total agree; ok is false when no refresh of the network
// has completed yet.
func (s *Stats) PoolDelegators(ctx context.Context, network string, pool cardano.PoolID, limit, offset int) (page []Delegator, sum Summary, ok bool, err error) {
	var row struct {
		summaryRow
		Page string `db:"page"`
	}
	err = s.admin.GetContext(ctx, &row, sqlDelegators, network, pool.Hex(), limit, offset)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, Summary{}, false, nil
	}
	if err != nil {
		return nil, Summary{}, false, fmt.Errorf("poolstats.PoolDelegators(%s): %w", pool, err)
	}
	if sum, err = row.summary(); err != nil {
		return nil, Summary{}, false, err
	}
	page = []Delegator{}
	if err := json.Unmarshal([]byte(row.Page), &page); err != nil {
		return nil, Summary{}, false, fmt.Errorf("poolstats.PoolDelegators(%s): page: %w", pool, err)
	}
	return page, sum, true, nil
}
