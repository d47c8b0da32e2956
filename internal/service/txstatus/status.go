package txstatus

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Status is where a transaction is, decided at one db-sync tip.
type Status struct {
	TxHash cardano.TxHash
	Status string // InBlock, InMempool, RolledBack, Expired, Rejected or Unknown
	// Block and Confirmations (tip block number − block number + 1): InBlock only.
	Block         *dbsync.TxBlock
	Confirmations int64
	// Tip is the db-sync tip the status was decided at.
	Tip dbsync.Tip
	// SubmittedAt and TTLSlot (invalid_hereafter): set when the
	// transaction was submitted through syncgate.
	SubmittedAt *time.Time
	TTLSlot     *int64
	// Reason is the node's rejection (Rejected only).
	Reason string
	// MempoolOK: the mempool answered; false means "unavailable", and an
	// Unknown status may then be a transaction the mempool holds.
	MempoolOK bool
}

// Status decides where the transaction is on network, asking db-sync (its
// block and the tip, one snapshot), the mempool and the submission log.
// The rules, first match wins:
//
//  1. in a db-sync block: InBlock;
//  2. in the mempool: InMempool;
//  3. its TTL (invalid_hereafter) is at or below the tip's slot: Expired,
//     since no later block can hold it (final, so it also ends RolledBack);
//  4. the node accepted it after the mempool snapshot that answered was
//     taken: InMempool (the shared snapshot is up to a few seconds old, the
//     node's acceptance is newer news);
//  5. the log saw it in a block before: RolledBack (it may come back);
//  6. the node rejected it: Rejected;
//  7. otherwise Unknown.
//
// db-sync failing is the error (its sentinels); the mempool or the log
// failing only removes what they would have told (MempoolOK false, no log
// facts). The mempool question is bounded by MempoolTimeout, so a hung node
// never holds the answer.
//
// A decided status is kept (in process) under the chain's recent tip, the
// mempool snapshot that answered, and the count of this instance's log
// writes for the hash's stripe: asked again before any of them moves, it
// is answered without reading db-sync or the log. Another instance's log
// write is seen once this instance's next snapshot is taken (or after
// StatusTTL): a status lags it no more than it lags the node's mempool.
func (s *Service) Status(ctx context.Context, network string, chain Chain, hash cardano.TxHash) (Status, error) {
	pool := s.inMempool(ctx, network, hash)
	tip, err := chain.RecentTip(ctx)
	if err != nil || tip.BlockHash == "" {
		return s.decide(ctx, network, chain, hash, pool)
	}
	snap := "u" // the mempool cannot tell
	if pool.ok {
		snap = strconv.FormatUint(pool.gen, 10)
	}
	key := network + ":" + tip.BlockHash + ":" + snap + ":" +
		strconv.FormatUint(s.logGens[logStripe(hash)].Load(), 10) + ":" + hash.String()
	return s.statuses.Get(ctx, key, func(ctx context.Context) (Status, error) {
		return s.decide(ctx, network, chain, hash, pool)
	})
}

// StatusTTL bounds how long a decided status is kept; statusLocalBytes
// bounds them all (a kept status is about 600 bytes).
const (
	StatusTTL        = 5 * time.Second
	statusLocalBytes = 8 << 20
)

// logStripes is how many stripes the log write counts are kept in.
const logStripes = 4096

// logStripe is the stripe of a transaction hash.
func logStripe(hash cardano.TxHash) int { return (int(hash[0])<<8 | int(hash[1])) % logStripes }

// logWritten counts a write of hash's log row (deferred by the writers, so
// that a status decided while the write was under way is kept under the
// count before it).
func (s *Service) logWritten(hash cardano.TxHash) { s.logGens[logStripe(hash)].Add(1) }

// decide is Status from the mempool's answer pool, asking db-sync and the
// log at once.
func (s *Service) decide(ctx context.Context, network string, chain Chain, hash cardano.TxHash, pool poolAnswer) (Status, error) {
	st := Status{TxHash: hash}
	var sub *admin.Submission
	var wg sync.WaitGroup
	if s.opts.Log != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sub = s.submission(ctx, network, hash)
		}()
	}
	tip, block, err := chain.TxInChain(ctx, hash)
	wg.Wait()
	if err != nil {
		return Status{}, err
	}
	st.Tip, st.MempoolOK = tip, pool.ok
	if sub != nil {
		at := sub.SubmittedAt
		st.SubmittedAt, st.TTLSlot = &at, sub.InvalidHereafter
	}
	tipNo := int64(0)
	if tip.BlockNo != nil {
		tipNo = *tip.BlockNo
	}
	switch {
	case block != nil:
		st.Status, st.Block, st.Confirmations = InBlock, block, tipNo-block.BlockNo+1
		if sub != nil && !sameBlock(sub.SeenBlockHash, block.Hash) {
			s.markSeen(ctx, network, hash, block)
		}
	case pool.in:
		st.Status = InMempool
	case sub != nil && sub.InvalidHereafter != nil && *sub.InvalidHereafter <= tip.SlotNo:
		st.Status = Expired
	case acceptedSince(sub, pool):
		st.Status = InMempool
	case sub != nil && sub.SeenBlockHash != nil:
		st.Status = RolledBack
	case sub != nil && sub.Outcome == admin.OutcomeRejected:
		st.Status = Rejected
		if sub.Reason != nil {
			st.Reason = *sub.Reason
		}
	default:
		st.Status = Unknown
	}
	return st, nil
}

// acceptedSince reports whether the node accepted the logged transaction
// after the snapshot of pool was taken, and after the log last saw it in a
// block (an acceptance older than that sighting says nothing about now).
// A mempool that cannot tell gives no snapshot to be newer than.
func acceptedSince(sub *admin.Submission, pool poolAnswer) bool {
	if sub == nil || !pool.ok || sub.Outcome != admin.OutcomeAccepted || sub.AnsweredAt == nil {
		return false
	}
	at := *sub.AnsweredAt
	return pool.takenAt.Before(at) && (sub.SeenAt == nil || sub.SeenAt.Before(at))
}

// submission is the log row of the transaction, or nil when it has none or
// the log cannot be read in time.
func (s *Service) submission(ctx context.Context, network string, hash cardano.TxHash) *admin.Submission {
	lctx, cancel := context.WithTimeout(ctx, s.opts.LogTimeout)
	defer cancel()
	sub, err := s.opts.Log.SubmissionOf(lctx, network, hash[:])
	switch {
	case errors.Is(err, admin.ErrNotFound):
		return nil
	case err != nil:
		s.log.Warn("submission log unavailable", slog.String("network", network), slog.String("error", err.Error()))
		return nil
	}
	return &sub
}

// sameBlock reports whether a recorded block hash (bytes) is hexHash.
func sameBlock(recorded []byte, hexHash string) bool {
	h, err := cardano.ParseTxHash(hexHash)
	return err == nil && len(recorded) == len(h) && string(recorded) == string(h[:])
}
