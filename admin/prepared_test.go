package admin

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// A statement that cannot be prepared yet (schema not migrated) runs
// unprepared until its retry time, is prepared after it, and answers the
// same either way; closed, it runs unprepared again.
func TestPreparedStmtFallsBackThenPrepares(t *testing.T) {
	db := testdb.Open(t, testdb.New(t, "sg_test_admin"))
	ctx := context.Background()
	hash := bytes.Repeat([]byte{0xcd}, 32)
	var p preparedStmt
	var sub Submission
	if err := p.get(ctx, db, &sub, sqlSubmission, "mainnet", hash); err == nil || p.stmt != nil {
		t.Fatalf("before the migration: err %v, prepared %v; want an error, nothing prepared", err, p.stmt != nil)
	}
	// The failed prepare set a retry time (prepareRetry ahead). The
	// migration can take longer than that on a loaded machine, so the
	// retry time is moved well past it: what follows checks the state, not
	// the clock.
	if p.retryAt.IsZero() {
		t.Fatal("a failed prepare set no retry time")
	}
	p.retryAt = time.Now().Add(time.Hour)
	if _, err := Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := p.get(ctx, db, &sub, sqlSubmission, "mainnet", hash); !errors.Is(err, sql.ErrNoRows) || p.stmt != nil {
		t.Fatalf("within the retry time: err %v, prepared %v; want no rows, unprepared", err, p.stmt != nil)
	}
	p.retryAt = time.Time{}
	if err := p.get(ctx, db, &sub, sqlSubmission, "mainnet", hash); !errors.Is(err, sql.ErrNoRows) || p.stmt == nil {
		t.Fatalf("after the retry time: err %v, prepared %v; want no rows, prepared", err, p.stmt != nil)
	}
	s := NewStore(db, Options{})
	defer s.Close()
	if _, err := s.RecordSubmission(ctx, SubmissionEntry{Network: "mainnet", TxHash: hash, Outcome: OutcomePending}); err != nil {
		t.Fatal(err)
	}
	if err := p.get(ctx, db, &sub, sqlSubmission, "mainnet", hash); err != nil || !bytes.Equal(sub.TxHash, hash) {
		t.Fatalf("prepared: err %v, row %x", err, sub.TxHash)
	}
	p.close()
	sub = Submission{}
	if err := p.get(ctx, db, &sub, sqlSubmission, "mainnet", hash); err != nil || !bytes.Equal(sub.TxHash, hash) || p.stmt != nil {
		t.Fatalf("closed: err %v, row %x, prepared %v", err, sub.TxHash, p.stmt != nil)
	}
}
