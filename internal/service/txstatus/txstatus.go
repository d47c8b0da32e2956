// Package txstatus decides where a transaction is (in a block, in the
// mempool, rolled back, expired, rejected, unknown) from db-sync, the
// node's mempool and the submission log, and submits transactions
// idempotently: a transaction already in the mempool or a block answers
// success without reaching the node again, and concurrent submissions of
// the same bytes reach the node once (per instance always, across
// instances through a Redis lock). Status is the one rule every caller
// uses (GET /v1/tx/status, and later the tx.confirmed webhook).
package txstatus

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Mempool tells whether a network's node holds a transaction in its
// mempool (MempoolAnswer). An error means "cannot tell" (node down, no
// monitor configured): status then says mempool "unavailable".
type Mempool interface {
	Contains(ctx context.Context, network string, hash [32]byte) (MempoolAnswer, error)
}

// MempoolAnswer is the mempool's answer about one transaction.
type MempoolAnswer struct {
	In bool
	// TakenAt is when the snapshot that answered was taken: a transaction
	// the node accepted after that cannot be in it yet.
	TakenAt time.Time
	// Gen numbers the snapshot (node.Snapshot.Gen): a status kept under
	// it is one decided from that very snapshot.
	Gen uint64
}

// Submitter hands a transaction to a network's node (*node.Submitter);
// its errors are node's typed errors.
type Submitter interface {
	Submit(ctx context.Context, network cardano.Network, eraID uint16, tx []byte) error
}

// Chain is a network's db-sync (*dbsync.DB, pinned to one server so that
// its recent tip and its later reads come from the same chain).
type Chain interface {
	TxInChain(ctx context.Context, hash cardano.TxHash) (dbsync.Tip, *dbsync.TxBlock, error)
	RecentTip(ctx context.Context) (dbsync.Tip, error)
}

// Log is the submission log (*admin.Store).
type Log interface {
	RecordSubmission(ctx context.Context, e admin.SubmissionEntry) (time.Time, error)
	AnswerSubmission(ctx context.Context, network string, hash []byte, outcome, reason string, reasonCBOR []byte) error
	SubmissionOf(ctx context.Context, network string, hash []byte) (admin.Submission, error)
	MarkSubmissionSeen(ctx context.Context, network string, hash, blockHash []byte, blockNo, slot int64) (bool, error)
}

// Statuses of a transaction.
const (
	InBlock    = "in_block"
	InMempool  = "in_mempool"
	RolledBack = "rolled_back"
	Expired    = "expired"
	Rejected   = "rejected"
	Unknown    = "unknown"
	// Submitted is a submission's own status: the node accepted it now.
	Submitted = "submitted"
)

// Defaults of Options.
const (
	DefaultMempoolTimeout = time.Second
	DefaultLogTimeout     = 2 * time.Second
	DefaultLockTTL        = 15 * time.Second
)

// Options configures a Service; nil parts degrade: no Mempool (status says
// mempool "unavailable"), no Log (nothing recorded, no rolled_back,
// expired or rejected), no Redis (single flight per instance only).
type Options struct {
	Submitter Submitter
	Mempool   Mempool
	Log       Log
	Redis     *cache.Client
	// MempoolTimeout bounds one mempool question; LogTimeout one log
	// read or write; LockTTL how long a submission lock outlives an
	// instance that died holding it.
	MempoolTimeout time.Duration
	LogTimeout     time.Duration
	LockTTL        time.Duration
	Logger         *slog.Logger
}

// Service submits transactions and tells their status.
type Service struct {
	opts    Options
	log     *slog.Logger
	flights flights
	// statuses are decided statuses under (network, tip, snapshot, log
	// stripe count, hash): status.go.
	statuses *cache.Cache[Status]
	// logGens counts this instance's writes to the submission log, in
	// stripes by transaction hash (logStripe): a status kept under a
	// stripe's count is not answered once a write of that stripe is done.
	logGens [logStripes]atomic.Uint64
}

// New returns a Service.
func New(opts Options) *Service {
	if opts.MempoolTimeout <= 0 {
		opts.MempoolTimeout = DefaultMempoolTimeout
	}
	if opts.LogTimeout <= 0 {
		opts.LogTimeout = DefaultLogTimeout
	}
	if opts.LockTTL <= 0 {
		opts.LockTTL = DefaultLockTTL
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Service{opts: opts, log: opts.Logger, flights: flights{m: map[string]*flight{}, done: map[string]finished{}},
		statuses: cache.NewJSON[Status](nil, "txstatus", cache.Options{TTL: StatusTTL, LocalTTL: StatusTTL, LocalBytes: statusLocalBytes})}
}

// poolAnswer is the mempool's answer: ok is false when it cannot tell;
// takenAt is when the snapshot that answered was taken, gen its number.
type poolAnswer struct {
	in, ok  bool
	takenAt time.Time
	gen     uint64
}

// inMempool asks the mempool with its own bound.
func (s *Service) inMempool(ctx context.Context, network string, hash cardano.TxHash) poolAnswer {
	if s.opts.Mempool == nil {
		return poolAnswer{}
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.MempoolTimeout)
	defer cancel()
	a, err := s.opts.Mempool.Contains(ctx, network, hash)
	if err != nil {
		s.log.Debug("mempool unavailable", slog.String("network", network), slog.String("error", err.Error()))
		return poolAnswer{}
	}
	return poolAnswer{in: a.In, ok: true, takenAt: a.TakenAt, gen: a.Gen}
}

// logCtx is a context for one log read or write: bounded by LogTimeout,
// and not cancelled with the request, so that an answer the node gave is
// recorded even when its client has gone.
func (s *Service) logCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), s.opts.LogTimeout)
}

// markSeen records the block a logged transaction is in (written only when
// it is a block not yet recorded).
func (s *Service) markSeen(ctx context.Context, network string, hash cardano.TxHash, b *dbsync.TxBlock) {
	if s.opts.Log == nil {
		return
	}
	bh, err := cardano.ParseTxHash(b.Hash) // a block hash has a transaction hash's shape
	if err != nil {
		return
	}
	lctx, cancel := s.logCtx(ctx)
	defer cancel()
	defer s.logWritten(hash)
	if _, err := s.opts.Log.MarkSubmissionSeen(lctx, network, hash[:], bh[:], b.BlockNo, b.Slot); err != nil {
		s.log.Warn("submission log: recording a block failed", slog.String("network", network),
			slog.String("tx_hash", hash.String()), slog.String("error", err.Error()))
	}
}
