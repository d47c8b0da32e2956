package auth

import (
	"sync"
	"sync/atomic"
	"time"
)

// maxCachedCredentials bounds the cache of known keys, and
// maxNegativeCredentials the separate cache of unknown ones: a flood of
// random keys fills only the latter and can never evict a live key.
const (
	maxCachedCredentials   = 100_000
	maxNegativeCredentials = 100_000
)

// credEntry is what authentication needs of one key hash.
type credEntry struct {
	found      bool
	caller     Caller
	revoked    bool
	expiresAt  *time.Time
	userStatus string
	version    string
	loadedAt   time.Time
	// vouched is when Redis last showed version unchanged (unix
	// nanoseconds; 0: only the load did). Requests answered from a leased
	// rate-limit slice read no version, so an entry Redis confirmed less
	// than FallbackTTL ago is as good as a fresh one. A pointer, shared by
	// the copies hold makes: entries are never changed in place otherwise.
	vouched *atomic.Int64
	// holdUntil: a reload for age failed (PostgreSQL down or slow), so the
	// entry keeps answering until then without trying again.
	holdUntil time.Time
}

// aged reports whether e is at least ttl old and not held.
func (e *credEntry) aged(now time.Time, ttl time.Duration) bool {
	return now.Sub(e.loadedAt) >= ttl && !now.Before(e.holdUntil)
}

// unvouched reports whether neither the load nor a confirmation through
// Redis happened within ttl, and e is not held.
func (e *credEntry) unvouched(now time.Time, ttl time.Duration) bool {
	if !e.aged(now, ttl) {
		return false
	}
	if e.vouched == nil {
		return true
	}
	v := e.vouched.Load()
	return v == 0 || now.Sub(time.Unix(0, v)) >= ttl
}

// vouch records that Redis showed e's version unchanged at now.
func (e *credEntry) vouch(now time.Time) {
	if e.vouched != nil {
		e.vouched.Store(now.UnixNano())
	}
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

// credFlight is one load from PostgreSQL that concurrent requests share.
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

// dropAll empties the cache (invalidations may have been lost).
func (c *credCache) dropAll() {
	c.mu.Lock()
	clear(c.entries)
	clear(c.missing)
	c.gen++
	c.mu.Unlock()
}

// hold keeps e answering until t, if e is still h's entry (an invalidation
// since has dropped it). It reports whether it did.
func (c *credCache) hold(h [32]byte, e *credEntry, t time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.entries
	if !e.found {
		m = c.missing
	}
	if m[h] != e {
		return false
	}
	held := *e // entries are read without the lock: never change one in place
	held.holdUntil = t
	m[h] = &held
	return true
}
