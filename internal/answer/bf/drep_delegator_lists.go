package bf

import (
	"context"
	"strconv"
	"sync"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/governance"
)

// delegatorBudget bounds the stake address ids held for all DReps (8
// bytes each): past it the least recently asked DRep's list goes first.
const delegatorBudget = 2_000_000

// delegatorLists keeps each DRep's delegator list in process: read whole
// once, then brought forward to each newer snapshot by the certificates
// since (governance.DelegatorList.Forward), so a DRep with 50,000
// delegators (100 ms to read whole) is not read again at every block.
// Per instance, as the history anchors are.
type delegatorLists struct {
	mu    sync.Mutex
	lists map[string]*delegatorList
	ids   int
	clock uint64
}

type delegatorList struct {
	mu   sync.Mutex // one read or forward at a time per DRep
	list governance.DelegatorList
	read bool
	used uint64
	size int
}

// at returns the DRep's (drep_hash.id) delegators as of a snapshot at
// least as new as any read before it on this instance (the caller's
// slice: not to be changed).
func (d *delegatorLists) at(ctx context.Context, db *dbsync.DB, drep int64) ([]int64, error) {
	key := db.Network.Name + ":" + strconv.FormatInt(drep, 10)
	d.mu.Lock()
	if d.lists == nil {
		d.lists = map[string]*delegatorList{}
	}
	e := d.lists[key]
	if e == nil {
		e = &delegatorList{}
		d.lists[key] = e
	}
	d.clock++
	e.used = d.clock
	d.mu.Unlock()

	e.mu.Lock()
	defer e.mu.Unlock()
	var next governance.DelegatorList
	var err error
	if e.read {
		next, _, err = e.list.Forward(ctx, db, drep)
	} else {
		next, err = governance.ReadDelegators(ctx, db, drep)
	}
	if err != nil {
		return nil, err
	}
	e.list, e.read = next, true
	d.account(key, e, len(next.IDs))
	return next.IDs, nil
}

// account records e's new size and forgets the least recently asked
// lists while the budget is exceeded (never the one just read).
func (d *delegatorLists) account(key string, e *delegatorList, size int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lists[key] != e {
		return // forgotten meanwhile
	}
	d.ids += size - e.size
	e.size = size
	for d.ids > delegatorBudget && len(d.lists) > 1 {
		var oldest string
		for k, l := range d.lists {
			if k != key && (oldest == "" || l.used < d.lists[oldest].used) {
				oldest = k
			}
		}
		d.ids -= d.lists[oldest].size
		delete(d.lists, oldest)
	}
}
