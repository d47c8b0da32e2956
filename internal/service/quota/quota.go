// Package quota counts each user's requests per UTC day and month against
// its plan's quotas, across every instance, in Redis counters
// (cache.QuotaCounter) that are rebuilt from the usage tables whenever
// Redis has lost them, so that losing Redis never hands out a fresh quota.
//
// Counted is exactly what the usage statistics count: every authenticated
// data request of the user, refused ones (429, 402) included, so a counter
// rebuilt from usage_hourly continues where the lost one stood.
//
// Rebuilding a counter: usage_hourly for the period, plus what the
// rebuilding instance has counted that PostgreSQL may not hold yet (its
// usage recorder's unflushed counts, Unflushed, and requests counted but
// not recorded yet). The rebuilt counter carries a new generation; every
// other instance that counted under the previous one adds its own unflushed
// part once, on its next request for the user (place), if the counter
// still carries that generation: a late answer of a lost counter never
// moves an instance back. Whether a usage flush was seen by the rebuild's
// read is decided exactly, from the read's PostgreSQL snapshot and each
// flush's transaction id. What can be missed:
// the part of an instance that serves the user no further request after
// the loss (it reaches usage_hourly with its next flush, so only a second
// loss would see it), and requests other instances allow while one is
// still adopting (its part, at most what it counted in one flush interval,
// is not yet in the counter).
package quota

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/cache"
)

// Usage reads what usage_hourly holds for a user from an hour on, per
// credential (admin.Store).
type Usage interface {
	UserUsageSince(ctx context.Context, user uuid.UUID, since time.Time) (map[uuid.UUID]int64, string, error)
}

// Unflushed is what this instance's usage recorder has counted that
// PostgreSQL may not hold (admin.UsageRecorder).
type Unflushed interface {
	Unflushed(creds map[uuid.UUID]bool, since time.Time, snapshot string) int64
}

// ErrUnavailable: a counter had to be rebuilt and PostgreSQL could not be
// read; the request is refused rather than counted from zero.
var ErrUnavailable = errors.New("quota: usage unavailable for a rebuild")

// Policy names.
const (
	Daily   = "daily"
	Monthly = "monthly"
)

// Options configures a Service.
type Options struct {
	Counter  *cache.QuotaCounter // nil: per instance only
	Usage    Usage
	Recorder Unflushed // nil: nothing unflushed (tests without usage)
	Now      func() time.Time
	Log      *slog.Logger
	// Notify, when set, is told once per period when a user's count
	// reaches 80 % of a quota (NoticeWarning) and when its first request
	// is refused (NoticeExceeded); it runs off the request's path.
	Notify func(ctx context.Context, user uuid.UUID, notice string, p Policy)
	// Instances is how many instances share the quotas (RATE_LIMIT_INSTANCES;
	// 0: cache.DefaultInstances): while Redis is unavailable each grants
	// only its share of what is left.
	Instances int
	// LocalRefresh is how often a counter kept while Redis is unavailable
	// is read again from usage (0: DefaultLocalRefresh).
	LocalRefresh time.Duration
}

// DefaultLocalRefresh: while Redis is unavailable, each instance reads a
// user's usage again at most this often (one PostgreSQL read per user and
// instance), so it sees what the other instances counted and flushed.
const DefaultLocalRefresh = time.Second

// localCount is a counter kept by this instance while Redis is
// unavailable: base is usage_hourly plus this instance's unflushed counts
// at the last read (at, wall clock), own what it counted since.
type localCount struct {
	base, own int64
	at        time.Time
}

// Quota notices (the event types users receive through their webhooks).
const (
	NoticeWarning  = "quota.warning"
	NoticeExceeded = "quota.exceeded"
)

// noticeTimeout bounds the delivery of one notice to the events store.
const noticeTimeout = 5 * time.Second

// Service checks quotas. One per instance.
type Service struct {
	o   Options
	now func() time.Time

	mu       sync.Mutex
	lastGen  map[string]string         // counter key → generation this instance counts under
	inflight map[string]int64          // key|gen → counted, not yet recorded
	creds    map[uuid.UUID][]uuid.UUID // user → credentials seen (unflushed counts are theirs)
	local    map[string]*localCount    // counters while Redis is unavailable
	owed     map[string]int64          // counted locally, to add to Redis when it is back
	period   string                    // the day the maps were last pruned for

	rebuildMu sync.Mutex // rebuilds and generation changes, one at a time
	// moving marks a counter whose generation change is under way (set
	// when its in-flight count is read, cleared when the change ends):
	// requests counted meanwhile wait for the change instead of joining an
	// in-flight count that was already read.
	moving map[string]bool

	afterCount func() // tests: runs after a count, before its generation is settled
}

