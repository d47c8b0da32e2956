//go:build linux

package pgconn_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/platform/pgconn"
)

// slack is what a call may take past its deadline on a loaded test machine
// (the goal is zero: the caller's answer is due by its deadline). Generous:
// what these tests tell apart is a call that ends by its deadline from one
// that waits on a frozen server for ever.
const slack = time.Second

func open(t *testing.T, dsn string, o pgconn.Options) *sqlx.DB {
	t.Helper()
	db, err := pgconn.Open(dsn, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// within runs fn with a deadline d and fails the test when fn returns
// later than d (+slack) or without an error.
func within(t *testing.T, what string, d time.Duration, fn func(ctx context.Context) error) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	err := fn(ctx)
	took := time.Since(start)
	t.Logf("%s: answered %s after a %s deadline (overshoot %s)", what, took.Round(time.Millisecond), d, (took - d).Round(time.Millisecond))
	if took > d+slack {
		t.Errorf("%s: took %s against a %s deadline", what, took, d)
	}
	if err == nil {
		t.Errorf("%s: no error from a frozen server", what)
	}
	return err
}

// TestFrozenServerCallsEndByTheirDeadline: with every server process
// stopped (SIGSTOP), plain, prepared, transactional and connecting calls
// all return by their context's deadline with a deadline error, and the
// pool serves again once the server is thawed.
func TestFrozenServerCallsEndByTheirDeadline(t *testing.T) {
	c := testdb.NewCluster(t)
	dsn := c.CreateDatabase("sg_pgconn")
	db := open(t, dsn, pgconn.Options{})
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	ctx := context.Background()
	stmt, err := db.PreparexContext(ctx, `SELECT $1::int + 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	// Warm several idle connections, each with the statement prepared.
	conns := make([]*sqlx.Conn, 4)
	for i := range conns {
		if conns[i], err = db.Connx(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, cn := range conns {
		var n int
		if err := cn.GetContext(ctx, &n, `SELECT 1`); err != nil {
			t.Fatal(err)
		}
		cn.Close()
	}
	var n int
	if err := stmt.GetContext(ctx, &n, 1); err != nil || n != 2 {
		t.Fatalf("prepared: %d %v", n, err)
	}

	if err := c.Freeze(); err != nil {
		t.Fatal(err)
	}
	const d = 600 * time.Millisecond
	err = within(t, "query", d, func(ctx context.Context) error { return db.GetContext(ctx, &n, `SELECT 1`) })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("query: %v, want a deadline error", err)
	}
	within(t, "prepared", d, func(ctx context.Context) error { return stmt.GetContext(ctx, &n, 1) })
	within(t, "transaction", d, func(ctx context.Context) error {
		tx, err := db.BeginTxx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback() //nolint:errcheck
		return tx.GetContext(ctx, &n, `SELECT 1`)
	})
	within(t, "cancelled", 5*time.Second, func(ctx context.Context) error {
		ctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(200*time.Millisecond, cancel)
		err := db.GetContext(ctx, &n, `SELECT 1`)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled: %v", err)
		}
		return err
	})
	// Every idle connection is used up or discarded by now: new ones
	// connect to the frozen postmaster.
	db.SetMaxIdleConns(0)
	within(t, "connect", d, func(ctx context.Context) error { return db.PingContext(ctx) })

	// Without a deadline, ConnectTimeout still ends a connection attempt,
	// as a connection failure.
	short := open(t, dsn, pgconn.Options{ConnectTimeout: 300 * time.Millisecond})
	err = within(t, "connect timeout", time.Minute, func(ctx context.Context) error {
		start := time.Now()
		err := short.PingContext(context.Background())
		if took := time.Since(start); took > 300*time.Millisecond+slack {
			t.Errorf("connect timeout: took %s", took)
		}
		return err
	})
	var ne net.Error
	if !errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("connect timeout: %v, want a network error", err)
	}

	c.Thaw()
	db.SetMaxIdleConns(8)
	for i := 0; i < 10; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := stmt.GetContext(ctx, &n, 41)
		cancel()
		if err != nil || n != 42 {
			t.Fatalf("after thaw, call %d: %d %v", i, n, err)
		}
	}
}

// TestLiveServerStillCancels: on a live server a statement whose context
// ends is cancelled server-side (lib/pq's cancel request still goes out),
// and the caller has its answer by the deadline.
func TestLiveServerStillCancels(t *testing.T) {
	c := testdb.NewCluster(t)
	dsn := c.CreateDatabase("sg_pgconn")
	db := open(t, dsn, pgconn.Options{})
	for _, prepared := range []bool{false, true} {
		err := within(t, "pg_sleep", 500*time.Millisecond, func(ctx context.Context) error {
			var x any
			if prepared {
				st, err := db.PreparexContext(context.Background(), `SELECT pg_sleep($1)`)
				if err != nil {
					return err
				}
				defer st.Close()
				return st.GetContext(ctx, &x, 5)
			}
			return db.GetContext(ctx, &x, `SELECT pg_sleep(5)`)
		})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("prepared=%v: %v", prepared, err)
		}
		watch := open(t, dsn, pgconn.Options{})
		deadline := time.Now().Add(2 * time.Second)
		for {
			var sleeping int
			if err := watch.Get(&sleeping, `SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND state = 'active'`); err != nil {
				t.Fatal(err)
			}
			if sleeping == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("prepared=%v: the abandoned statement still runs on the server", prepared)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}
