package cache

import (
	"sync"
	"time"

	"github.com/syncgate/syncgate/internal/platform/bounded"
)

// entryOverhead approximates what one local entry costs besides its key
// and value (map slot, header, expiry).
const entryOverhead = 64

// localStore is a cache's in-process stand-in for Redis while Redis is
// absent or down: encoded values (so callers never share a mutable value
// through it) with an expiry, bounded in bytes (expired entries are
// dropped first when it is full).
type localStore struct {
	max int // bytes

	once sync.Once
	m    *bounded.Map[string, localEntry]
}

type localEntry struct {
	value   []byte
	expires time.Time
}

func cost(key string, value []byte) int { return len(key) + len(value) + entryOverhead }

func expired(e localEntry) bool { return !time.Now().Before(e.expires) }

func (l *localStore) store() *bounded.Map[string, localEntry] {
	l.once.Do(func() { l.m = bounded.New[string, localEntry](l.max, expired) })
	return l.m
}

func (l *localStore) get(key string) ([]byte, reply) {
	e, ok := l.store().Get(key)
	if !ok {
		return nil, missing
	}
	return e.value, found
}

func (l *localStore) set(key string, value []byte, ttl time.Duration) {
	if ttl <= 0 {
		return
	}
	l.store().Set(key, localEntry{value: value, expires: time.Now().Add(ttl)}, cost(key, value))
}
