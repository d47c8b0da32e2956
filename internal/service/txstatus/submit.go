package txstatus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/node"
)

// SubmitRequest is one POST /v1/tx/submit.
type SubmitRequest struct {
	Network      cardano.Network
	Chain        Chain
	Tx           *node.Tx
	CredentialID *uuid.UUID
	// Check, when set, runs before the transaction is sent (the input
	// check) but after the "already known" check, whose transactions it
	// would wrongly refuse (their inputs are spent). Its error is returned
	// as is.
	Check func(ctx context.Context) error
}

// SubmitResult is a successful submission: Status is Submitted (the node
// accepted it now), InMempool or InBlock (it was already there, and the
// node was not asked again).
type SubmitResult struct {
	Status string
}

// Submit sends the transaction to the node unless it is already in a block
// or the mempool. Concurrent submissions of one transaction share one
// answer from the node; a submission that starts while another is being
// answered on another instance waits for that answer (Redis lock). Errors
// are node's (*node.RejectedError, node.ErrTimeout, node.ErrUnavailable,
// node.ErrNotConfigured), the Check's, or the context's.
func (s *Service) Submit(ctx context.Context, req SubmitRequest) (SubmitResult, error) {
	started := time.Now()
	hash, err := cardano.ParseTxHash(req.Tx.Hash)
	if err != nil {
		return SubmitResult{}, fmt.Errorf("txstatus: transaction hash %q: %w", req.Tx.Hash, err)
	}
	if status, block := s.known(ctx, req, hash); status != "" {
		s.record(ctx, req, hash, admin.OutcomeKnown)
		if block != nil {
			s.markSeen(ctx, req.Network.Name, hash, block)
		}
		return SubmitResult{Status: status}, nil
	}
	if req.Check != nil {
		if err := req.Check(ctx); err != nil {
			return SubmitResult{}, err
		}
	}
	key := req.Network.Name + ":" + hash.String()
	return s.flights.do(ctx, key, started, func(fctx context.Context) (SubmitResult, error) {
		return s.send(fctx, req, hash, started)
	})
}

// known asks db-sync, the mempool and the log at once whether the
// transaction is already in a block (InBlock, with the block) or the
// mempool (InMempool: in the snapshot, or accepted by the node after the
// snapshot was taken, as Status decides); "" when none says so, including
// when they cannot tell: the node then decides.
func (s *Service) known(ctx context.Context, req SubmitRequest, hash cardano.TxHash) (string, *dbsync.TxBlock) {
	var wg sync.WaitGroup
	var pool poolAnswer
	wg.Add(1)
	go func() {
		defer wg.Done()
		pool = s.inMempool(ctx, req.Network.Name, hash)
	}()
	var sub *admin.Submission
	if s.opts.Log != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sub = s.submission(ctx, req.Network.Name, hash)
		}()
	}
	var block *dbsync.TxBlock
	if req.Chain != nil {
		var err error
		if _, block, err = req.Chain.TxInChain(ctx, hash); err != nil {
			s.log.Debug("submit: db-sync cannot tell whether the transaction is known",
				slog.String("network", req.Network.Name), slog.String("error", err.Error()))
		}
	}
	wg.Wait()
	switch {
	case block != nil:
		return InBlock, block
	case pool.in, acceptedSince(sub, pool):
		return InMempool, nil
	}
	return "", nil
}

