package admin

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestSubmissionLog: one row per network and hash through submissions,
// answers and sightings; retention by the latest submission; every
// statement on its index.
func TestSubmissionLog(t *testing.T) {
	db := migrated(t)
	clk := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s := NewStore(db, Options{Now: clk.now})
	defer s.Close()
	ctx := context.Background()
	hash := bytes.Repeat([]byte{0xab}, 32)
	cred := uuid.New()

	if _, err := s.SubmissionOf(ctx, "mainnet", hash); !errors.Is(err, ErrNotFound) {
		t.Fatalf("before any submission: %v, want ErrNotFound", err)
	}
	first, err := s.RecordSubmission(ctx, SubmissionEntry{Network: "mainnet", TxHash: hash, CredentialID: &cred,
		InvalidHereafter: 151437625, Outcome: OutcomePending})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AnswerSubmission(ctx, "mainnet", hash, OutcomeRejected, "BadInputsUTxO", []byte{0x82}); err != nil {
		t.Fatal(err)
	}
	got, err := s.SubmissionOf(ctx, "mainnet", hash)
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome != OutcomeRejected || got.Reason == nil || *got.Reason != "BadInputsUTxO" || !bytes.Equal(got.ReasonCBOR, []byte{0x82}) ||
		got.InvalidBefore != nil || got.InvalidHereafter == nil || *got.InvalidHereafter != 151437625 ||
		*got.CredentialID != cred || !got.SubmittedAt.Equal(first) || got.Submissions != 1 {
		t.Fatalf("after a rejection: %+v", got)
	}
	// The same hash on another network is another row.
	if _, err := s.SubmissionOf(ctx, "preprod", hash); !errors.Is(err, ErrNotFound) {
		t.Fatalf("other network: %v", err)
	}

	// A resubmission by someone else a minute later: pending again, the
	// first credential and time kept; a later "known" one keeps the answer.
	clk.add(time.Minute)
	other := uuid.New()
	if _, err := s.RecordSubmission(ctx, SubmissionEntry{Network: "mainnet", TxHash: hash, CredentialID: &other, Outcome: OutcomePending}); err != nil {
		t.Fatal(err)
	}
	if err := s.AnswerSubmission(ctx, "mainnet", hash, OutcomeAccepted, "", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordSubmission(ctx, SubmissionEntry{Network: "mainnet", TxHash: hash, Outcome: OutcomeKnown}); err != nil {
		t.Fatal(err)
	}
	got, _ = s.SubmissionOf(ctx, "mainnet", hash)
	if got.Outcome != OutcomeAccepted || got.Reason != nil || got.Submissions != 3 || *got.CredentialID != cred ||
		!got.SubmittedAt.Equal(first) || !got.LastSubmittedAt.Equal(first.Add(time.Minute)) {
		t.Fatalf("after resubmissions: %+v", got)
	}

	// Seen in a block: written once per block.
	block := bytes.Repeat([]byte{0x01}, 32)
	for i, want := range []bool{true, false} {
		wrote, err := s.MarkSubmissionSeen(ctx, "mainnet", hash, block, 100, 5000)
		if err != nil || wrote != want {
			t.Fatalf("sighting %d: wrote %v (%v), want %v", i, wrote, err, want)
		}
	}
	if wrote, _ := s.MarkSubmissionSeen(ctx, "mainnet", hash, bytes.Repeat([]byte{0x02}, 32), 101, 5020); !wrote {
		t.Fatal("a new block must be recorded")
	}
	if wrote, _ := s.MarkSubmissionSeen(ctx, "mainnet", bytes.Repeat([]byte{0xcd}, 32), block, 100, 5000); wrote {
		t.Fatal("a transaction not in the log must not be written")
	}
	got, _ = s.SubmissionOf(ctx, "mainnet", hash)
	if got.SeenBlockNo == nil || *got.SeenBlockNo != 101 || *got.SeenSlot != 5020 || got.SeenBlockHash[0] != 0x02 {
		t.Fatalf("seen: %+v", got)
	}

	// Retention: 30 days after the latest submission.
	young := bytes.Repeat([]byte{0xcd}, 32)
	clk.add(10 * 24 * time.Hour)
	if _, err := s.RecordSubmission(ctx, SubmissionEntry{Network: "mainnet", TxHash: young, Outcome: OutcomePending}); err != nil {
		t.Fatal(err)
	}
	clk.add(20*24*time.Hour + time.Second)
	n, err := s.PruneSubmissions(ctx, SubmissionRetention)
	if err != nil || n != 1 {
		t.Fatalf("pruned %d (%v), want 1", n, err)
	}
	if _, err := s.SubmissionOf(ctx, "mainnet", hash); !errors.Is(err, ErrNotFound) {
		t.Fatalf("old row: %v", err)
	}
	if _, err := s.SubmissionOf(ctx, "mainnet", young); err != nil {
		t.Fatalf("young row: %v", err)
	}

	if _, err := db.Exec(`ANALYZE syncgate.tx_submissions`); err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		name, sql, index string
		args             []any
	}{
		{"submission", sqlSubmission, "tx_submissions_pkey", []any{"mainnet", hash}},
		{"submission_answer", sqlSubmissionAnswer, "tx_submissions_pkey", []any{"mainnet", hash, OutcomeAccepted, nil, nil, time.Now()}},
		{"submission_seen", sqlSubmissionSeen, "tx_submissions_pkey", []any{"mainnet", hash, block, 1, 1, time.Now()}},
		{"prune_submissions", sqlPruneSubmissions, "tx_submissions_last_idx", []any{time.Now(), 10}},
	} {
		tx, err := db.Beginx()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`SET LOCAL enable_seqscan = off`); err != nil {
			t.Fatal(err)
		}
		var plan []string
		if err := tx.Select(&plan, "EXPLAIN "+q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
		_ = tx.Rollback()
		if text := strings.Join(plan, "\n"); strings.Contains(text, "Seq Scan") || !strings.Contains(text, q.index) {
			t.Errorf("%s: want %s, no sequential scan:\n%s", q.name, q.index, text)
		}
	}
}
