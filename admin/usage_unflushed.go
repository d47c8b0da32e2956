package admin

import (
	"time"

	"github.com/google/uuid"
)

// What the quota counters need of the recorder: when Redis has lost a
// user's counter, it is rebuilt from usage_hourly plus what each instance
// has counted and PostgreSQL may not hold yet (Unflushed).

// committedKeep is how long a committed batch is remembered: longer than a
// rebuild takes to reach every instance.
const committedKeep = 2 * time.Minute

type committedBatch struct {
	at     time.Time // wall clock after the commit returned
	counts map[usageBucket]*usageCounts
}

// hold marks b as taken from pending and not known committed; r.mu held.
func (r *UsageRecorder) hold(b *usageBatch) {
	if r.held == nil {
		r.held = map[*usageBatch]bool{}
	}
	r.held[b] = true
}

// sent records that b committed.
func (r *UsageRecorder) sent(b *usageBatch) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.held, b)
	keep := r.committed[:0]
	for _, c := range r.committed {
		if now.Sub(c.at) < committedKeep {
			keep = append(keep, c)
		}
	}
	r.committed = append(keep, committedBatch{at: now, counts: b.counts})
}

// Unflushed is how many requests of the given credentials, in hours from
// since on, this instance has recorded and PostgreSQL may not have held at
// the moment readAt (wall clock, taken before a read of usage_hourly):
// those still in memory, in a flush under way or failed, and those whose
// commit returned after readAt. It may count a request PostgreSQL held
// already (a commit that landed just before the read), never miss one.
func (r *UsageRecorder) Unflushed(creds map[uuid.UUID]bool, since, readAt time.Time) int64 {
	from := since.UTC().Truncate(time.Hour).Unix()
	sum := func(m map[usageBucket]*usageCounts) (n int64) {
		for b, c := range m {
			if b.hour >= from && creds[b.credential] {
				n += c.total
			}
		}
		return n
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := sum(r.pending)
	for b := range r.held {
		n += sum(b.counts)
	}
	for _, c := range r.committed {
		if !c.at.Before(readAt) {
			n += sum(c.counts)
		}
	}
	return n
}
