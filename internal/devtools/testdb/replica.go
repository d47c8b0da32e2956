//go:build linux

package testdb

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/jmoiron/sqlx"
)

// NewReplica starts a streaming replica (hot standby) of c: pg_basebackup
// -R copies c's data directory (every database, as it is now) and writes
// the standby's connection to c, and the copy is started on a port of its
// own. It follows c's writes from then on, can be frozen and stopped like
// any Cluster, and is stopped and removed when the test ends (before c).
// initdb's defaults already allow it: wal_level=replica, wal senders, and
// trusted replication connections from the loopback.
func (c *Cluster) NewReplica() *Cluster {
	t := c.t
	t.Helper()
	root, err := os.MkdirTemp("", "sg-pgreplica-")
	if err != nil {
		t.Fatal(err)
	}
	r := &Cluster{t: t, bin: c.bin, dir: filepath.Join(root, "data"), sockDir: root, cred: c.cred}
	t.Cleanup(func() {
		r.Thaw()
		r.kill()
		os.RemoveAll(root)
	})
	if r.cred != nil {
		if err := os.Chown(root, int(r.cred.Uid), int(r.cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	backup := exec.Command(filepath.Join(c.bin, "pg_basebackup"), "-h", "127.0.0.1", "-p", strconv.Itoa(c.port), "-U", "postgres",
		"-D", r.dir, "-R", "-X", "stream", "-c", "fast", "--no-sync")
	backup.SysProcAttr = &syscall.SysProcAttr{Credential: r.cred}
	if out, err := backup.CombinedOutput(); err != nil {
		t.Fatalf("testdb replica: pg_basebackup: %v\n%s", err, out)
	}
	if r.port, err = freePort(); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatalf("testdb replica: %v", err)
	}
	return r
}

// exec runs one statement on this server's postgres database.
func (c *Cluster) exec(ctx context.Context, query string, dest ...any) error {
	db, err := sqlx.Open("postgres", c.URL("postgres")+"&connect_timeout=2")
	if err != nil {
		return err
	}
	defer db.Close()
	if len(dest) == 0 {
		_, err = db.ExecContext(ctx, query)
		return err
	}
	return db.QueryRowContext(ctx, query).Scan(dest...)
}

// PauseReplay stops a replica replaying the WAL it receives
// (pg_wal_replay_pause): it keeps answering, at the point it paused.
func (c *Cluster) PauseReplay() {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.exec(ctx, `SELECT pg_wal_replay_pause()`); err != nil {
		c.t.Fatalf("testdb replica: pause replay: %v", err)
	}
}

// ResumeReplay undoes PauseReplay.
func (c *Cluster) ResumeReplay() {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.exec(ctx, `SELECT pg_wal_replay_resume()`); err != nil {
		c.t.Fatalf("testdb replica: resume replay: %v", err)
	}
}

// CatchUp waits until replica c has replayed everything primary has
// written so far.
func (c *Cluster) CatchUp(primary *Cluster, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var lsn string
	if err := primary.exec(ctx, `SELECT pg_current_wal_lsn()::text`, &lsn); err != nil {
		return err
	}
	for {
		var done bool
		err := c.exec(ctx, `SELECT pg_last_wal_replay_lsn() >= '`+lsn+`'::pg_lsn`, &done)
		if err == nil && done {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("replica did not replay up to %s within %s (last error: %v)", lsn, timeout, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
