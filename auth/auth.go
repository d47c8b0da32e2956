// Package auth authenticates data API keys (credentials). Each instance
// caches, per key hash, what authentication needs, so a key seen before
// costs no PostgreSQL query; invalidations carry every change that can
// make a key fail or work again to every instance.
//
// auth reads the admin database (the credential and its user) but owns no
// data: package admin changes credentials and users and calls Invalidate
// once each change has committed. Admin keys are authenticated by admin
// itself, uncached. Files: auth.go (Authenticate, Confirm and loads),
// cache.go (the bounded per-instance cache), invalidate.go (Invalidate
// and the Redis version tokens), listen.go (invalidation through
// PostgreSQL LISTEN/NOTIFY), key.go (key formats).
package auth

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/platform/metrics"
	"github.com/syncgate/syncgate/sql"
)

// How invalidation works.
//
// Every change that can make a key fail (revoke, suspend) or work again
// (reactivate) is announced twice after it commits. In Redis, a fresh
// random token under the key's version key: each entry records the token
// it was loaded under; the handlers read the current token in the rate
// limiter's round trip and call Confirm, which reloads the entry when the
// token moved. The limiter asks Redis once per leased slice of the
// credential's budget: on every request for limits under 160 a minute, so
// a change is seen on the very next request; for larger limits on the
// first request after the slice, at most a second later. And with NOTIFY
// on the admin database (listen.go), which drops the entry on every
// listening instance within milliseconds, Redis or not.
//
// How long an entry is trusted: with Redis confirming it, CacheTTL (60 s,
// a safety net against a lost invalidation); when a request brings no
// word from Redis (a leased slice answered it; or Redis is not configured,
// down, circuit open) but the listener is healthy, CacheTTL too; when
// neither can vouch, FallbackTTL (1 s) since Redis last confirmed it. So
// a change reaches every instance within a second even with Redis down.
//
// An entry that is only old (nothing announced a change) and cannot be
// reloaded because PostgreSQL fails or is slow keeps answering, FallbackTTL
// at a time between attempts: changes are made in that same database, so
// none can be made while it is down. A key this instance has not cached
// cannot be checked then (503).

var sqlCredentialByHash = sqlfiles.Must("admin/credential_by_hash.sql")

// Credential-cache freshness (the rule: a key seen before costs no
// PostgreSQL query, yet revocation takes effect on the next request;
// docs/DECISIONS.md "Credential cache and invalidation").
const (
	// defaultCacheTTL bounds how long an entry lives even while Redis
	// confirms it on every request: a safety net for a lost invalidation.
	defaultCacheTTL = 60 * time.Second
	// defaultFallbackTTL is how long an entry is trusted when neither
	// Redis nor the listener can vouch for it: the worst-case delay before
	// a change made on another instance is seen then.
	defaultFallbackTTL = time.Second
	// defaultRetryInterval is how often failed invalidation announcements
	// are retried.
	defaultRetryInterval = 10 * time.Second
)

// loadTimeout bounds one credential load from PostgreSQL.
const loadTimeout = 5 * time.Second

// staleWait is how long a request whose entry is only old waits for its
// reload; past that, or when the reload fails, the entry answers for
// FallbackTTL more before the next attempt.
const staleWait = 100 * time.Millisecond

// userActive is user_accounts.status of a user whose keys work.
const userActive = "active"

// Caller is the authenticated owner of a data API key (a credential).
type Caller struct {
	CredentialID       uuid.UUID
	UserAccountID      uuid.UUID
	KeyPrefix          string
	NetworkID          int
	RateLimitPerMinute int
	// VersionKey is the Redis key whose value changes whenever this
	// credential's state changes (revoke, suspend, reactivate). The rate
	// limiter reads it in its own round trip and hands the value to
	// Authenticator.Confirm; "" when there is no Redis.
	VersionKey string
	// Plan is the user's plan; nil: none. A plan change invalidates the
	// keys of its users, so it reaches them as a revocation would.
	Plan *Plan
	// Filters are the credential's access filters (allowed IPs, origins,
	// route groups); a change invalidates the key like a revocation.
	Filters *Filters
}

// Plan is what the request path needs of a user's plan.
type Plan struct {
	ID   uuid.UUID
	Name string
	// RateLimitPerMinute and Burst apply to the user's credentials created
	// without a limit of their own (Caller.RateLimitPerMinute is then the
	// plan's already); Burst 0: the per-minute limit.
	RateLimitPerMinute int
	Burst              int
	// DailyQuota and MonthlyQuota: requests per UTC day and month; 0: none.
	DailyQuota   int64
	MonthlyQuota int64
	// RouteGroups the user may call.
	RouteGroups []string
	// RateFromPlan: the credential has no limit of its own.
	RateFromPlan bool
}

