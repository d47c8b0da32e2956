package poolstats

import (
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestUnlockReleasesOrEndsTheSession: a normal unlock leaves the pooled
// session alive and the lock free; an unlock that does not release (here:
// the wrong key, so the session still holds the real lock) discards the
// connection, which ends the session and so frees the lock it held.
func TestUnlockReleasesOrEndsTheSession(t *testing.T) {
	dsn := testdb.New(t, "sg_poolstats_lock")
	db, observer := testdb.Open(t, dsn), testdb.Open(t, dsn) // observer: sessions of its own
	db.SetMaxOpenConns(2)
	observer.SetMaxOpenConns(1)
	ctx := t.Context()
	const key = int64(lockBase + 99)
	free := func() bool {
		t.Helper()
		other, err := observer.Connx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		var got bool
		if err := other.GetContext(ctx, &got, sqlLock, key); err != nil {
			t.Fatal(err)
		}
		if got {
			other.ExecContext(ctx, sqlUnlock, key) //nolint:errcheck // checked by the next free()
		}
		return got
	}
	backendAlive := func(pid int) bool {
		t.Helper()
		var n int
		if err := observer.GetContext(ctx, &n, `SELECT count(*) FROM pg_stat_activity WHERE pid = $1`, pid); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	for _, tc := range []struct {
		name      string
		unlockKey int64
		wantAlive bool
	}{
		{"released", key, true},
		{"not released", key + 1, false},
	} {
		conn, err := db.Connx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var pid int
		var got bool
		if err := conn.GetContext(ctx, &pid, `SELECT pg_backend_pid()`); err != nil {
			t.Fatal(err)
		}
		if err := conn.GetContext(ctx, &got, sqlLock, key); err != nil || !got {
			t.Fatalf("%s: lock: %v %v", tc.name, got, err)
		}
		unlock(ctx, conn, tc.unlockKey)
		conn.Close()
		// A discarded session ends a moment after its socket closes.
		deadline := time.Now().Add(5 * time.Second)
		for backendAlive(pid) != tc.wantAlive && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if alive := backendAlive(pid); alive != tc.wantAlive {
			t.Errorf("%s: session alive %v, want %v", tc.name, alive, tc.wantAlive)
		}
		if !free() {
			t.Errorf("%s: the lock is still held after unlock", tc.name)
		}
	}
}
