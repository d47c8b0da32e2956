package admin

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"github.com/syncgate/syncgate/internal/metrics"
	sqlfiles "github.com/syncgate/syncgate/sql"
)

// Authentication of data API keys.
//
// Each instance caches, per key hash, what authentication needs (ids,
// network, rate limit, expiry, revoked, user status), so a key seen before
// costs no PostgreSQL query. Every change that can make a key fail
// (revoke, suspend) or work again (reactivate) writes a fresh random token
// under the key's version key in Redis after it commits. Each entry records
// the token it was loaded under; the handlers read the current token in
// the rate limiter's round trip and call ConfirmCredential, which reloads
// the entry when the token moved. So a change is seen on the very next
// request on every instance, for no extra round trip.
//
// Without Redis (none configured, down, or circuit open) an entry is
// trusted for FallbackTTL (5 s) only; with Redis, for CacheTTL (60 s) as a
// safety net against a lost invalidation.

var (
	sqlCredentialByHash = sqlfiles.Must("admin/credential_by_hash.sql")
)

// unverified is the version recorded when Redis could not be read before a
// load. Stored tokens are hex, so it never matches one: the first
// confirmation through Redis reloads the entry.
const unverified = "\x00unverified"

// maxCachedCredentials bounds the cache of known keys, and
// maxNegativeCredentials the separate cache of unknown ones: a flood of
// random keys fills only the latter and can never evict a live key.
const (
	maxCachedCredentials   = 100_000
	maxNegativeCredentials = 100_000
)

// loadTimeout bounds one credential load from PostgreSQL.
const loadTimeout = 5 * time.Second

type credEntry struct {
	found      bool
	caller     Caller
	revoked    bool
	expiresAt  *time.Time
	userStatus string
	version    string
	loadedAt   time.Time
}

type credCache struct {
	mu      sync.RWMutex
	entries map[[32]byte]*credEntry // keys that exist
	missing map[[32]byte]*credEntry // unknown keys (negative cache)
	// gen counts invalidations. A load records it before reading
	// PostgreSQL and installs its entry only if no invalidation came in
	// between: a reload that started before a revoke must not put the
	// pre-revoke entry back after the revoke dropped it.
	gen uint64
	// bounds of entries and missing (tests lower them)
	maxEntries, maxMissing int

	flightMu sync.Mutex
	flights  map[string]*credFlight
}

type credFlight struct {
	done  chan struct{}
	entry *credEntry
	err   error
}

func newCredCache() credCache {
	return credCache{entries: map[[32]byte]*credEntry{}, missing: map[[32]byte]*credEntry{}, flights: map[string]*credFlight{},
		maxEntries: maxCachedCredentials, maxMissing: maxNegativeCredentials}
}

func (c *credCache) get(h [32]byte) *credEntry {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if e := c.entries[h]; e != nil {
		return e
	}
	return c.missing[h]
}

func (c *credCache) generation() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.gen
}

// put installs e unless an invalidation happened since generation gen.
func (c *credCache) put(h [32]byte, e *credEntry, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	if e.found {
		delete(c.missing, h)
		insertBounded(c.entries, h, e, c.maxEntries)
	} else {
		delete(c.entries, h)
		insertBounded(c.missing, h, e, c.maxMissing)
	}
}

// insertBounded adds e to m, first dropping an arbitrary eighth of m (map
// order is random) when m is full: cheap, and a dropped entry only costs
// one reload.
func insertBounded(m map[[32]byte]*credEntry, h [32]byte, e *credEntry, max int) {
	if len(m) >= max {
		n := len(m) / 8
		for k := range m {
			if n == 0 {
				break
			}
			delete(m, k)
			n--
		}
	}
	m[h] = e
}

func (c *credCache) drop(h [32]byte) {
	c.mu.Lock()
	delete(c.entries, h)
	delete(c.missing, h)
	c.gen++
	c.mu.Unlock()
}