// Allows reports whether the plan includes route group g.
func (p *Plan) Allows(g string) bool {
	for _, x := range p.RouteGroups {
		if x == g {
			return true
		}
	}
	return false
}

// Authentication failures (DECISIONS.md messages are attached by the
// handlers). ErrInvalidKey also answers an unknown admin key.
var (
	ErrInvalidKey   = errors.New("auth: invalid api key")
	ErrKeyRevoked   = errors.New("auth: api key revoked")
	ErrKeyExpired   = errors.New("auth: api key expired")
	ErrUserInactive = errors.New("auth: user account not active")
	// ErrUnavailable: the key is not cached and the admin schema is not
	// migrated yet (the service started without its database).
	ErrUnavailable = errors.New("auth: admin database unavailable")
)

// Options configures an Authenticator.
type Options struct {
	// DB is the admin database. serve gives it a small pool of its own, so
	// slow admin queries holding the main pool cannot stall data requests.
	DB *sqlx.DB
	// Redis carries invalidations between instances on the hot path (nil:
	// none).
	Redis *cache.FastClient
	// ListenURL is the admin database's URL, for a LISTEN connection of
	// its own: invalidations then also arrive through PostgreSQL ("": they
	// are still sent, but this instance does not listen).
	ListenURL string
	Log       *slog.Logger
	// Now is the clock (tests move it); nil means time.Now.
	Now         func() time.Time
	CacheTTL    time.Duration
	FallbackTTL time.Duration
	// RetryInterval is how often announcements that failed are retried.
	RetryInterval time.Duration
	// Ready reports whether the admin schema is migrated; loads fail with
	// ErrUnavailable until it is (nil: always).
	Ready func() bool
}

// Authenticator resolves data API keys to callers through the cache.
type Authenticator struct {
	db    *sqlx.DB
	opts  Options
	log   *slog.Logger
	now   func() time.Time
	fast  *cache.FastClient
	creds credCache
	retry retryQueue
	// health of the listener; nil without ListenURL.
	health           *listenHealth
	heartbeatChannel string
	// afterLoad, when set (tests), runs between a credential load and its
	// installation in the cache.
	afterLoad func()

	closeOnce  sync.Once
	stop       chan struct{}
	done       chan struct{}
	listenDone chan struct{}
}

// New returns an Authenticator and starts the background retrier of
// invalidation announcements and, with ListenURL, the listener; Close
// stops them.
func New(opts Options) *Authenticator {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.CacheTTL <= 0 {
		opts.CacheTTL = defaultCacheTTL
	}
	if opts.FallbackTTL <= 0 {
		opts.FallbackTTL = defaultFallbackTTL
	}
	if opts.RetryInterval <= 0 {
		opts.RetryInterval = defaultRetryInterval
	}
	a := &Authenticator{
		db: opts.DB, opts: opts, log: opts.Log, now: opts.Now, fast: opts.Redis,
		creds:      newCredCache(),
		stop:       make(chan struct{}),
		done:       make(chan struct{}),
		listenDone: make(chan struct{}),
	}
	go a.retryLoop()
	if opts.ListenURL != "" && opts.DB != nil {
		a.health = &listenHealth{}
		a.heartbeatChannel = "syncgate_auth_heartbeat_" + randomHex(8)
		go a.listen()
	} else {
		close(a.listenDone)
	}
	return a
}

// Close stops the listener, and the background retrier after a last
// attempt.
func (a *Authenticator) Close() {
	a.closeOnce.Do(func() {
		close(a.stop)
		<-a.listenDone
		<-a.done
	})
}

// unverified is the version recorded when Redis could not be read before a
// load. Stored tokens are hex, so it never matches one: the first
// confirmation through Redis reloads the entry.
const unverified = "\x00unverified"

