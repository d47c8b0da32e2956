// Package delivery pushes decided events to their webhooks' URLs: a river
// job per decision's events (inserted in the transaction that decides
// them) makes each first push, signed (Standard Webhooks or Blockfrost);
// a push that fails gets a job of its own, which retries it with
// exponential backoff for longer than 72 hours, and a webhook that has
// been failing for 72 hours is disabled.
package delivery

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/internal/events"
)

// Defaults.
const (
	// DefaultWorkers is how many pushes one instance makes at once.
	DefaultWorkers = 100
	// FailureWindow is how long a webhook may fail before it is disabled.
	FailureWindow = 72 * time.Hour
	// fetchPoll is how often idle workers look for jobs (river polls:
	// lib/pq gives it no LISTEN), so a new event waits at most this long.
	fetchPoll     = 50 * time.Millisecond
	fetchCooldown = 10 * time.Millisecond
	// jobTimeout bounds one attempt (the push's 10 s and the database
	// around it); rescueAfter is when a job whose instance died is retried.
	jobTimeout  = 30 * time.Second
	rescueAfter = time.Minute
	// stopGrace is how long Stop waits for running jobs after its
	// context ends before cancelling them.
	stopGrace = 5 * time.Second
	// batchMax bounds the pushes one load or record statement serves;
	// batchLoops is how many such statements of each kind run at once.
	batchMax   = 200
	batchLoops = 2
)

// Options configures a Service.
type Options struct {
	DB     *sqlx.DB      // the admin database (migrated: river's tables included)
	Events *events.Store // over the same database
	Sealer *events.Sealer
	// AllowPrivate lets URLs use http and reach private, loopback and
	// link-local addresses (WEBHOOK_ALLOW_PRIVATE; tests and demos only).
	AllowPrivate bool
	Workers      int // 0: DefaultWorkers
	Log          *slog.Logger
	// Now is the clock for signatures, attempt times and the failure
	// window (tests move it); nil means time.Now.
	Now func() time.Time

	// Tests shorten these; zero: the defaults above.
	retry       retryPolicy
	pushTimeout time.Duration
	jobTimeout  time.Duration
	rescueAfter time.Duration
	// noLeader: this client never leads (river's maintenance runs in
	// another), so a test's second client leads at once.
	noLeader bool
}

// Service pushes events. It implements events.Enqueuer.
type Service struct {
	opts   Options
	log    *slog.Logger
	now    func() time.Time
	retry  retryPolicy
	http   httpDoer
	client *river.Client[*sql.Tx]
	// Workers load and record through these: two statements per batch of
	// pushes instead of two per push.
	targets     *batcher[uuid.UUID, *events.PushTarget]
	records     *batcher[events.Attempt, bool]
	stopBatches context.CancelFunc
	// slots bounds the pushes first-push jobs make at once (workers).
	slots                   chan struct{}
	workers                 int
	jobTimeout, pushTimeout time.Duration
}

var _ events.Enqueuer = (*Service)(nil)