// AuthenticateCredential resolves a data API key to its caller, or to
// ErrInvalidKey, ErrKeyRevoked, ErrKeyExpired or ErrUserInactive. A key
// seen before is answered from memory; the handlers then confirm the entry
// with ConfirmCredential once the rate limiter has read its version.
func (s *Store) AuthenticateCredential(ctx context.Context, apiKey string) (Caller, error) {
	if !wellFormed(apiKey, CredentialKeyPrefix) {
		return Caller{}, ErrInvalidKey
	}
	h := sha256.Sum256([]byte(apiKey))
	now := s.now()
	e := s.creds.get(h)
	metrics.CacheLookup("credentials", e != nil && now.Sub(e.loadedAt) < s.opts.CacheTTL)
	switch {
	case e == nil || now.Sub(e.loadedAt) >= s.opts.CacheTTL:
		// Read the version before loading: a change that lands between the
		// two then shows as a version mismatch on the next request.
		v, ok := s.readVersion(ctx, h)
		var err error
		if e, err = s.reload(ctx, h, versionOr(v, ok)); err != nil {
			return Caller{}, err
		}
	case e.found && !e.revoked && e.userStatus != StatusActive:
		// A suspended user's key is refused before the rate limiter runs,
		// so a reactivation is checked here (one GET) rather than there.
		v, ok := s.readVersion(ctx, h)
		if s.stale(e, v, ok, now) {
			var err error
			if e, err = s.reload(ctx, h, versionOr(v, ok)); err != nil {
				return Caller{}, err
			}
		}
	}
	return s.verdict(e, now)
}

// ConfirmCredential re-checks the entry of apiKey against the version the
// rate limiter read from Redis (ok false: Redis could not tell). It
// reloads from PostgreSQL when the version moved, or when Redis could not
// tell and the entry is older than FallbackTTL.
func (s *Store) ConfirmCredential(ctx context.Context, apiKey string, version string, ok bool) (Caller, error) {
	if !wellFormed(apiKey, CredentialKeyPrefix) {
		return Caller{}, ErrInvalidKey
	}
	h := sha256.Sum256([]byte(apiKey))
	now := s.now()
	e := s.creds.get(h)
	if e == nil || s.stale(e, version, ok, now) {
		var err error
		if e, err = s.reload(ctx, h, versionOr(version, ok)); err != nil {
			return Caller{}, err
		}
	}
	return s.verdict(e, now)
}

func (s *Store) stale(e *credEntry, version string, ok bool, now time.Time) bool {
	if ok {
		return version != e.version
	}
	return now.Sub(e.loadedAt) >= s.opts.FallbackTTL
}

func versionOr(v string, ok bool) string {
	if !ok {
		return unverified
	}
	return v
}

// verdict applies the entry's state at now.
func (s *Store) verdict(e *credEntry, now time.Time) (Caller, error) {
	switch {
	case !e.found:
		return Caller{}, ErrInvalidKey
	case e.revoked:
		return Caller{}, ErrKeyRevoked
	case e.expiresAt != nil && !now.Before(*e.expiresAt):
		return Caller{}, ErrKeyExpired
	case e.userStatus != StatusActive:
		return Caller{}, ErrUserInactive
	}
	return e.caller, nil
}

// reload loads the entry of h from PostgreSQL and caches it under version.
// Concurrent reloads of one key under one version share a query; a reload
// under another version never joins an older one (it might predate the
// change that version announces).
func (s *Store) reload(ctx context.Context, h [32]byte, version string) (*credEntry, error) {
	c := &s.creds
	// A reload that starts after an invalidation never joins one that
	// started before it (without Redis the version cannot tell them apart).
	gen := c.generation()
	fkey := string(h[:]) + version + strconv.FormatUint(gen, 10)
	c.flightMu.Lock()
	if f, ok := c.flights[fkey]; ok {
		c.flightMu.Unlock()
		select {
		case <-f.done:
			return f.entry, f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &credFlight{done: make(chan struct{})}
	c.flights[fkey] = f
	c.flightMu.Unlock()

	// The load serves every joiner, so it must not die with the request
	// that happened to start it; it gets a deadline of its own instead,
	// and runs apart, so the request that started it still answers by its
	// own deadline when the database hangs.
	go func() {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadTimeout)
		f.entry, f.err = s.load(lctx, h, version)
		cancel()
		if s.afterLoad != nil {
			s.afterLoad()
		}
		if f.err == nil {
			c.put(h, f.entry, gen)
		}
		close(f.done)
		c.flightMu.Lock()
		delete(c.flights, fkey)
		c.flightMu.Unlock()
	}()
	select {
	case <-f.done:
		return f.entry, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *Store) load(ctx context.Context, h [32]byte, version string) (*credEntry, error) {
	var row struct {
		ID         uuid.UUID  `db:"id"`
		UserID     uuid.UUID  `db:"user_account_id"`
		Prefix     string     `db:"api_key_prefix"`
		NetworkID  int        `db:"network_id"`
		RateLimit  int        `db:"rate_limit_per_minute"`
		ExpiresAt  *time.Time `db:"expires_at"`
		KeyEnds    *time.Time `db:"key_expires_at"` // a rolled credential's previous key
		Revoked    bool       `db:"revoked"`
		UserStatus string     `db:"user_status"`
	}
	e := &credEntry{version: version, loadedAt: s.now()}
	err := s.authDB.GetContext(ctx, &row, sqlCredentialByHash, h[:])
	if errors.Is(err, sql.ErrNoRows) {
		return e, nil // unknown keys are cached too
	}
	if err != nil {
		return nil, wrap("AuthenticateCredential", err)
	}
	e.found, e.revoked, e.expiresAt, e.userStatus = true, row.Revoked, earliest(row.ExpiresAt, row.KeyEnds), row.UserStatus
	e.caller = Caller{
		CredentialID: row.ID, UserAccountID: row.UserID, KeyPrefix: row.Prefix,
		NetworkID: row.NetworkID, RateLimitPerMinute: row.RateLimit, VersionKey: s.versionKey(h),
	}
	return e, nil
}

// earliest is the sooner of two optional ends (nil: none).
func earliest(a, b *time.Time) *time.Time {
	if a == nil || (b != nil && b.Before(*a)) {
		return b
	}
	return a
}

// versionKey is the Redis key announcing changes to the credential with
// key hash h ("" without Redis).
func (s *Store) versionKey(h [32]byte) string {
	if s.fast == nil {
		return ""
	}
	return s.fast.Key("authv", hex.EncodeToString(h[:16]))
}

// readVersion reads h's version token ("" when none); ok is false when
// Redis could not be read.
func (s *Store) readVersion(ctx context.Context, h [32]byte) (string, bool) {
	key := s.versionKey(h)
	if key == "" {
		return "", false
	}
	var v string
	err := s.fast.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) error {
		var err error
		v, err = rdb.Get(ctx, key).Result()
		return err
	})
	switch {
	case err == nil:
		return v, true
	case errors.Is(err, redis.Nil):
		return "", true
	}
	return "", false
}