// send is one flight: the only submission of this transaction in progress
// on this instance. Under the deployment-wide lock (or while waiting for
// it) it takes an answer given since the request started (another
// instance's); otherwise it asks the node and records its answer.
func (s *Service) send(ctx context.Context, req SubmitRequest, hash cardano.TxHash, started time.Time) (SubmitResult, error) {
	var prev *admin.Submission // the log row as the lock found it
	answered := func() (SubmitResult, bool, error) {
		if s.opts.Log == nil {
			return SubmitResult{}, false, nil
		}
		prev = s.submission(ctx, req.Network.Name, hash)
		return answeredSince(prev, started)
	}
	unlock, res, shared, err := s.lock(ctx, req.Network.Name+":"+hash.String(), answered)
	if shared || err != nil {
		return res, err
	}
	defer unlock()
	if res, ok, err := answered(); ok {
		return res, err
	}
	if s.opts.Submitter == nil {
		return SubmitResult{}, fmt.Errorf("%w (no submitter)", node.ErrNotConfigured)
	}
	s.record(ctx, req, hash, admin.OutcomePending)
	err = s.opts.Submitter.Submit(ctx, req.Network, req.Tx.EraID, req.Tx.CBOR)
	var rej *node.RejectedError
	switch {
	case err == nil:
		s.answer(ctx, req.Network.Name, hash, admin.OutcomeAccepted, "", nil)
		return SubmitResult{Status: Submitted}, nil
	case errors.As(err, &rej):
		// A node refuses a transaction it already holds (its inputs are
		// spent by the transaction itself): that is success when the
		// transaction is indeed in the mempool or a block.
		if status, block := s.known(ctx, req, hash); status != "" {
			s.answer(ctx, req.Network.Name, hash, admin.OutcomeAccepted, "", nil)
			if block != nil {
				s.markSeen(ctx, req.Network.Name, hash, block)
			}
			return SubmitResult{Status: status}, nil
		}
		// The node accepted it moments ago: a mempool that cannot tell,
		// or a snapshot a little older than that, does not make its
		// refusal of the duplicate a rejection.
		if prev != nil && prev.Outcome == admin.OutcomeAccepted && prev.AnsweredAt != nil && time.Since(*prev.AnsweredAt) < recentlyAccepted {
			s.answer(ctx, req.Network.Name, hash, admin.OutcomeAccepted, "", nil)
			return SubmitResult{Status: InMempool}, nil
		}
		s.answer(ctx, req.Network.Name, hash, admin.OutcomeRejected, rej.Reason, rej.ReasonCBOR)
	default:
		// Timed out, unreachable, or hung up: the node may hold it or not.
		s.answer(ctx, req.Network.Name, hash, admin.OutcomeUnknown, "", nil)
	}
	return SubmitResult{}, err
}

// recentlyAccepted is how long after the node accepted a transaction its
// refusal of the same transaction is taken for "I already hold it" even
// when the mempool cannot confirm it (the mempool reader's snapshots are
// up to a second old).
const recentlyAccepted = 10 * time.Second

// answeredSince returns the node's answer recorded in the log row sub after
// started (another instance sent it while this request waited for the
// lock).
func answeredSince(sub *admin.Submission, started time.Time) (SubmitResult, bool, error) {
	if sub == nil || sub.AnsweredAt == nil || sub.AnsweredAt.Before(started) {
		return SubmitResult{}, false, nil
	}
	switch sub.Outcome {
	case admin.OutcomeAccepted:
		return SubmitResult{Status: Submitted}, true, nil
	case admin.OutcomeRejected:
		rej := &node.RejectedError{ReasonCBOR: sub.ReasonCBOR}
		if sub.Reason != nil {
			rej.Reason = *sub.Reason
		}
		return SubmitResult{}, true, rej
	}
	return SubmitResult{}, false, nil // unknown: ask the node again
}

// record writes a submission to the log; a log that cannot be written does
// not stop the submission (the node's answer matters more than its record).
func (s *Service) record(ctx context.Context, req SubmitRequest, hash cardano.TxHash, outcome string) {
	if s.opts.Log == nil {
		return
	}
	lctx, cancel := s.logCtx(ctx)
	defer cancel()
	defer s.logWritten(hash)
	_, err := s.opts.Log.RecordSubmission(lctx, admin.SubmissionEntry{Network: req.Network.Name, TxHash: hash[:],
		CredentialID: req.CredentialID, InvalidBefore: req.Tx.InvalidBefore, InvalidHereafter: req.Tx.InvalidHereafter, Outcome: outcome})
	if err != nil {
		s.log.Warn("submission log: recording a submission failed", slog.String("network", req.Network.Name),
			slog.String("tx_hash", hash.String()), slog.String("error", err.Error()))
	}
}

// answer records the node's answer in the log.
func (s *Service) answer(ctx context.Context, network string, hash cardano.TxHash, outcome, reason string, reasonCBOR []byte) {
	if s.opts.Log == nil {
		return
	}
	lctx, cancel := s.logCtx(ctx)
	defer cancel()
	defer s.logWritten(hash)
	if err := s.opts.Log.AnswerSubmission(lctx, network, hash[:], outcome, reason, reasonCBOR); err != nil {
		s.log.Warn("submission log: recording the node's answer failed", slog.String("network", network),
			slog.String("tx_hash", hash.String()), slog.String("error", err.Error()))
	}
}