// New returns a Service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Instances <= 0 {
		o.Instances = cache.DefaultInstances
	}
	if o.LocalRefresh <= 0 {
		o.LocalRefresh = DefaultLocalRefresh
	}
	return &Service{o: o, now: o.Now, lastGen: map[string]string{}, inflight: map[string]int64{},
		creds: map[uuid.UUID][]uuid.UUID{}, local: map[string]*localCount{}, owed: map[string]int64{}, moving: map[string]bool{}}
}

// Limits are a plan's quotas; 0: none.
type Limits struct{ Daily, Monthly int64 }

// Policy is one quota's state after a request.
type Policy struct {
	Name   string
	Quota  int64
	Used   int64         // this request included
	Window time.Duration // the period's length (a day; this month's days)
	Reset  time.Duration // until the period ends
	// Start and End bound the period (UTC midnights; End is when it resets).
	Start, End time.Time
}

// Remaining is what is left after this request (never negative).
func (p Policy) Remaining() int64 { return max(0, p.Quota-p.Used) }

// Result is a check's outcome. Recorded (or Done) must be called once for
// it, as the request is recorded in usage.
type Result struct {
	Policies []Policy
	// Refused is the first policy the request exceeds; nil: allowed.
	Refused *Policy
	counted []string // key|gen the request was counted under
}

type period struct {
	name       string
	quota      int64
	key        string
	start, end time.Time
}

func (s *Service) periods(user uuid.UUID, lim Limits, now time.Time) []period {
	var ps []period
	if lim.Daily > 0 {
		start := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
		ps = append(ps, period{Daily, lim.Daily, s.o.Counter.Key(user.String(), "d:"+start.Format("2006-01-02")), start, start.AddDate(0, 0, 1)})
	}
	if lim.Monthly > 0 {
		start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		ps = append(ps, period{Monthly, lim.Monthly, s.o.Counter.Key(user.String(), "m:"+start.Format("2006-01")), start, start.AddDate(0, 1, 0)})
	}
	return ps
}

func (p period) policy(used int64, now time.Time) Policy {
	return Policy{Name: p.name, Quota: p.quota, Used: used, Window: p.end.Sub(p.start), Reset: p.end.Sub(now), Start: p.start, End: p.end}
}

// keyTTL keeps a counter a day past its period (clock skew between
// instances; the key names its period, so it is never reused).
func keyTTL(p period, now time.Time) time.Duration {
	return p.end.Sub(now) + 24*time.Hour
}

// Check counts one request of credential cred of user against lim.
func (s *Service) Check(ctx context.Context, user, cred uuid.UUID, lim Limits) (Result, error) {
	now := s.now().UTC()
	ps := s.periods(user, lim, now)
	if len(ps) == 0 {
		return Result{}, nil
	}
	s.noteCredential(user, cred, now)
	qps := make([]cache.QuotaPeriod, len(ps))
	for i, p := range ps {
		qps[i] = cache.QuotaPeriod{Key: p.key, TTL: keyTTL(p, now)}
	}
	for attempt := 0; ; attempt++ {
		before := make([]string, len(ps))
		s.mu.Lock()
		for i, p := range ps {
			before[i] = s.lastGen[p.key]
		}
		s.mu.Unlock()
		states, err := s.o.Counter.Count(ctx, qps)
		if s.afterCount != nil && err == nil {
			s.afterCount()
		}
		var miss *cache.QuotaMissingError
		switch {
		case errors.As(err, &miss) && attempt < 3:
			if err := s.rebuild(ctx, user, ps[miss.Index], qps[miss.Index], before[miss.Index]); err != nil {
				return Result{}, err
			}
			continue
		case err != nil:
			return s.checkLocal(ctx, user, ps, now)
		}
		counts := make([]int64, len(ps))
		counted := make([]string, len(ps))
		for i, st := range states {
			counts[i] = st.Count
			counted[i] = ps[i].key + "|" + s.place(ctx, user, ps[i], st)
		}
		s.settleOwed(ctx, ps, states)
		r := s.result(ps, counts, counted, now)
		s.notices(user, r)
		return r, nil
	}
}

