package delivery

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/syncgate/syncgate/internal/events"
)

// firstMax bounds the events of one first-push job: a step's events go in
// one job (a scanner step is one statement's worth), a larger decision in
// a few that run side by side.
const firstMax = 500

// firstPushArgs is the first attempt at pushing the events one transaction
// decided: one job for all of them, so deciding an event costs no job row
// of its own. A push that fails is handed to a job of its own (pushArgs),
// which retries it with the backoff.
type firstPushArgs struct {
	EventIDs []uuid.UUID `json:"event_ids"`
}

func (firstPushArgs) Kind() string { return "webhook_first_push" }

// InsertOpts: never unique (its events are new); the attempts bound only
// the job's own failures (the database), each push's retries are its own.
func (firstPushArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: queue}
}

type firstPushWorker struct {
	river.WorkerDefaults[firstPushArgs]
	s *Service
}

func (w *firstPushWorker) Work(ctx context.Context, job *river.Job[firstPushArgs]) error {
	return w.s.pushFirst(ctx, job.Args.EventIDs)
}

// Timeout: the job's pushes run at most workers at a time, each bounded
// by the push timeout, so a job of slow receivers may need several rounds.
func (w *firstPushWorker) Timeout(job *river.Job[firstPushArgs]) time.Duration {
	rounds := (len(job.Args.EventIDs) + w.s.workers - 1) / w.s.workers
	return w.s.jobTimeout + time.Duration(rounds)*w.s.pushTimeout
}

// NextRetry: a job that failed on the database is tried again soon; its
// pushes already made are recorded and not made again.
func (w *firstPushWorker) NextRetry(job *river.Job[firstPushArgs]) time.Time {
	return time.Now().Add(w.s.retry.delay(job.Attempt))
}

// firstPushParams is the first-push jobs of evs' pushed events.
func firstPushParams(evs []events.Decided) []river.InsertManyParams {
	var params []river.InsertManyParams
	var ids []uuid.UUID
	for _, e := range evs {
		if !e.Push {
			continue
		}
		ids = append(ids, e.ID)
		if len(ids) == firstMax {
			params = append(params, river.InsertManyParams{Args: firstPushArgs{EventIDs: ids}})
			ids = nil
		}
	}
	if len(ids) > 0 {
		params = append(params, river.InsertManyParams{Args: firstPushArgs{EventIDs: ids}})
	}
	return params
}

// pushFirst makes the first attempt at each event of ids still owed, up to
// the service's slots at a time, and gives each that did not succeed a
// retry job of its own. It returns an error only when the job itself must
// run again (it was stopped, or the retries could not be written); its
// recorded attempts are then not repeated.
func (s *Service) pushFirst(ctx context.Context, ids []uuid.UUID) error {
	targets, err := s.opts.Events.PushTargets(ctx, ids)
	if err != nil {
		return err
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		retry []river.InsertManyParams
	)
	for _, id := range ids {
		p := targets[id]
		if p == nil || !p.Owed() {
			continue
		}
		if !s.takeSlot(ctx) {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-s.slots; wg.Done() }()
			err := s.attempt(ctx, p)
			if err == nil || ctx.Err() != nil {
				return
			}
			if !errors.Is(err, errPushFailed) {
				s.log.Warn("webhook push handed to its retries", "webhook_id", p.WebhookID.String(), "error", err.Error())
			}
			if r, ok := s.retryParams(p); ok {
				mu.Lock()
				retry = append(retry, r)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if len(retry) > 0 {
		if _, err := s.client.InsertMany(ctx, retry); err != nil {
			return err
		}
	}
	return nil
}

// takeSlot waits for one of the service's push slots; false when ctx
// ended first (then no slot is held: a slot taken is always released by
// the push it was taken for).
func (s *Service) takeSlot(ctx context.Context) bool {
	select {
	case s.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// retryParams is the job that retries p after its first attempt failed:
// due after the first backoff, with the attempts left. false: none left.
func (s *Service) retryParams(p *events.PushTarget) (river.InsertManyParams, bool) {
	made := p.Attempts + 1
	if made >= s.retry.attempts {
		return river.InsertManyParams{}, false
	}
	opts := pushArgs{}.InsertOpts()
	opts.ScheduledAt = time.Now().Add(s.retry.delay(made)) // river's clock
	opts.MaxAttempts = s.retry.attempts - made
	return river.InsertManyParams{Args: pushArgs{EventID: p.EventID, WebhookID: p.WebhookID, Made: made}, InsertOpts: &opts}, true
}