// Authenticate resolves a data API key to its caller, or to ErrInvalidKey,
// ErrKeyRevoked, ErrKeyExpired or ErrUserInactive. A key seen before is
// answered from memory; the handlers then confirm the entry with Confirm
// once the rate limiter has read its version.
func (a *Authenticator) Authenticate(ctx context.Context, apiKey string) (Caller, error) {
	if !WellFormed(apiKey, CredentialKeyPrefix) {
		return Caller{}, ErrInvalidKey
	}
	h := sha256.Sum256([]byte(apiKey))
	now := a.now()
	e := a.creds.get(h)
	metrics.CacheLookup("credentials", e != nil && !e.aged(now, a.opts.CacheTTL))
	switch {
	case e == nil || e.aged(now, a.opts.CacheTTL):
		// Read the version before loading: a change that lands between the
		// two then shows as a version mismatch on the next request.
		v, ok := a.readVersion(ctx, h)
		var err error
		if e, err = a.renew(ctx, h, e, v, ok, now); err != nil {
			return Caller{}, err
		}
	case e.found && !e.revoked && e.userStatus != userActive:
		// A suspended user's key is refused before the rate limiter runs,
		// so a reactivation is checked here (one GET) rather than there.
		v, ok := a.readVersion(ctx, h)
		if a.stale(e, v, ok, now) {
			var err error
			if e, err = a.renew(ctx, h, e, v, ok, now); err != nil {
				return Caller{}, err
			}
		}
	}
	return verdict(e, now)
}

// Confirm re-checks the entry of apiKey against the version the rate
// limiter read from Redis (ok false: Redis could not tell). It reloads
// from PostgreSQL when the version moved, or when Redis could not tell and
// the entry is older than FallbackTTL.
func (a *Authenticator) Confirm(ctx context.Context, apiKey string, version string, ok bool) (Caller, error) {
	if !WellFormed(apiKey, CredentialKeyPrefix) {
		return Caller{}, ErrInvalidKey
	}
	h := sha256.Sum256([]byte(apiKey))
	now := a.now()
	e := a.creds.get(h)
	if e == nil || a.stale(e, version, ok, now) {
		var err error
		if e, err = a.renew(ctx, h, e, version, ok, now); err != nil {
			return Caller{}, err
		}
	}
	return verdict(e, now)
}

// stale reports whether e must be reloaded, given the version Redis
// announces (ok false: Redis could not tell, or was not asked because the
// rate limiter answered from a leased slice).
func (a *Authenticator) stale(e *credEntry, version string, ok bool, now time.Time) bool {
	switch {
	case ok:
		if version != e.version {
			return true
		}
		e.vouch(now)
		return false
	case a.Listening():
		return e.aged(now, a.opts.CacheTTL)
	}
	return e.unvouched(now, a.opts.FallbackTTL)
}

// renew replaces e (nil: none cached) by a fresh load under the version
// Redis announced (ok false: Redis could not tell). When e is merely old
// (no other version announced) and PostgreSQL does not answer within
// staleWait, e answers for FallbackTTL more instead of failing the request.
func (a *Authenticator) renew(ctx context.Context, h [32]byte, e *credEntry, version string, ok bool, now time.Time) (*credEntry, error) {
	f := a.flight(ctx, h, versionOr(version, ok))
	if e == nil || (ok && version != e.version) {
		return a.await(ctx, f)
	}
	wait := time.NewTimer(staleWait)
	defer wait.Stop()
	select {
	case <-f.done:
		if f.err == nil {
			return f.entry, nil
		}
	case <-wait.C:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if a.creds.hold(h, e, now.Add(a.opts.FallbackTTL)) {
		return e, nil
	}
	if cur := a.creds.get(h); cur != nil {
		return cur, nil // the reload landed meanwhile
	}
	return a.await(ctx, f) // an invalidation dropped e: only PostgreSQL can tell
}

func versionOr(v string, ok bool) string {
	if !ok {
		return unverified
	}
	return v
}

// verdict applies the entry's state at now.
func verdict(e *credEntry, now time.Time) (Caller, error) {
	switch {
	case !e.found:
		return Caller{}, ErrInvalidKey
	case e.revoked:
		return Caller{}, ErrKeyRevoked
	case e.expiresAt != nil && !now.Before(*e.expiresAt):
		return Caller{}, ErrKeyExpired
	case e.userStatus != userActive:
		return Caller{}, ErrUserInactive
	}
	return e.caller, nil
}

// flight returns the load of h from PostgreSQL under version, starting
// it unless one is running; the load caches its entry under version.
// Concurrent reloads of one key under one version share a query; a reload
// under another version never joins an older one (it might predate the
// change that version announces).
func (a *Authenticator) flight(ctx context.Context, h [32]byte, version string) *credFlight {
	c := &a.creds
	// A reload that starts after an invalidation never joins one that
	// started before it (without Redis the version cannot tell them apart).
	gen := c.generation()
	fkey := string(h[:]) + version + strconv.FormatUint(gen, 10)
	c.flightMu.Lock()
	defer c.flightMu.Unlock()
	if f, ok := c.flights[fkey]; ok {
		return f
	}
	f := &credFlight{done: make(chan struct{})}
	c.flights[fkey] = f
	// The load serves every joiner, so it must not die with the request
	// that happened to start it; it gets a deadline of its own instead.
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadTimeout)
	go func() {
		f.entry, f.err = a.load(lctx, h, version)
		cancel()
		if a.afterLoad != nil {
			a.afterLoad()
		}
		if f.err == nil {
			c.put(h, f.entry, gen)
		}
		c.flightMu.Lock()
		delete(c.flights, fkey)
		c.flightMu.Unlock()
		close(f.done)
	}()
	return f
}

