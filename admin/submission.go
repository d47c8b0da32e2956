package admin

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/sql"
)

var (
	sqlSubmissionRecord = sqlfiles.Must("admin/submission_record.sql")
	sqlSubmissionAnswer = sqlfiles.Must("admin/submission_answer.sql")
	sqlSubmission       = sqlfiles.Must("admin/submission.sql")
	sqlSubmissionSeen   = sqlfiles.Must("admin/submission_seen.sql")
	sqlPruneSubmissions = sqlfiles.Must("admin/prune_submissions.sql")
)

// Outcomes of a logged submission (syncgate.tx_submissions.outcome).
const (
	// OutcomePending: sent to the node, no answer recorded yet (or the
	// instance sending it died).
	OutcomePending = "pending"
	// OutcomeAccepted and OutcomeRejected: the node's answer.
	OutcomeAccepted = "accepted"
	OutcomeRejected = "rejected"
	// OutcomeUnknown: the node did not answer in time; it may hold the
	// transaction or not.
	OutcomeUnknown = "unknown"
	// OutcomeKnown: the transaction was already in the mempool or a block
	// when submitted, so it was not sent.
	OutcomeKnown = "known"
)

// SubmissionRetention is how long a submission log row is kept after the
// transaction's latest submission.
const SubmissionRetention = 30 * 24 * time.Hour

// Submission is one row of the submission log: a transaction submitted
// through syncgate on one network.
type Submission struct {
	Network         string     `db:"network"`
	TxHash          []byte     `db:"tx_hash"`
	CredentialID    *uuid.UUID `db:"credential_id"`
	SubmittedAt     time.Time  `db:"submitted_at"`
	LastSubmittedAt time.Time  `db:"last_submitted_at"`
	Submissions     int        `db:"submissions"`
	// Slots of the body's validity interval; nil when absent.
	InvalidBefore    *int64     `db:"invalid_before"`
	InvalidHereafter *int64     `db:"invalid_hereafter"`
	Outcome          string     `db:"outcome"`
	Reason           *string    `db:"reason"`
	ReasonCBOR       []byte     `db:"reason_cbor"`
	AnsweredAt       *time.Time `db:"answered_at"`
	// The block the transaction was last seen in (nil: never seen in one).
	SeenBlockHash []byte     `db:"seen_block_hash"`
	SeenBlockNo   *int64     `db:"seen_block_no"`
	SeenSlot      *int64     `db:"seen_slot"`
	SeenAt        *time.Time `db:"seen_at"`
}

// SubmissionEntry is what RecordSubmission writes.
type SubmissionEntry struct {
	Network      string
	TxHash       []byte
	CredentialID *uuid.UUID
	// Validity interval slots; zero means the bound is absent.
	InvalidBefore, InvalidHereafter uint64
	// Outcome is OutcomePending (about to be sent) or OutcomeKnown.
	Outcome string
}

// RecordSubmission logs a submission and returns its time. A resubmission
// of the same transaction updates its row: pending again when it is about
// to be sent, its previous outcome kept when it was not sent (known).
func (s *Store) RecordSubmission(ctx context.Context, e SubmissionEntry) (time.Time, error) {
	now := s.now().UTC()
	_, err := s.db.ExecContext(ctx, sqlSubmissionRecord, e.Network, e.TxHash, e.CredentialID, now,
		slotOrNull(e.InvalidBefore), slotOrNull(e.InvalidHereafter), e.Outcome)
	return now, wrap("RecordSubmission", err)
}

// AnswerSubmission records the node's answer (OutcomeAccepted,
// OutcomeRejected with its reason, OutcomeUnknown) to a logged submission.
func (s *Store) AnswerSubmission(ctx context.Context, network string, hash []byte, outcome, reason string, reasonCBOR []byte) error {
	var r *string
	if reason != "" {
		r = &reason
	}
	_, err := s.db.ExecContext(ctx, sqlSubmissionAnswer, network, hash, outcome, r, reasonCBOR, s.now().UTC())
	return wrap("AnswerSubmission", err)
}

// SubmissionOf returns the log row of a transaction, or ErrNotFound when it
// was not submitted through syncgate in the retention period.
func (s *Store) SubmissionOf(ctx context.Context, network string, hash []byte) (Submission, error) {
	var sub Submission
	err := s.subStmt.get(ctx, s.db, &sub, sqlSubmission, network, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return Submission{}, ErrNotFound
	}
	return sub, wrap("SubmissionOf", err)
}

// MarkSubmissionSeen records the block a logged transaction is in, when it
// is not the block already recorded (a transaction not in the log is left
// alone). It reports whether it wrote.
func (s *Store) MarkSubmissionSeen(ctx context.Context, network string, hash, blockHash []byte, blockNo, slot int64) (bool, error) {
	res, err := s.db.ExecContext(ctx, sqlSubmissionSeen, network, hash, blockHash, blockNo, slot, s.now().UTC())
	if err != nil {
		return false, wrap("MarkSubmissionSeen", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// PruneSubmissions deletes the log rows last submitted more than retention
// ago, in short batches, and returns how many went.
func (s *Store) PruneSubmissions(ctx context.Context, retention time.Duration) (int64, error) {
	cutoff := s.now().Add(-retention)
	var total int64
	for {
		res, err := s.db.ExecContext(ctx, sqlPruneSubmissions, cutoff, pruneBatch)
		if err != nil {
			return total, wrap("PruneSubmissions", err)
		}
		n, _ := res.RowsAffected()
		total += n
		if n < pruneBatch {
			return total, nil
		}
	}
}

// RunSubmissionRetention prunes the submission log (SubmissionRetention)
// now and every hour until ctx ends; any number of instances may run it.
func (s *Store) RunSubmissionRetention(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		n, err := s.PruneSubmissions(ctx, SubmissionRetention)
		switch {
		case err != nil && ctx.Err() == nil:
			s.log.Warn("submission log retention failed; will retry", slog.String("error", err.Error()))
		case n > 0:
			s.log.Info("submission log pruned", slog.Int64("deleted", n))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// slotOrNull is a validity bound as stored: NULL when absent (zero).
func slotOrNull(slot uint64) any {
	if slot == 0 {
		return nil
	}
	return int64(slot)
}
