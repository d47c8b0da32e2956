package cache

import (
	"sync"
	"time"
)

// entryOverhead approximates what one local entry costs besides its key
// and value (map slot, header, expiry).
const entryOverhead = 64

// localStore is a cache's in-process stand-in for Redis while Redis is
// absent or down: encoded values (so callers never share a mutable value
// through it) with an expiry, bounded in bytes. When full it drops expired
// entries, then arbitrary ones (map order), down to three quarters of the
// bound, so trimming happens once per quarter of the bound, not per set.
type localStore struct {
	max int // bytes

	mu   sync.Mutex
	size int
	m    map[string]localEntry
}

type localEntry struct {
	value   []byte
	expires time.Time
}

func cost(key string, value []byte) int { return len(key) + len(value) + entryOverhead }

func (l *localStore) get(key string) ([]byte, reply) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.m[key]
	if !ok || !time.Now().Before(e.expires) {
		return nil, missing
	}
	return e.value, found
}

func (l *localStore) set(key string, value []byte, ttl time.Duration) {
	c := cost(key, value)
	if ttl <= 0 || c > l.max/4 {
		return // not worth evicting a quarter of the store for
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[string]localEntry{}
	}
	if old, ok := l.m[key]; ok {
		l.size -= cost(key, old.value)
		delete(l.m, key)
	}
	if l.size+c > l.max {
		l.trim(l.max * 3 / 4)
	}
	l.m[key] = localEntry{value: value, expires: time.Now().Add(ttl)}
	l.size += c
}

// trim drops expired entries, then others, until size is at most target.
func (l *localStore) trim(target int) {
	now := time.Now()
	for k, e := range l.m {
		if !now.Before(e.expires) {
			l.size -= cost(k, e.value)
			delete(l.m, k)
		}
	}
	for k, e := range l.m {
		if l.size <= target {
			return
		}
		l.size -= cost(k, e.value)
		delete(l.m, k)
	}
}
