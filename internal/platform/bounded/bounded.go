// Package bounded is an in-process map whose entries' total cost (roughly
// their bytes) stays under a bound, for caches and memos that must not
// grow with traffic. When a set would pass the bound, stale entries go
// first, then arbitrary ones (map order), down to three quarters of it, so
// trimming happens once per quarter of the bound rather than on every set.
package bounded

import "sync"

// Map is safe for concurrent use. The zero Map holds nothing; use New.
type Map[K comparable, V any] struct {
	max   int
	stale func(V) bool

	mu   sync.Mutex
	size int
	m    map[K]entry[V]
}

type entry[V any] struct {
	value V
	cost  int
}

// New returns a map bounded at max; stale (may be nil) tells entries that
// are no use any more, which are never returned and are dropped first.
func New[K comparable, V any](max int, stale func(V) bool) *Map[K, V] {
	return &Map[K, V]{max: max, stale: stale, m: map[K]entry[V]{}}
}

// Get returns k's value unless it is missing or stale.
func (b *Map[K, V]) Get(k K) (V, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.m[k]
	if !ok || (b.stale != nil && b.stale(e.value)) {
		var zero V
		return zero, false
	}
	return e.value, true
}

// Set stores v under k at the given cost. A value costing more than a
// quarter of the bound is not kept: it would evict too much to be worth it.
func (b *Map[K, V]) Set(k K, v V, cost int) {
	if b == nil || cost > b.max/4 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if old, ok := b.m[k]; ok {
		b.size -= old.cost
		delete(b.m, k)
	}
	if b.size+cost > b.max {
		b.trim(b.max * 3 / 4)
	}
	b.m[k] = entry[V]{value: v, cost: cost}
	b.size += cost
}

// Size is the entries' total cost; Len their number.
func (b *Map[K, V]) Size() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.size
}

func (b *Map[K, V]) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.m)
}

// trim drops stale entries, then others, until size is at most target.
func (b *Map[K, V]) trim(target int) {
	if b.stale != nil {
		for k, e := range b.m {
			if b.stale(e.value) {
				b.size -= e.cost
				delete(b.m, k)
			}
		}
	}
	for k, e := range b.m {
		if b.size <= target {
			return
		}
		b.size -= e.cost
		delete(b.m, k)
	}
}
