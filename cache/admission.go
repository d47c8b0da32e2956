package cache

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// Admission decides which answers are worth storing: those asked for a
// second time. Keys name the chain tip, and a partner polling tens of
// thousands of addresses once a block asks for each key once; storing
// every such answer in Redis cost a round trip and memory for nothing.
// A key is remembered (not its value) in a pair of bit sets, three bits a
// key: the current set takes new keys, and when it has taken admissionKeys
// keys the older set is cleared and the two swap, so a key is remembered
// for at least admissionKeys later keys, in 1 MiB whatever the traffic. A
// false "seen" (about 3 % when a set is full) only stores an answer that
// would not have been.
type Admission struct {
	seed maphash.Seed

	mu   sync.Mutex // held to swap the sets
	cur  atomic.Pointer[bitSet]
	prev atomic.Pointer[bitSet]
}

const (
	admissionBits = 1 << 22 // per set: 512 kB
	admissionKeys = admissionBits / 8
)

type bitSet struct {
	words [admissionBits / 64]atomic.Uint64
	added atomic.Int64
}

// NewAdmission returns an empty admission rule.
func NewAdmission() *Admission {
	a := &Admission{seed: maphash.MakeSeed()}
	a.cur.Store(new(bitSet))
	a.prev.Store(new(bitSet))
	return a
}

// Again reports whether key was asked for before (within the window) and
// remembers that it is asked for now. A nil Admission admits every key.
func (a *Admission) Again(key string) bool {
	if a == nil {
		return true
	}
	h := maphash.String(a.seed, key)
	bits := [3]uint64{h % admissionBits, (h >> 21) % admissionBits, (h >> 42) % admissionBits}
	cur, prev := a.cur.Load(), a.prev.Load()
	if cur.has(bits) || prev.has(bits) {
		return true
	}
	for _, b := range bits {
		cur.words[b/64].Or(1 << (b % 64))
	}
	if cur.added.Add(1) >= admissionKeys {
		a.swap(cur)
	}
	return false
}

func (s *bitSet) has(bits [3]uint64) bool {
	for _, b := range bits {
		if s.words[b/64].Load()&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

// swap makes full the older set and a cleared one the current set.
func (a *Admission) swap(full *bitSet) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur.Load() != full { // another caller swapped it already
		return
	}
	old := a.prev.Load()
	for i := range old.words {
		old.words[i].Store(0)
	}
	old.added.Store(0)
	a.prev.Store(full)
	a.cur.Store(old)
}
