package scanner

import (
	"bytes"
	"context"
	"encoding/hex"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/events"
	"github.com/syncgate/syncgate/internal/platform/metrics"
)

// groupWork is the heights one webhook group is decided through in a step.
type groupWork struct {
	g        events.ScanGroup
	from, to int64
}

// plan is the groups' work at tip: each group behind tip less its depth is
// decided from its position on, at most batch heights in a step. more:
// a group was left behind by the bound.
func plan(groups []events.ScanGroup, tip int64, batch int) (work []groupWork, ranges []dbsync.HeightRange, more bool) {
	for _, g := range groups {
		through := tip - int64(g.Depth)
		if g.ScannedThrough >= through {
			continue
		}
		w := groupWork{g: g, from: g.ScannedThrough + 1, to: min(through, g.ScannedThrough+int64(batch))}
		if w.to < through {
			more = true
		}
		work = append(work, w)
		ranges = append(ranges, dbsync.HeightRange{From: w.from, To: w.to})
	}
	return work, ranges, more
}

// step does one step on the leadership connection: the first checkpoint,
// a rollback, or the new blocks' events. more: work is left (a batch
// bound was reached), step again at once.
func (s *Scanner) step(ctx context.Context, conn *sqlx.Conn) (more bool, err error) {
	start := time.Now()
	lap := s.lapper(start)
	net := s.o.Network
	cp, err := events.ReadCheckpoint(ctx, conn, net)
	lap("checkpoint")
	if err != nil {
		return false, err
	}
	if cp == nil {
		head, err := s.o.DB.ReadChain(ctx, nil, nil)
		if err != nil {
			return false, wrap("tip", err)
		}
		// First run: scanning starts at the tip.
		tip := head.Tip
		return false, s.commit(ctx, conn, func(tx *sqlx.Tx) error {
			to := events.Checkpoint{Height: tip.Height, Hash: tip.Hash}
			return events.MoveCheckpoint(ctx, tx, net, nil, to, []events.Checkpoint{to}, false)
		})
	}
	groups, err := s.groups(ctx, conn, cp)
	if err != nil {
		return false, err
	}
	lap("groups")

	// One snapshot: the tip, the hashes of the checkpoint's block and of
	// the new blocks (at most KeepBlocks of them), and, when the
	// checkpoint's block is still db-sync's, the groups' blocks.
	var (
		work     []groupWork
		f        facts
		rollback bool
	)
	read, err := s.o.DB.ReadChainPlanned(ctx, func(tip dbsync.ChainPoint) []int64 {
		heights := []int64{cp.Height}
		for h := max(cp.Height+1, tip.Height-events.KeepBlocks+1); h <= tip.Height; h++ {
			heights = append(heights, h)
		}
		return heights
	}, func(r *dbsync.ChainRead) ([]dbsync.HeightRange, func(context.Context, *dbsync.Snapshot, []dbsync.HeightRange) error) {
		rollback, work, more = false, nil, false
		if !bytes.Equal(r.Hashes[cp.Height], cp.Hash) {
			rollback = true
			return nil, nil
		}
		var ranges []dbsync.HeightRange
		work, ranges, more = plan(groups, r.Tip.Height, s.o.BatchBlocks)
		if len(work) == 0 {
			return nil, nil
		}
		return ranges, f.readFacts(needs(work))
	})
	if err != nil {
		return false, wrap("read", err)
	}
	lap("read")
	if rollback {
		return true, s.rollback(ctx, conn, cp)
	}
	tip := read.Tip
	if tip.Height == cp.Height && len(work) == 0 {
		return false, nil
	}
	seenFrom := max(cp.Height+1, tip.Height-events.KeepBlocks+1)
	var seen []events.Checkpoint
	for h := seenFrom; h <= tip.Height; h++ {
		seen = append(seen, events.Checkpoint{Height: h, Hash: read.Hashes[h]})
	}

	tipRef := &events.BlockRef{Hash: tip.Hash, Height: tip.Height, Slot: tip.Slot}
	rendered := s.prefetchBlocks(ctx, work, read.Blocks)
	matched, err := s.match(ctx, conn, read.Blocks, &f, work)
	if err != nil {
		rendered()
		return false, err
	}
	if err := s.readEpochs(ctx, &f, work); err != nil {
		rendered()
		return false, err
	}
	var evs []events.NewEvent
	advances := make([]events.Advance, len(work))
	for i, w := range work {
		evs = append(evs, groupEvents(w, blocksIn(read.Blocks, w.from, w.to), matched[i], &f, tipRef)...)
		advances[i] = events.Advance{Hooks: w.g.Hooks, From: w.g.ScannedThrough, To: w.to}
	}
	lap("match")
	if evs, err = s.blockfrost(ctx, work, evs, rendered()); err != nil {
		return false, err
	}
	lap("render")
	keep := keepAfter(work, tip.Height)
	n := 0
	err = s.commit(ctx, conn, func(tx *sqlx.Tx) error {
		lap("begin")
		// Webhook rows before the checkpoint's, as every writer locks them
		// (migration 0019).
		d, err := s.o.Events.AppendScanned(ctx, tx, net, cp.Height, tip.Height, advances, evs)
		n = len(d)
		lap("append")
		if err != nil {
			return err
		}
		to := events.Checkpoint{Height: tip.Height, Hash: tip.Hash}
		err = events.MoveCheckpoint(ctx, tx, net, cp, to, seen, !keep)
		lap("move")
		return err
	})
	if err != nil {
		return false, err
	}
	if !keep {
		s.kept = nil
	}
	lap("commit")
	elapsed := time.Since(start)
	metrics.ScannerStep(net, int(tip.Height-cp.Height), elapsed)
	if s.onStep != nil && tip.Height > cp.Height {
		s.onStep(int(tip.Height-cp.Height), elapsed)
	}
	if n > 0 {
		countTypes(net, evs)
	}
	return more, nil
}

