package delivery

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/syncgate/syncgate/internal/events"
)

func TestRefuseForbiddenAtConnect(t *testing.T) {
	if err := refuseForbidden("tcp", "127.0.0.1:443", nil); err == nil {
		t.Error("loopback allowed")
	}
	if err := refuseForbidden("tcp", "[2606:4700::1111]:443", nil); err != nil {
		t.Error(err)
	}
	if err := refuseForbidden("tcp", "not an address", nil); err == nil {
		t.Error("an unparsable address allowed")
	}
}

// The default retries back off exponentially to an hour and outlast the
// failure window, so a webhook is disabled before its events give up.
func TestDefaultRetryOutlastsFailureWindow(t *testing.T) {
	p := defaultRetry
	if p.delay(1) != 5*time.Second || p.delay(2) != 10*time.Second || p.delay(3) != 20*time.Second || p.delay(50) != time.Hour {
		t.Fatalf("delays %v %v %v %v", p.delay(1), p.delay(2), p.delay(3), p.delay(50))
	}
	if p.span() < FailureWindow+2*time.Hour {
		t.Fatalf("retries last %v", p.span())
	}
}

func TestSignatureFormat(t *testing.T) {
	key := make([]byte, 32)
	// Reference value computed independently (Python hmac) for this input.
	got := signature([][]byte{key}, "msg_1", 1700000000, []byte(`{"a":1}`))
	if got != "v1,HA9nSvEEuynF+mEPWgOAUWbrVA21G6kMzfOt+yEvB3I=" {
		t.Fatalf("signature %q", got)
	}
	two := signature([][]byte{key, {1}}, "msg_1", 1700000000, []byte(`{"a":1}`))
	if two[:len(got)] != got || two[len(got)] != ' ' {
		t.Fatalf("two signatures %q", two)
	}
}

// A decision's pushed events go in one first-push job per firstMax of
// them; events that do not push get none.
func TestFirstPushParams(t *testing.T) {
	var evs []events.Decided
	for i := range 2*firstMax + 1 {
		evs = append(evs, events.Decided{ID: uuid.New(), Push: i%3 != 0})
	}
	params := firstPushParams(evs)
	var got []uuid.UUID
	for _, p := range params {
		got = append(got, p.Args.(firstPushArgs).EventIDs...)
	}
	var want []uuid.UUID
	for _, e := range evs {
		if e.Push {
			want = append(want, e.ID)
		}
	}
	if len(params) != 2 || len(got) != len(want) {
		t.Fatalf("%d jobs for %d pushed events, holding %d", len(params), len(want), len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("event %d is %s, want %s", i, got[i], want[i])
		}
	}
	if firstPushParams([]events.Decided{{ID: uuid.New()}}) != nil {
		t.Fatal("a job for events that do not push")
	}
}

// A first push's retry job counts the attempts made before it: its
// backoff continues the first's, and its attempts end where the policy's do.
func TestRetryParamsContinueTheBackoff(t *testing.T) {
	s := &Service{retry: retryPolicy{base: time.Second, max: time.Minute, attempts: 10}}
	p := &events.PushTarget{EventID: uuid.New(), WebhookID: uuid.New(), Attempts: 2}
	r, ok := s.retryParams(p)
	if !ok {
		t.Fatal("no retry after the third attempt of ten")
	}
	args := r.Args.(pushArgs)
	if args.Made != 3 || r.InsertOpts.MaxAttempts != 7 || r.InsertOpts.Queue != queue {
		t.Fatalf("retry %+v %+v", args, r.InsertOpts)
	}
	if wait := time.Until(r.InsertOpts.ScheduledAt); wait < 3*time.Second || wait > 4*time.Second {
		t.Fatalf("due in %s, want the fourth delay (4 s)", wait)
	}
	w := &pushWorker{s: s}
	if next := time.Until(w.NextRetry(&river.Job[pushArgs]{JobRow: &rivertype.JobRow{Attempt: 1}, Args: args})); next < 7*time.Second || next > 8*time.Second {
		t.Fatalf("the job's first retry in %s, want 8 s", next)
	}
	p.Attempts = 9
	if _, ok := s.retryParams(p); ok {
		t.Fatal("a retry after the last attempt")
	}
}