// New builds the service; Start runs its workers (EnqueueTx works before).
func New(o Options) (*Service, error) {
	if o.DB == nil || o.Events == nil || o.Sealer == nil {
		return nil, errors.New("delivery: DB, Events and Sealer are required")
	}
	s := &Service{opts: o, log: o.Log, now: o.Now, retry: o.retry}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.retry.attempts == 0 {
		s.retry = defaultRetry
	}
	workers := o.Workers
	if workers <= 0 {
		workers = DefaultWorkers
	}
	s.targets = newBatcher(batchMax, func(ctx context.Context, ids []uuid.UUID) ([]*events.PushTarget, error) {
		m, err := o.Events.PushTargets(ctx, ids)
		if err != nil {
			return nil, err
		}
		out := make([]*events.PushTarget, len(ids))
		for i, id := range ids {
			out[i] = m[id]
		}
		return out, nil
	})
	s.records = newBatcher(batchMax, func(ctx context.Context, as []events.Attempt) ([]bool, error) {
		m, err := o.Events.RecordAttempts(ctx, as)
		if err != nil {
			return nil, err
		}
		out := make([]bool, len(as))
		for i, a := range as {
			out[i] = m[a.EventID]
		}
		return out, nil
	})
	s.workers, s.slots = workers, make(chan struct{}, workers)
	s.jobTimeout, s.pushTimeout = cmpOr(o.jobTimeout, jobTimeout), cmpOr(o.pushTimeout, pushTimeout)
	s.http = newHTTPClient(o.AllowPrivate, s.pushTimeout, workers)
	ws := river.NewWorkers()
	if err := river.AddWorkerSafely(ws, &pushWorker{s: s}); err != nil {
		return nil, fmt.Errorf("delivery: %w", err)
	}
	if err := river.AddWorkerSafely(ws, &firstPushWorker{s: s}); err != nil {
		return nil, fmt.Errorf("delivery: %w", err)
	}
	c, err := river.NewClient(riverdatabasesql.New(o.DB.DB), &river.Config{
		Schema:                 admin.RiverSchema,
		Queues:                 map[string]river.QueueConfig{queue: {MaxWorkers: workers}},
		Workers:                ws,
		PollOnly:               true,
		FetchPollInterval:      fetchPoll,
		FetchCooldown:          fetchCooldown,
		JobTimeout:             s.jobTimeout,
		RescueStuckJobsAfter:   cmpOr(o.rescueAfter, rescueAfter),
		MaxAttempts:            s.retry.attempts,
		LeaderElectionDisabled: o.noLeader,
		Logger:                 slog.New(warnOnly{s.log.Handler()}),
	})
	if err != nil {
		return nil, fmt.Errorf("delivery: %w", err)
	}
	s.client = c
	return s, nil
}

// Start runs the workers until Stop (or ctx's end, which stops softly).
func (s *Service) Start(ctx context.Context) error {
	bctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.targets.start(bctx, batchLoops)
	s.records.start(bctx, batchLoops)
	if err := s.client.Start(ctx); err != nil {
		cancel()
		return fmt.Errorf("delivery: %w", err)
	}
	s.stopBatches = cancel
	return nil
}

// Stop lets running pushes finish until ctx ends, then cancels them
// (their jobs are retried, by this or another instance).
func (s *Service) Stop(ctx context.Context) error {
	// The batches outlive the jobs, which wait on them.
	defer func() {
		if s.stopBatches != nil {
			s.stopBatches()
		}
	}()
	err := s.client.Stop(ctx)
	if err != nil && ctx.Err() != nil {
		hard, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopGrace)
		defer cancel()
		err = s.client.StopAndCancel(hard)
	}
	if err != nil {
		return fmt.Errorf("delivery: stop: %w", err)
	}
	return nil
}

// EnqueueTx schedules a push of every pushed event in tx (the transaction
// that decides them). A push already waiting or running for an event is
// not doubled; one that completed may be made again (redelivery).
func (s *Service) EnqueueTx(ctx context.Context, tx *sql.Tx, evs []events.Decided) error {
	params := pushParams(evs)
	if len(params) == 0 {
		return nil
	}
	if _, err := s.client.InsertManyTx(ctx, tx, params); err != nil {
		return fmt.Errorf("delivery: enqueue: %w", err)
	}
	return nil
}

// EnqueueNewTx schedules the first pushes of events decided in tx: one job
// for up to firstMax of them, not one each (a job row, with river's
// indexes, cost more to write than the event and its delivery together).
// No job can exist for a new event, so river's insert without conflict
// handling and without reading the jobs back serves.
func (s *Service) EnqueueNewTx(ctx context.Context, tx *sql.Tx, evs []events.Decided) error {
	params := firstPushParams(evs)
	if len(params) == 0 {
		return nil
	}
	if _, err := s.client.InsertManyFastTx(ctx, tx, params); err != nil {
		return fmt.Errorf("delivery: enqueue: %w", err)
	}
	return nil
}

func pushParams(evs []events.Decided) []river.InsertManyParams {
	params := make([]river.InsertManyParams, 0, len(evs))
	for _, e := range evs {
		if e.Push {
			params = append(params, river.InsertManyParams{Args: pushArgs{EventID: e.ID, WebhookID: e.WebhookID}})
		}
	}
	return params
}

func cmpOr(v, def time.Duration) time.Duration {
	if v != 0 {
		return v
	}
	return def
}