func (s *Service) result(ps []period, counts []int64, counted []string, now time.Time) Result {
	r := Result{Policies: make([]Policy, len(ps)), counted: counted}
	for i, p := range ps {
		r.Policies[i] = p.policy(counts[i], now)
		if r.Refused == nil && counts[i] > p.quota {
			r.Refused = &r.Policies[i]
		}
	}
	return r
}

// Current reads what user has used of lim's quotas, counting nothing: the
// counters Check counts in, so what it reports is what the next request is
// checked against (refused when Used >= Quota). A counter Redis lacks is
// computed as a rebuild would compute it (usage_hourly and this instance's
// unflushed counts) but not created; with Redis unavailable, this
// instance's local count when it has one. Used may exceed Quota: refused
// requests count too.
func (s *Service) Current(ctx context.Context, user uuid.UUID, lim Limits) ([]Policy, error) {
	now := s.now().UTC()
	ps := s.periods(user, lim, now)
	if len(ps) == 0 {
		return nil, nil
	}
	keys := make([]string, len(ps))
	for i, p := range ps {
		keys[i] = p.key
	}
	counts, err := s.o.Counter.Peek(ctx, keys)
	if err != nil {
		counts = nil // Redis unavailable: this instance's view
	}
	out := make([]Policy, len(ps))
	for i, p := range ps {
		s.mu.Lock()
		local, hasLocal := s.local[p.key]
		owed := s.owed[p.key]
		s.mu.Unlock()
		var n int64
		switch {
		case counts != nil && counts[i] >= 0:
			n = counts[i] + owed // owed: counted here in an outage, not yet added
		case counts == nil && hasLocal:
			n = local.base + local.own
		default:
			total, creds, snap, err := s.stored(ctx, user, p)
			if err != nil {
				return nil, err
			}
			n = total + s.pendingHere(user, p, "", creds, snap, false)
		}
		out[i] = p.policy(n, now)
	}
	return out, nil
}

// notices tells Notify about the thresholds this request reached. The
// shared counter is incremented atomically, so exactly one request in the
// deployment sees each count: the one that reaches 80 % of a quota and the
// first one past it. (Counting locally, with Redis gone, each instance may
// notice once; a rebuilt counter may jump over a threshold.)
func (s *Service) notices(user uuid.UUID, r Result) {
	if s.o.Notify == nil {
		return
	}
	for _, p := range r.Policies {
		notice := ""
		switch p.Used {
		case (p.Quota*8 + 9) / 10: // 80 %, rounded up
			notice = NoticeWarning
		case p.Quota + 1:
			notice = NoticeExceeded
		}
		if notice == "" {
			continue
		}
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), noticeTimeout)
			defer cancel()
			s.o.Notify(ctx, user, notice, p)
		}()
	}
}

// Done ends r's request when it is not recorded in usage (or was recorded
// already, which Recorded avoids).
func (s *Service) Done(r Result) { s.Recorded(r, nil) }