// match finds, in one query, the watch items of every group's webhooks
// that the blocks read touch, and returns each group's (work[i]) among
// them, kept to the items its own block range touches.
func (s *Scanner) match(ctx context.Context, conn *sqlx.Conn, blocks []dbsync.ScanBlock, f *facts, work []groupWork) ([][]events.Match, error) {
	out := make([][]events.Match, len(work))
	if len(work) == 0 {
		return out, nil
	}
	group := map[uuid.UUID]int{}
	lo, hi := work[0].from, work[0].to
	for i, w := range work {
		for _, id := range w.g.Webhooks {
			group[id] = i
		}
		lo, hi = min(lo, w.from), max(hi, w.to)
	}
	var keys keySet
	keysOf(blocksIn(blocks, lo, hi), &keys)
	blockKeysOf(f, &keys)
	certKeysOf(f, &keys)
	all, err := events.MatchItems(ctx, conn, s.o.Network, keys.list)
	if err != nil {
		return nil, err
	}
	// Every active webhook's items match: the groups' are kept. An item
	// matched in another group's range only is left out by groupEvents,
	// which looks up the keys of the group's own blocks.
	for _, m := range all {
		if i, ok := group[m.WebhookID]; ok {
			out[i] = append(out[i], m)
		}
	}
	return out, nil
}

