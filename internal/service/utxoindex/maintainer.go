package utxoindex

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync"
)

// Maintainer defaults: the tip is checked every 2 s (a step follows each
// new block within that), and the index is read while it is at most 30
// blocks behind (beyond, the stake and credential statements would probe
// too many recent transactions; the maintainer normally keeps it Lag
// blocks behind).
const (
	DefaultPoll   = 2 * time.Second
	DefaultMaxLag = 30
)

// MaintainerOptions tunes the Maintainer.
type MaintainerOptions struct {
	Index  Options
	Poll   time.Duration
	MaxLag int64
	Log    *slog.Logger
}

// Maintainer runs in `syncgate serve`: for every served core-mode network
// it keeps the index current (one process per database at a time: the
// others find it busy and skip) and, in every process, switches the
// network's DB to reading the index while it is current, and off when it
// falls behind or db-sync rolls back below it.
type Maintainer struct {
	nets  map[string]*dbsync.DB
	conns map[string]*sqlx.DB
	opts  MaintainerOptions

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// NewMaintainer returns a Maintainer for the networks' DBs; conns holds,
// per network, a small pool of its own on the db-sync primary (it writes
// the index and holds the lock on one connection while it steps).
func NewMaintainer(nets map[string]*dbsync.DB, conns map[string]*sqlx.DB, opts MaintainerOptions) *Maintainer {
	if opts.Poll <= 0 {
		opts.Poll = DefaultPoll
	}
	if opts.MaxLag <= 0 {
		opts.MaxLag = DefaultMaxLag
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Maintainer{nets: nets, conns: conns, opts: opts}
}

// Start runs one loop per network until Stop.
func (m *Maintainer) Start(ctx context.Context) {
	ctx, m.cancel = context.WithCancel(ctx)
	for name, db := range m.nets {
		conn, ok := m.conns[name]
		if !ok {
			continue
		}
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			m.loop(ctx, name, db, conn)
		}()
	}
}

// Stop cancels the loops (a step in flight is rolled back) and waits.
func (m *Maintainer) Stop() {
	if m.cancel != nil {
		m.cancel()
	}
	m.wg.Wait()
}

func (m *Maintainer) loop(ctx context.Context, network string, db *dbsync.DB, conn *sqlx.DB) {
	t := time.NewTicker(m.opts.Poll)
	defer t.Stop()
	w := &watch{m: m, network: network, db: db, conn: conn}
	for {
		if !w.tick(ctx) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// watch is one network's loop state.
type watch struct {
	m       *Maintainer
	network string
	db      *dbsync.DB
	conn    *sqlx.DB
	x       *Index
	lastErr string
	// sweeping: the last step left spends to sweep (logged once).
	sweeping bool
}

// tick steps the index if this process may, then decides whether the DB
// reads it. It reports false when the network needs no index.
func (w *watch) tick(ctx context.Context) bool {
	if !w.db.Ready() {
		return true
	}
	if w.x == nil {
		caps, _ := w.db.Capabilities() // known once Ready
		x, err := ForDB(w.conn, caps, w.m.opts.Index)
		if errors.Is(err, ErrNotNeeded) {
			return false
		}
		if err != nil {
			w.fail(ctx, "cannot prepare the unspent-output index", err)
			return true
		}
		w.x = x
	}
	var last time.Time
	_, err := w.x.CatchUp(ctx, func(r StepResult) {
		if r.Action == "rewound" || r.Action == "reset" {
			w.m.opts.Log.Warn("unspent-output index: db-sync rolled back below it", slog.String("network", w.network),
				slog.String("action", r.Action), slog.Int64("from_tx", r.From), slog.Int64("to_tx", r.To))
		}
		if r.SweepPending && !w.sweeping {
			// A backlog of spends to sweep, usually a window lowered (or
			// another instance maintaining with a lower one): said once,
			// since the marks are gone for good.
			w.m.opts.Log.Warn("unspent-output index: sweeping spends older than its window", slog.String("network", w.network),
				slog.Int64("swept", r.Swept), slog.String("keep_blocks", w.x.opts.keepText()))
		}
		w.sweeping = r.SweepPending
		if time.Since(last) > 30*time.Second && r.Target-r.To > int64(w.x.opts.Batch) {
			last = time.Now()
			w.m.opts.Log.Info("unspent-output index: building", slog.String("network", w.network),
				slog.Int64("tx", r.To), slog.Int64("target_tx", r.Target))
		}
	})
	switch {
	case err == nil, errors.Is(err, ErrBusy):
	case errors.Is(err, ErrReadOnly):
		w.m.opts.Log.Debug("unspent-output index: db-sync primary is a standby; not maintaining", slog.String("network", w.network))
	default:
		w.fail(ctx, "unspent-output index: step failed", err)
	}
	st, err := w.x.Status(ctx)
	if err != nil {
		w.fail(ctx, "unspent-output index: cannot read its status", err)
		w.db.UseSpentIndex(false)
		return true
	}
	w.db.UseSpentIndex(st.Usable(w.m.opts.MaxLag))
	w.db.UseSpentMarks(st.MarksByAddress)
	return true
}

// fail logs err unless it repeats the last one (a database the role
// cannot write to would otherwise log every poll).
func (w *watch) fail(ctx context.Context, msg string, err error) {
	if ctx.Err() != nil || err.Error() == w.lastErr {
		return
	}
	w.lastErr = err.Error()
	w.m.opts.Log.Warn(msg, slog.String("network", w.network), slog.String("error", err.Error()))
}

// ForDB returns the index of a served network's db-sync (whose
// capabilities dbsync detected), on conn; ErrNotNeeded for a layout that
// records spends in tx_out.
func ForDB(conn *sqlx.DB, caps dbsync.Capabilities, opts Options) (*Index, error) {
	if caps.UTxOMode != dbsync.ModeCore || caps.NoOutputs {
		return nil, ErrNotNeeded
	}
	return newIndex(conn, caps.Variant == "address", opts)
}