// await waits for f, or for the end of ctx.
func (a *Authenticator) await(ctx context.Context, f *credFlight) (*credEntry, error) {
	select {
	case <-f.done:
		return f.entry, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (a *Authenticator) load(ctx context.Context, h [32]byte, version string) (*credEntry, error) {
	var row struct {
		ID         uuid.UUID      `db:"id"`
		UserID     uuid.UUID      `db:"user_account_id"`
		Prefix     string         `db:"api_key_prefix"`
		NetworkID  int            `db:"network_id"`
		RateLimit  int            `db:"rate_limit_per_minute"`
		ExpiresAt  *time.Time     `db:"expires_at"`
		KeyEnds    *time.Time     `db:"key_expires_at"` // a rolled credential's previous key
		Revoked    bool           `db:"revoked"`
		UserStatus string         `db:"user_status"`
		RateSet    bool           `db:"rate_limit_explicit"`
		PlanID     *uuid.UUID     `db:"plan_id"`
		PlanName   *string        `db:"plan_name"`
		PlanRate   *int           `db:"plan_rate_limit"`
		PlanBurst  *int           `db:"plan_burst"`
		PlanDaily  *int64         `db:"plan_daily_quota"`
		PlanMonth  *int64         `db:"plan_monthly_quota"`
		PlanGroups pq.StringArray `db:"plan_route_groups"`
		IPs        pq.StringArray `db:"allowed_ips"`
		Origins    pq.StringArray `db:"allowed_origins"`
		Groups     pq.StringArray `db:"allowed_route_groups"`
	}
	if a.opts.Ready != nil && !a.opts.Ready() {
		return nil, ErrUnavailable
	}
	e := &credEntry{version: version, loadedAt: a.now(), vouched: new(atomic.Int64)}
	err := a.db.GetContext(ctx, &row, sqlCredentialByHash, h[:])
	if errors.Is(err, sql.ErrNoRows) {
		return e, nil // unknown keys are cached too
	}
	if err != nil {
		return nil, fmt.Errorf("auth: load credential: %w", err)
	}
	e.found, e.revoked, e.expiresAt, e.userStatus = true, row.Revoked, earliest(row.ExpiresAt, row.KeyEnds), row.UserStatus
	e.caller = Caller{
		CredentialID: row.ID, UserAccountID: row.UserID, KeyPrefix: row.Prefix,
		NetworkID: row.NetworkID, RateLimitPerMinute: row.RateLimit, VersionKey: a.versionKey(h),
	}
	if len(row.IPs)+len(row.Origins)+len(row.Groups) > 0 {
		f := NewFilters(row.IPs, row.Origins, row.Groups)
		e.caller.Filters = &f
	}
	if row.PlanID != nil {
		p := &Plan{ID: *row.PlanID, RouteGroups: row.PlanGroups, RateFromPlan: !row.RateSet}
		p.Name = deref(row.PlanName)
		p.RateLimitPerMinute, p.Burst = deref(row.PlanRate), deref(row.PlanBurst)
		p.DailyQuota, p.MonthlyQuota = deref(row.PlanDaily), deref(row.PlanMonth)
		if p.RateFromPlan && p.RateLimitPerMinute > 0 {
			e.caller.RateLimitPerMinute = p.RateLimitPerMinute
		}
		e.caller.Plan = p
	}
	return e, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// earliest is the sooner of two optional ends (nil: none).
func earliest(a, b *time.Time) *time.Time {
	if a == nil || (b != nil && b.Before(*a)) {
		return b
	}
	return a
}