// rollback handles a checkpoint db-sync no longer holds: the fork point is
// the newest remembered block db-sync still has; every live announcement
// above it gets its undo (tx.rolled_back…, for webhooks that want it), the
// webhooks above it are scanned again from it, and the checkpoint moves
// back to it, in one transaction.
func (s *Scanner) rollback(ctx context.Context, conn *sqlx.Conn, cp *events.Checkpoint) error {
	net := s.o.Network
	recent, err := events.RecentBlocks(ctx, conn, net, cp.Height, events.KeepBlocks)
	if err != nil {
		return err
	}
	heights := make([]int64, 0, len(recent)+1)
	for _, b := range recent {
		heights = append(heights, b.Height)
	}
	floor := cp.Height - 1
	if len(recent) > 0 {
		floor = recent[len(recent)-1].Height - 1
	}
	heights = append(heights, floor)
	read, err := s.o.DB.ReadChain(ctx, heights, nil)
	if err != nil {
		return wrap("fork point", err)
	}
	// With nothing remembered in common (deeper than any rollback db-sync
	// makes), the block below the oldest remembered one is taken.
	fork := events.Checkpoint{Height: floor, Hash: read.Hashes[floor]}
	for _, b := range recent {
		if h, ok := read.Hashes[b.Height]; ok && bytes.Equal(h, b.Hash) {
			fork = b
			break
		}
	}
	if fork.Hash == nil {
		return errChainMoved
	}
	tipRef := &events.BlockRef{Hash: read.Tip.Hash, Height: read.Tip.Height, Slot: read.Tip.Slot}
	n := 0
	err = s.commit(ctx, conn, func(tx *sqlx.Tx) error {
		// Every position written before any is read; webhook rows before
		// the checkpoint's (migration 0019).
		if err := events.Unfollow(ctx, tx, net, cp.Height); err != nil {
			return err
		}
		live, err := events.LiveEventsAbove(ctx, tx, net, fork.Height)
		if err != nil {
			return err
		}
		var evs []events.NewEvent
		for _, e := range live {
			if !e.Wants {
				continue
			}
			block := e.Block
			evs = append(evs, events.NewEvent{WebhookID: e.WebhookID, Type: events.UndoOf[e.Type], TxHash: e.TxHash,
				Block: &block, Tip: tipRef, Revokes: &e.ID, Data: undoData(e)})
		}
		if err := events.RewindWebhooks(ctx, tx, net, fork.Height); err != nil {
			return err
		}
		d, err := s.o.Events.AppendEvents(ctx, tx, net, evs)
		n = len(d)
		if err != nil {
			return err
		}
		return events.MoveCheckpoint(ctx, tx, net, cp, fork, nil, true)
	})
	s.kept = nil // positions written, whether or not it committed
	if err != nil {
		return err
	}
	s.o.Log.Info("scanner rolled back", "from", cp.Height, "to", fork.Height, "revoked", n)
	metrics.ScannerEvents(net, events.TypeTxRolledBack, n)
	return nil
}

// lapper returns a function that reports the time since the previous lap
// under a phase name to onPhase (a no-op without one).
func (s *Scanner) lapper(start time.Time) func(string) {
	if s.onPhase == nil {
		return func(string) {}
	}
	last := start
	return func(phase string) {
		now := time.Now()
		s.onPhase(phase, now.Sub(last))
		last = now
	}
}

// commit runs fn in one admin transaction on the leadership connection.
func (s *Scanner) commit(ctx context.Context, conn *sqlx.Conn, fn func(tx *sqlx.Tx) error) error {
	tx, err := conn.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after commit
	if err := fn(tx); err != nil {
		return err
	}
	if s.beforeCommit != nil {
		s.beforeCommit(ctx)
	}
	return tx.Commit()
}

// blocksIn is the blocks of read (ascending) at heights from..to.
func blocksIn(all []dbsync.ScanBlock, from, to int64) []dbsync.ScanBlock {
	var out []dbsync.ScanBlock
	for _, b := range all {
		if b.Height >= from && b.Height <= to {
			out = append(out, b)
		}
	}
	return out
}

// uuidLess orders webhook ids (events of one transaction in a fixed order).
func uuidLess(a, b uuid.UUID) int { return bytes.Compare(a[:], b[:]) }

// undoData is the data of the event revoking e: the transaction's hash
// for a transaction's announcements (none for a Blockfrost-format event
// of a block's transactions), the revoked event alone for a block's.
func undoData(e events.LiveEvent) any {
	switch e.Type {
	case events.TypeTxConfirmed, events.TypeDelegationConfirmed:
		return events.TxRolledBack{TxHash: hex.EncodeToString(e.TxHash), Revokes: e.ID, RevokedSeq: e.Seq}
	}
	return events.Revocation{Revokes: e.ID, RevokedSeq: e.Seq}
}

// countTypes counts a committed step's events by type.
func countTypes(net string, evs []events.NewEvent) {
	per := map[string]int{}
	for _, e := range evs {
		per[e.Type]++
	}
	for t, n := range per {
		metrics.ScannerEvents(net, t, n)
	}
}
