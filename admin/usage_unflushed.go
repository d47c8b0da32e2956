package admin

import (
	"strconv"
	"strings"
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
	xid    int64
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
	r.committed = append(keep, committedBatch{at: now, xid: b.xid.Load(), counts: b.counts})
}

// Unflushed is how many requests of the given credentials, in hours from
// since on, this instance has recorded that a read of usage_hourly in
// snapshot (txid_current_snapshot text) did not see: those still in
// memory, and flushes (under way, failed or committed) whose transaction
// the snapshot does not show as committed. Exact: a flush is counted by
// the read or here, never both.
func (r *UsageRecorder) Unflushed(creds map[uuid.UUID]bool, since time.Time, snapshot string) int64 {
	seen := parseSnapshot(snapshot)
	from := since.UTC().Truncate(time.Hour).Unix()
	sum := func(m map[usageBucket]*usageCounts) (n int64) {
		for b, c := range m {
			if b.hour >= from && creds[b.credential] {
				n += c.total()
			}
		}
		return n
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := sum(r.pending)
	for b := range r.held {
		if x := b.xid.Load(); x == 0 || !seen(x) {
			n += sum(b.counts)
		}
	}
	for _, c := range r.committed {
		if !seen(c.xid) {
			n += sum(c.counts)
		}
	}
	return n
}

// parseSnapshot returns whether a transaction id is visible (committed
// before) in a txid_current_snapshot text "xmin:xmax:xip,…". An unreadable
// snapshot sees nothing (counting a flush twice rather than not at all).
func parseSnapshot(s string) func(xid int64) bool {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return func(int64) bool { return false }
	}
	xmin, err1 := strconv.ParseInt(parts[0], 10, 64)
	xmax, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil {
		return func(int64) bool { return false }
	}
	inProgress := map[int64]bool{}
	if parts[2] != "" {
		for _, x := range strings.Split(parts[2], ",") {
			n, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				return func(int64) bool { return false }
			}
			inProgress[n] = true
		}
	}
	return func(xid int64) bool {
		return xid != 0 && (xid < xmin || (xid < xmax && !inProgress[xid]))
	}
}
