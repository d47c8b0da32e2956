package chaingen

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// FollowOptions controls a chain follower (Follow, NewFollower): how fast
// the chain moves, what its blocks carry, and when it rolls back.
type FollowOptions struct {
	// Interval is the wall-clock pause between two blocks (Follow only;
	// Follower.Step never waits). Zero appends blocks back to back.
	Interval time.Duration
	// SlotsPerBlock, when set, is how far each block's slot (and so its
	// time: one-second slots) moves past the previous block, whatever the
	// clock says: tests use it to reach an epoch boundary in a few blocks.
	// Zero places each block at the wall clock's slot (at least one past
	// the tip), as a live db-sync sees them.
	SlotsPerBlock uint64
	// TxsPerBlock is the mean number of payments per block (each block
	// carries between 0 and twice as many). Zero means 2; negative, none.
	TxsPerBlock int
	// RollbackEvery rolls back after every N blocks appended;
	// RollbackChance (0..1) before any block. Each rollback removes 1 to MaxRollback
	// (default 3) of the blocks this follower appended, never a seeded one.
	RollbackEvery  int
	RollbackChance float64
	MaxRollback    int
	// Seed makes a follower's chain deterministic (hashes, payments,
	// rollbacks), given the same starting database and SlotsPerBlock.
	Seed int64
	// MaxBlocks stops Follow after appending that many blocks (blocks
	// appended again after a rollback count too). Zero: until ctx ends.
	MaxBlocks int
	// Manifest names the addresses the traffic uses: the whale, the
	// ordinary, asset and Byron addresses (key-locked ones spend and
	// receive). Addresses adds more. With neither, the follower takes the
	// addresses of the newest unspent outputs.
	Manifest  *Manifest
	Addresses []string
	// Pending, if set, is asked before each block for transactions to
	// include in it: the extension point for submitted transactions that
	// should "confirm". Transactions of a rolled-back block are included
	// again in the next one, as a node re-applies them.
	Pending func() []PendingTx
	// Submitted, if set, hands in transactions submitted to a node, which
	// open each block as they are (follow_submitted.go).
	Submitted Submitted
	// Report, if set, is called after each committed block and each
	// rollback, on the follower's goroutine.
	Report func(FollowEvent)
	Logf   func(format string, args ...any)
}

// PendingTx is a transaction the follower includes in its next block: it
// pays To from the follower's richest followed address (balanced, with a
// fee and change), under Hash when given (a hash already on the chain
// fails the block, as tx.hash is unique). One that cannot be paid yet
// waits for a later block; with outputs disabled (the disable layout)
// none is ever included.
type PendingTx struct {
	Hash []byte // 32 bytes; nil: the hash of the CBOR the follower makes for it
	// CBOR is stored in tx_cbor as given (under Hash, or a random hash);
	// without it, a transaction without Hash gets the follower's own
	// CBOR, one with Hash none.
	CBOR []byte
	To   []PendingOutput
}

// PendingOutput is one output of a PendingTx.
type PendingOutput struct {
	Address  string
	Lovelace uint64
}

// EventKind says what a FollowEvent reports.
type EventKind int

const (
	// BlockAppended: one block committed on top of the tip.
	BlockAppended EventKind = iota
	// RolledBack: the newest blocks were removed (Removed); Block is the
	// new tip.
	RolledBack
)

func (k EventKind) String() string {
	if k == RolledBack {
		return "rollback"
	}
	return "block"
}

// FollowEvent is one step of the follower.
type FollowEvent struct {
	Kind  EventKind
	Block BlockRef
	// Txs: the appended block's transactions, in block order.
	Txs []FollowTx
	// EpochStart: the appended block is the first of its epoch (the
	// previous epoch was finalized in the same database transaction).
	EpochStart bool
	// Removed: the rolled-back blocks, newest first.
	Removed []BlockRef
}

// BlockRef identifies a block of the followed chain.
type BlockRef struct {
	ID      int64     `json:"id"`
	Hash    string    `json:"hash"`
	BlockNo int64     `json:"block_no"`
	Slot    uint64    `json:"slot"`
	Epoch   int       `json:"epoch"`
	Time    time.Time `json:"time"`
}

// FollowTx is a transaction the follower wrote: its hash and id, and its
// outputs (index order).
type FollowTx struct {
	ID      int64
	Hash    string
	Fee     uint64
	Outputs []FollowOutput
	// Pending: the transaction came from FollowOptions.Pending.
	Pending bool
}

// FollowOutput is one output of a FollowTx.
type FollowOutput struct {
	Address  string
	Lovelace uint64
	Assets   int // distinct native assets carried
}

// ErrNoChain is returned when the database holds no block to follow.
var ErrNoChain = errors.New("chaingen: follow: the database holds no chain")

// Follow appends blocks to an already seeded db-sync database the way
// db-sync writes them, one PostgreSQL transaction per block, until ctx
// ends (it then returns ctx's cause) or MaxBlocks blocks are appended
// (nil). See Follower for what each block holds.
func Follow(ctx context.Context, db *sql.DB, opts FollowOptions) error {
	f, err := NewFollower(ctx, db, opts)
	if err != nil {
		return err
	}
	var tick *time.Ticker
	if opts.Interval > 0 {
		tick = time.NewTicker(opts.Interval)
		defer tick.Stop()
	}
	for opts.MaxBlocks <= 0 || f.Appended() < opts.MaxBlocks {
		if tick != nil {
			select {
			case <-ctx.Done():
				return context.Cause(ctx)
			case <-tick.C:
			}
		} else if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		if _, err := f.Step(ctx); err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return err
		}
	}
	return nil
}

// Step performs the follower's next move: a rollback when one is due
// (then the block that replaces it on the new fork is appended by the
// next Step), otherwise one new block. It returns what it did.
func (f *Follower) Step(ctx context.Context) (FollowEvent, error) {
	if f.rollbackDue() {
		n := 1 + f.g.intn(f.maxRollback)
		if n > len(f.journal) {
			n = len(f.journal)
		}
		if n > 0 {
			f.sinceRollback = 0
			return f.Rollback(ctx, n)
		}
	}
	f.sinceRollback++
	return f.AppendBlock(ctx)
}

func (f *Follower) rollbackDue() bool {
	if len(f.journal) == 0 {
		return false
	}
	if f.opts.RollbackEvery > 0 && f.sinceRollback > 0 && f.sinceRollback%f.opts.RollbackEvery == 0 {
		return true
	}
	return f.opts.RollbackChance > 0 && f.g.chance(f.opts.RollbackChance)
}

func (f *Follower) logf(format string, args ...any) {
	if f.opts.Logf != nil {
		f.opts.Logf(format, args...)
	}
}

func (f *Follower) report(ev FollowEvent) {
	if f.opts.Report != nil {
		f.opts.Report(ev)
	}
}

func followErr(what string, err error) error {
	return fmt.Errorf("chaingen: follow: %s: %w", what, err)
}
