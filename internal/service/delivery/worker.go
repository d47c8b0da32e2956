package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/syncgate/syncgate/internal/events"
)

// queue is river's queue for pushes.
const queue = "webhooks"

// pushArgs is one event's push job: a redelivery, or the retries of a
// first push that failed. Made is how many attempts came before the job.
type pushArgs struct {
	EventID   uuid.UUID `json:"event_id" river:"unique"`
	WebhookID uuid.UUID `json:"webhook_id"`
	Made      int       `json:"made,omitempty"`
}

func (pushArgs) Kind() string { return "webhook_push" }

// InsertOpts: one job per event while it is owed (waiting, running or
// retrying); completed jobs do not count, so a redelivery can be queued.
func (pushArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: queue, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateRetryable, rivertype.JobStateScheduled,
	}}}
}

type pushWorker struct {
	river.WorkerDefaults[pushArgs]
	s *Service
}

func (w *pushWorker) Work(ctx context.Context, job *river.Job[pushArgs]) error {
	return w.s.push(ctx, job.Args.EventID)
}

// NextRetry is the service's backoff, on river's clock, counting the
// attempts made before the job.
func (w *pushWorker) NextRetry(job *river.Job[pushArgs]) time.Time {
	return time.Now().Add(w.s.retry.delay(job.Attempt + job.Args.Made))
}

type httpDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// errPushFailed makes river retry a push the receiver did not accept.
var errPushFailed = errors.New("push failed")

// push makes one attempt at delivering event id. It returns nil when the
// delivery is done (delivered, gone, cancelled, or no longer owed) and an
// error to be retried.
func (s *Service) push(ctx context.Context, id uuid.UUID) error {
	p, err := s.targets.do(ctx, id)
	if err != nil {
		return err
	}
	return s.attempt(ctx, p)
}

// attempt makes one attempt at delivering p (nil: gone), as push says.
func (s *Service) attempt(ctx context.Context, p *events.PushTarget) error {
	if p == nil || !p.Owed() {
		return nil
	}
	if !p.Pushes() {
		return s.opts.Events.CancelDelivery(ctx, p.EventID)
	}
	now := s.now()
	keys, err := s.keys(p, now)
	if err != nil {
		// A server key problem, not the receiver's: retried, never counted
		// against the webhook.
		return fmt.Errorf("delivery: webhook %s: %w", p.WebhookID, err)
	}
	a := s.send(ctx, p, keys, now)
	if ctx.Err() != nil {
		// Stopping (or out of time): not the receiver's failure; the job
		// is retried.
		return ctx.Err()
	}
	owed, err := s.records.do(ctx, a)
	if err != nil || !owed {
		return err
	}
	if a.Status != events.DeliveryFailed {
		return nil
	}
	if p.FailingSince != nil && !now.Before(p.FailingSince.Add(FailureWindow)) {
		reason := fmt.Sprintf("deliveries failing for %d hours (last: %s)", int(FailureWindow.Hours()), a.Error)
		disabled, err := s.opts.Events.DisableFailing(ctx, p.WebhookID, reason, now, now.Add(-FailureWindow))
		if err != nil {
			return err
		}
		if disabled {
			s.log.Warn("webhook disabled after failing deliveries", slog.String("webhook_id", p.WebhookID.String()))
			return nil
		}
	}
	return fmt.Errorf("%w: %s", errPushFailed, a.Error)
}

// keys opens the webhook's signing keys: the current one, and the previous
// one while a roll's overlap lasts.
func (s *Service) keys(p *events.PushTarget, now time.Time) ([][]byte, error) {
	k, err := s.opts.Sealer.Open(p.SecretSealed)
	if err != nil {
		return nil, errors.New("signing secret cannot be opened")
	}
	keys := [][]byte{k}
	if p.PreviousSecretSealed != nil && p.PreviousSecretExpiresAt != nil && now.Before(*p.PreviousSecretExpiresAt) {
		prev, err := s.opts.Sealer.Open(p.PreviousSecretSealed)
		if err != nil {
			return nil, errors.New("previous signing secret cannot be opened")
		}
		keys = append(keys, prev)
	}
	return keys, nil
}

// send POSTs the body once and says how it went.
func (s *Service) send(ctx context.Context, p *events.PushTarget, keys [][]byte, now time.Time) events.Attempt {
	a := events.Attempt{EventID: p.EventID, Status: events.DeliveryFailed, At: now}
	u, err := url.Parse(*p.URL)
	if err != nil || u.Host == "" || !(u.Scheme == "https" || u.Scheme == "http" && s.opts.AllowPrivate) {
		a.Error = "URL not allowed: https required"
		return a
	}
	body := []byte(p.Body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		a.Error = "URL not allowed"
		return a
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "syncgate-webhooks")
	// The delivery log keeps what the receiver was asked to verify (an
	// HMAC, not the secret); never logged.
	a.Headers = signatureHeaders(p, keys, now.Unix(), body)
	for _, h := range a.Headers {
		req.Header.Set(h.Name, h.Value)
	}
	start := time.Now()
	resp, err := s.http.Do(req)
	if err != nil {
		a.Latency = time.Since(start)
		a.Error = pushError(err)
		return a
	}
	// Read a little of the answer (so the connection can be reused), never
	// more than maxReadBytes of it.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxReadBytes))
	resp.Body.Close()
	a.Latency = time.Since(start)
	a.Code = resp.StatusCode
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		a.Status = events.DeliverySucceeded
	case resp.StatusCode == http.StatusGone:
		a.Status = events.DeliveryGone
		a.Error = "410 Gone: delivery stopped"
	default:
		a.Error = "HTTP " + strconv.Itoa(resp.StatusCode)
	}
	return a
}

// pushError is what the delivery record says about a push with no
// answer: the cause, without the URL.
func pushError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return "timed out"
		}
		err = ue.Err
	}
	if errors.Is(err, errForbiddenAddress) {
		return errForbiddenAddress.Error()
	}
	msg := err.Error()
	if len(msg) > 500 {
		msg = msg[:500]
	}
	return msg
}
