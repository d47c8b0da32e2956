package governance

import (
	"bytes"
	"context"
	"fmt"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlCertStamps     = engine.Fixed("dbsync/gov_cert_stamps.sql")
	sqlCertStampsHold = engine.Fixed("dbsync/gov_cert_stamps_hold.sql")
	sqlCertChanges    = engine.Fixed("dbsync/gov_cert_changes.sql")
)

// maxCertChanges: past this many certificates since a delegator list was
// read, reading it whole again is the cheaper way forward.
const maxCertChanges = 5000

// DelegatorList is a DRep's current delegators (stake address ids, in the
// order of their vote delegations: gov_drep_delegators.sql) as of one
// snapshot, with where that snapshot stood in the certificate tables. A
// list of 50,000 delegators takes about 100 ms to read whole; brought
// forward it costs what the certificates since cost, so a DRep's list
// need not be read again at every block.
type DelegatorList struct {
	IDs   []int64
	stamp certStamp
}

type certStamp struct {
	VoteID    int64  `db:"vote_id"`
	VoteHash  []byte `db:"vote_hash"`
	DeregID   int64  `db:"dereg_id"`
	DeregHash []byte `db:"dereg_hash"`
}

type certChange struct {
	Vote bool   `db:"vote"`
	ID   int64  `db:"id"`
	Addr int64  `db:"addr_id"`
	DRep *int64 `db:"drep_hash_id"`
	Hash []byte `db:"hash"`
}

// ReadDelegators reads the DRep's (drep_hash.id) delegator list whole.
func ReadDelegators(ctx context.Context, db *dbsync.DB, drep int64) (DelegatorList, error) {
	var l DelegatorList
	err := db.Reader().ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		var err error
		l, err = readWhole(ctx, tx, drep)
		return err
	})
	if err != nil {
		return DelegatorList{}, fmt.Errorf("governance.ReadDelegators: %w", err)
	}
	return l, nil
}

func readWhole(ctx context.Context, tx *dbsync.Snapshot, drep int64) (DelegatorList, error) {
	l := DelegatorList{IDs: []int64{}}
	if err := tx.GetContext(ctx, &l.stamp, sqlCertStamps); err != nil {
		return l, err
	}
	return l, tx.SelectContext(ctx, &l.IDs, sqlDRepDelegates, drep)
}

// Forward returns the list as of a new snapshot: l moved by the vote
// delegations and deregistrations since it was read, or read whole when a
// rollback removed what l stood on or too many came since. whole says
// which; l itself is not changed (readers may share it).
func (l DelegatorList) Forward(ctx context.Context, db *dbsync.DB, drep int64) (next DelegatorList, whole bool, err error) {
	err = db.Reader().ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		var hold bool
		if err := tx.GetContext(ctx, &hold, sqlCertStampsHold, l.stamp.VoteID, l.stamp.VoteHash, l.stamp.DeregID, l.stamp.DeregHash); err != nil {
			return err
		}
		var changes []certChange
		if hold {
			if err := tx.SelectContext(ctx, &changes, sqlCertChanges, l.stamp.VoteID, l.stamp.DeregID, maxCertChanges+1); err != nil {
				return err
			}
		}
		if whole = !hold || len(changes) > maxCertChanges; whole {
			var err error
			next, err = readWhole(ctx, tx, drep)
			return err
		}
		next = l.apply(changes, drep)
		return nil
	})
	if err != nil {
		return DelegatorList{}, false, fmt.Errorf("governance.DelegatorList.Forward: %w", err)
	}
	return next, whole, nil
}

// apply moves the list by changes (chain order). A stake address's last
// change decides: a vote delegation to the DRep makes it a delegator,
// placed after every older delegation (the list's order); a delegation
// elsewhere or a deregistration ends it.
func (l DelegatorList) apply(changes []certChange, drep int64) DelegatorList {
	next := DelegatorList{stamp: l.stamp}
	last := make(map[int64]int, len(changes)) // address → index of its last change
	for i, c := range changes {
		last[c.Addr] = i
		if c.Vote {
			next.stamp.VoteID, next.stamp.VoteHash = c.ID, bytes.Clone(c.Hash)
		} else {
			next.stamp.DeregID, next.stamp.DeregHash = c.ID, bytes.Clone(c.Hash)
		}
	}
	if len(changes) == 0 {
		next.IDs = l.IDs
		return next
	}
	next.IDs = make([]int64, 0, len(l.IDs)+len(last))
	for _, id := range l.IDs {
		if _, changed := last[id]; !changed {
			next.IDs = append(next.IDs, id)
		}
	}
	for i, c := range changes {
		if last[c.Addr] == i && c.Vote && c.DRep != nil && *c.DRep == drep {
			next.IDs = append(next.IDs, c.Addr)
		}
	}
	return next
}