// invalidate makes every instance reload the given credentials on their
// next request: locally at once, elsewhere through a new version token.
// Called after the change commits, so a reload cannot read the old state
// under the new token. A failed announcement is retried in the background;
// until it lands, other instances see the change within CacheTTL at worst
// (FallbackTTL if Redis is down for them too).
func (s *Store) invalidate(ctx context.Context, hashes ...[]byte) {
	var hs [][32]byte
	for _, b := range hashes {
		var h [32]byte
		if copy(h[:], b) != len(h) {
			continue
		}
		s.creds.drop(h)
		hs = append(hs, h)
	}
	if len(hs) == 0 || s.fast == nil {
		return
	}
	if err := s.announce(context.WithoutCancel(ctx), hs); err != nil {
		s.log.Warn("credential invalidation not announced; will retry", slog.String("error", err.Error()))
		s.touches.retryLater(hs)
	}
}

// announce writes a fresh token under each hash's version key. The keys
// outlive CacheTTL, after which every entry reloads anyway.
func (s *Store) announce(ctx context.Context, hs [][32]byte) error {
	return s.fast.DoNow(ctx, func(ctx context.Context, rdb redis.UniversalClient) error {
		pl := rdb.Pipeline()
		for _, h := range hs {
			b := make([]byte, 8)
			_, _ = rand.Read(b)
			pl.Set(ctx, s.versionKey(h), hex.EncodeToString(b), 2*s.opts.CacheTTL)
		}
		_, err := pl.Exec(ctx)
		return err
	})
}

// touchQueue holds credential invalidations whose announcement failed,
// retried by the background writer. (last_used_at is written by the
// UsageRecorder, in the transaction that adds the counts.)
type touchQueue struct {
	mu    sync.Mutex
	bumps [][32]byte // invalidations still to announce
}

func (q *touchQueue) retryLater(hs [][32]byte) {
	q.mu.Lock()
	q.bumps = append(q.bumps, hs...)
	q.mu.Unlock()
}

func (q *touchQueue) take() (bumps [][32]byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	bumps, q.bumps = q.bumps, nil
	return bumps
}

func (s *Store) touchLoop() {
	defer close(s.done)
	t := time.NewTicker(s.opts.TouchInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.flushBackground()
		case <-s.stop:
			s.flushBackground()
			return
		}
	}
}

func (s *Store) flushBackground() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.flush(ctx); err != nil {
		s.log.Warn("background admin writes failed", slog.String("error", err.Error()))
	}
}

// flush retries unannounced invalidations.
func (s *Store) flush(ctx context.Context) error {
	bumps := s.touches.take()
	if len(bumps) == 0 {
		return nil
	}
	if err := s.announce(ctx, bumps); err != nil {
		s.touches.retryLater(bumps)
		return err
	}
	return nil
}
