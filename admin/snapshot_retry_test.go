package admin

import (
	"context"
	"sync"
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestConcurrentAuditedReads: list reads of one admin key run at REPEATABLE
// READ and each writes its audit entry, which moves that key's audit
// counters. Several at once (the console loads its views in parallel) used
// to fail with a serialization failure (40001, answered 500); the store runs
// a refused transaction again, so every read succeeds.
func TestConcurrentAuditedReads(t *testing.T) {
	db := migrated(t)
	s := newTestStore(t, db, testdb.Redis(t), &clock{})
	a, _, _ := fixture(t, s)
	ctx := context.Background()
	const workers, rounds = 8, 15
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				var err error
				switch w % 3 {
				case 0:
					_, _, err = s.Credentials(ctx, a, true, Page{Limit: 10})
				case 1:
					_, _, err = s.Users(ctx, a, "", Page{Limit: 10})
				default:
					_, _, err = s.UsageCredentials(ctx, a, UsageWindow{}, Page{Limit: 10})
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n++; n <= 3 {
			t.Error(err)
		}
	}
	if n > 0 {
		t.Fatalf("%d of %d concurrent audited reads failed", n, workers*rounds)
	}
}