// Recorded runs record (the usage recorder's Record of r's request) and
// ends r's request in one step: a rebuild reading what this instance
// counted finds the request either in flight here or in the recorder,
// never both (pendingHere reads the two under the same lock).
func (s *Service) Recorded(r Result, record func()) {
	if len(r.counted) == 0 {
		if record != nil {
			record()
		}
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if record != nil {
		record()
	}
	for _, k := range r.counted {
		if s.inflight[k]--; s.inflight[k] <= 0 {
			delete(s.inflight, k)
		}
	}
}

// noteCredential remembers that user's requests came through cred here,
// and forgets the previous day's bookkeeping at a new day.
func (s *Service) noteCredential(user, cred uuid.UUID, now time.Time) {
	day := now.Format("2006-01-02")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.period != day {
		// Counters of past days are never counted in again; past months'
		// generations go with them (the month's key is re-adopted at most
		// once, harmlessly: its generation is unchanged).
		s.period = day
		clear(s.lastGen)
		clear(s.local)
		if len(s.creds) > 100_000 {
			clear(s.creds)
		}
	}
	for _, c := range s.creds[user] {
		if c == cred {
			return
		}
	}
	s.creds[user] = append(s.creds[user], cred)
}

// pendingHere is what this instance counted for user in p under generation
// gen ("" : none) that a read of usage in snapshot did not see: requests
// in flight and what the recorder holds, read under one lock (Recorded
// moves a request from one to the other under it). It marks p's counter
// as moving when mark is set: the caller, holding rebuildMu, clears the
// mark when done (moved).
func (s *Service) pendingHere(user uuid.UUID, p period, gen string, extra []uuid.UUID, snapshot string, mark bool) int64 {
	set := map[uuid.UUID]bool{}
	for _, c := range extra {
		set[c] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if mark {
		s.moving[p.key] = true
	}
	for _, c := range s.creds[user] {
		set[c] = true
	}
	var n int64
	if gen != "" {
		n = s.inflight[p.key+"|"+gen]
	}
	if s.o.Recorder != nil {
		n += s.o.Recorder.Unflushed(set, p.start, snapshot)
	}
	return n
}

// moved ends a generation change of key (rebuildMu held): to is the new
// generation ("" when it did not happen). The outage counts of this
// instance are in the new one already (the rebuild or the adoption read
// them from the recorder), so they are not owed any more.
func (s *Service) moved(key, to string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.moving, key)
	if to == "" {
		return
	}
	s.lastGen[key] = to
	delete(s.owed, key)
	delete(s.local, key)
}

// rebuild recreates p's counter from usage_hourly and this instance's
// unflushed counts, unless another instance does so first. seen is the
// generation this instance counted under when the counter was found
// missing: if it has moved since (a request of this instance rebuilt or
// adopted the counter meanwhile), the miss is stale and the caller counts
// again without reading PostgreSQL.
func (s *Service) rebuild(ctx context.Context, user uuid.UUID, p period, qp cache.QuotaPeriod, seen string) error {
	s.rebuildMu.Lock()
	defer s.rebuildMu.Unlock()
	s.mu.Lock()
	old := s.lastGen[p.key]
	s.mu.Unlock()
	if old != seen {
		return nil
	}
	total, creds, snap, err := s.stored(ctx, user, p)
	if err != nil {
		return err
	}
	total += s.pendingHere(user, p, old, creds, snap, true)
	gen := uuid.NewString()
	created, err := s.o.Counter.Rebuild(ctx, qp, total, gen, snap)
	if err != nil || !created {
		s.moved(p.key, "")
		return nil // Redis trouble: the next Count falls back to local counting
	}
	s.moved(p.key, gen)
	if old != "" {
		s.o.Log.Info("quota counter rebuilt from usage", slog.String("user_account_id", user.String()),
			slog.String("period", p.name), slog.Int64("count", total))
	}
	return nil
}

// stored reads what usage_hourly holds for user in p.
func (s *Service) stored(ctx context.Context, user uuid.UUID, p period) (total int64, creds []uuid.UUID, snapshot string, err error) {
	if s.o.Usage == nil {
		return 0, nil, "", ErrUnavailable
	}
	rows, snapshot, err := s.o.Usage.UserUsageSince(ctx, user, p.start)
	if err != nil {
		s.o.Log.Warn("quota counter not rebuilt: usage unreadable", slog.String("error", err.Error()))
		return 0, nil, "", ErrUnavailable
	}
	for c, n := range rows {
		total += n
		creds = append(creds, c)
	}
	return total, creds, snapshot, nil
}

// place settles the generation a request counted in st belongs to and
// marks it in flight under that generation, which it returns.
//
// When st is a generation this instance has not counted under, the
// instance adopts it: it first adds what it counted under its own one that
// the rebuild could not see. The add is made only if st's generation is
// still the counter's: a request whose count reached a counter just
// before Redis lost it, and whose goroutine then waited (CPU load) while
// this instance moved to the rebuilt counter, carries the lost
// generation. Adopting that one moved the instance back, and its next
// request adopted the rebuilt counter again, adding all it had counted a
// second time. Such a straggler is counted in the current generation
// instead: no rebuild or adoption could see it (it was neither in flight
// nor recorded then).
func (s *Service) place(ctx context.Context, user uuid.UUID, p period, st cache.QuotaState) string {
	s.mu.Lock()
	cur, seen := s.lastGen[p.key]
	if seen && cur == st.Gen && !s.moving[p.key] {
		s.inflight[p.key+"|"+cur]++
		s.mu.Unlock()
		return cur
	}
	s.mu.Unlock()
	s.rebuildMu.Lock()
	defer s.rebuildMu.Unlock()
	s.mu.Lock()
	cur, seen = s.lastGen[p.key]
	owed := s.owed[p.key] > 0
	if (seen && cur == st.Gen) || (!seen && !owed) {
		// Unchanged, or the first generation this instance counts under
		// (it has counted nothing that the counter could miss).
		s.lastGen[p.key] = st.Gen
		s.inflight[p.key+"|"+st.Gen]++
		s.mu.Unlock()
		return st.Gen
	}
	s.mu.Unlock()
	n := s.pendingHere(user, p, cur, nil, st.Snapshot, true)
	current, err := s.o.Counter.Add(ctx, p.key, st.Gen, n)
	if err != nil {
		// Moving on without the add under-counts by n at most; staying
		// would add it again on the next request if this add went through.
		s.o.Log.Warn("quota counter not topped up", slog.String("error", err.Error()))
		current = true
	}
	if !current && seen {
		s.moved(p.key, "")
		if _, err := s.o.Counter.Add(ctx, p.key, cur, 1); err != nil {
			s.o.Log.Warn("quota counter not topped up", slog.String("error", err.Error()))
		}
		s.mu.Lock()
		s.inflight[p.key+"|"+cur]++
		s.mu.Unlock()
		return cur
	}
	s.moved(p.key, st.Gen)
	s.mu.Lock()
	s.inflight[p.key+"|"+st.Gen]++
	s.mu.Unlock()
	return st.Gen
}

// checkLocal counts in this instance alone while Redis is unavailable
// (down, or its deadline missed under load: then every instance may be
// here at once). A counter starts from usage_hourly plus this instance's
// unflushed counts, never from zero, and is read again every LocalRefresh
// to see what the others flushed; between two reads this instance grants
// only its share (1 / Instances) of what the last read left, so instances
// that all count alone grant what is left once, not once each. What is
// counted here is added to Redis once it answers again (settleOwed).
func (s *Service) checkLocal(ctx context.Context, user uuid.UUID, ps []period, now time.Time) (Result, error) {
	counts := make([]int64, len(ps))
	for i, p := range ps {
		s.mu.Lock()
		lc := s.local[p.key]
		stale := lc == nil || time.Since(lc.at) >= s.o.LocalRefresh
		s.mu.Unlock()
		if stale {
			total, creds, snap, err := s.stored(ctx, user, p)
			if err == nil {
				total += s.pendingHere(user, p, "", creds, snap, false)
			}
			s.mu.Lock()
			switch cur := s.local[p.key]; {
			case err != nil && cur == nil:
				s.mu.Unlock()
				return Result{}, err
			case err == nil && (cur == nil || cur.at.Before(time.Now().Add(-s.o.LocalRefresh))):
				s.local[p.key] = &localCount{base: total, at: time.Now()}
			case cur != nil && err != nil:
				cur.at = time.Now() // PostgreSQL unreadable: keep counting from the last read
			}
			s.mu.Unlock()
		}
		s.mu.Lock()
		lc = s.local[p.key]
		lc.own++
		s.owed[p.key]++
		counts[i] = lc.base + lc.own
		if share := (p.quota - lc.base) / int64(s.o.Instances); lc.own > share {
			counts[i] = max(counts[i], p.quota+1) // this instance's share is spent
		}
		s.mu.Unlock()
	}
	return s.result(ps, counts, nil, now), nil
}

// settleOwed adds to Redis what was counted locally during an outage.
func (s *Service) settleOwed(ctx context.Context, ps []period, states []cache.QuotaState) {
	s.mu.Lock()
	if len(s.owed) == 0 {
		s.mu.Unlock()
		return
	}
	type add struct {
		key, gen string
		n        int64
	}
	var adds []add
	for i, p := range ps {
		if n := s.owed[p.key]; n > 0 {
			adds = append(adds, add{p.key, states[i].Gen, n})
			delete(s.owed, p.key)
			delete(s.local, p.key)
		}
	}
	s.mu.Unlock()
	for _, a := range adds {
		if _, err := s.o.Counter.Add(ctx, a.key, a.gen, a.n); err != nil {
			s.o.Log.Warn("quota counts of an outage not added", slog.String("error", err.Error()))
		}
	}
}
