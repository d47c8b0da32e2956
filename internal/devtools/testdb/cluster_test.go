//go:build linux

package testdb_test

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestClusterFreezeStop: a frozen cluster accepts nothing it answers, a
// thawed one answers again, a stopped one refuses, a restarted one serves.
func TestClusterFreezeStop(t *testing.T) {
	c := testdb.NewCluster(t)
	url := c.CreateDatabase("sg_cluster_test")
	// connect_timeout bounds each new connection: lib/pq alone would wait
	// for a frozen server forever, whatever the context says.
	db, err := sqlx.Open("postgres", url+"&connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ping := func(d time.Duration) error {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		var one int
		return db.GetContext(ctx, &one, `SELECT 1`)
	}
	if err := ping(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if err := c.Freeze(); err != nil {
		t.Fatal(err)
	}
	db.SetMaxIdleConns(0) // a new connection each time: the postmaster is frozen too
	if err := ping(3 * time.Second); err == nil {
		t.Error("a frozen server answered")
	}
	c.Thaw()
	if err := ping(5 * time.Second); err != nil {
		t.Errorf("thawed: %v", err)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := ping(time.Second); err == nil {
		t.Error("a stopped server answered")
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if err := ping(5 * time.Second); err != nil {
		t.Errorf("restarted: %v", err)
	}
}
