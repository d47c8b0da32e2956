//go:build linux

package testdb

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Cluster is a PostgreSQL server of the test's own: initdb in a temporary
// directory, postgres on a free loopback port. Tests that must stop the
// server, or freeze it the way a network black hole or a stuck volume
// looks to a client (every process SIGSTOPped: the kernel still accepts
// connections and acknowledges data, nothing answers), use it instead of
// the shared server. Trust authentication, user postgres.
type Cluster struct {
	t       testing.TB
	bin     string // directory holding initdb and postgres
	dir     string // data directory
	sockDir string
	port    int
	cred    *syscall.Credential // set when running as root: the server runs as user postgres

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	frozen []int // pids stopped by Freeze
}

// NewCluster initialises a cluster and starts it; it is stopped and
// removed when the test ends. Skips under -short; otherwise a missing
// PostgreSQL installation fails the test (like the shared server).
func NewCluster(t testing.TB) *Cluster {
	t.Helper()
	SkipShort(t)
	bin, err := postgresBin()
	if err != nil {
		t.Fatalf("testdb cluster: %v", err)
	}
	root, err := os.MkdirTemp("", "sg-pgcluster-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{t: t, bin: bin, dir: filepath.Join(root, "data"), sockDir: root}
	t.Cleanup(func() {
		c.Thaw()
		c.kill()
		os.RemoveAll(root)
	})
	if os.Geteuid() == 0 {
		// initdb and postgres refuse to run as root.
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("testdb cluster: running as root needs a postgres user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(root, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", c.dir, "-U", "postgres", "-A", "trust",
		"--no-sync", "-E", "UTF8", "--locale=C")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("testdb cluster: initdb: %v\n%s", err, out)
	}
	if c.port, err = freePort(); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatalf("testdb cluster: %v", err)
	}
	return c
}

// postgresBin finds the directory of initdb and postgres: $PG_BIN, the
// newest /usr/lib/postgresql/*/bin (Debian), or initdb on $PATH.
func postgresBin() (string, error) {
	if d := os.Getenv("PG_BIN"); d != "" {
		return d, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi > vj
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "postgres")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errors.New("no PostgreSQL server binaries (set PG_BIN to the directory holding initdb and postgres)")
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Start starts the server (again, after Stop) on the same port and data
// directory and returns once it accepts connections.
func (c *Cluster) Start() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd != nil {
		return errors.New("cluster already running")
	}
	cmd := exec.Command(filepath.Join(c.bin, "postgres"), "-D", c.dir, "-p", strconv.Itoa(c.port), "-k", c.sockDir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=60", "-c", "shared_buffers=32MB")
	// Pdeathsig: a test binary killed mid-run takes its server with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred, Pdeathsig: syscall.SIGKILL}
	logFile, err := os.Create(filepath.Join(c.sockDir, "postgres.log"))
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return err
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(exited)
	}()
	c.cmd, c.exited = cmd, exited
	deadline := time.Now().Add(30 * time.Second)
	for {
		if err := c.ping(); err == nil {
			return nil
		} else if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not start: %v (log: %s)", err, c.logTail())
		}
		select {
		case <-exited:
			c.cmd = nil
			return fmt.Errorf("postgres exited at start (log: %s)", c.logTail())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (c *Cluster) ping() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	db, err := sqlx.Open("postgres", c.URL("postgres")+"&connect_timeout=1")
	if err != nil {
		return err
	}
	defer db.Close()
	return db.PingContext(ctx)
}

func (c *Cluster) logTail() string {
	b, _ := os.ReadFile(filepath.Join(c.sockDir, "postgres.log"))
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// Stop shuts the server down (fast: sessions are ended, as when a database
// server goes away) and waits for it to exit. A frozen server is thawed
// first.
func (c *Cluster) Stop() error {
	c.Thaw()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return nil
	}
	_ = c.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-c.exited:
	case <-time.After(30 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
	c.cmd = nil
	return nil
}

// kill ends the server at once (cleanup).
func (c *Cluster) kill() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return
	}
	_ = c.cmd.Process.Signal(syscall.SIGQUIT) // immediate shutdown; children follow
	select {
	case <-c.exited:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
	c.cmd = nil
}

// Freeze stops (SIGSTOP) the postmaster and every process it has started:
// connections still complete in the kernel and writes are acknowledged,
// but nothing is ever answered. Thaw undoes it.
func (c *Cluster) Freeze() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return errors.New("cluster not running")
	}
	// The postmaster first, so it forks nothing new while its children stop.
	pids := append([]int{c.cmd.Process.Pid}, childrenOf(c.cmd.Process.Pid)...)
	for _, pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil && !errors.Is(err, syscall.ESRCH) {
			return err
		}
		c.frozen = append(c.frozen, pid)
	}
	return nil
}

// Thaw resumes (SIGCONT) what Freeze stopped.
func (c *Cluster) Thaw() {
	c.mu.Lock()
	defer c.mu.Unlock()
	// Children first: the postmaster, once running, finds them ready.
	for i := len(c.frozen) - 1; i >= 0; i-- {
		_ = syscall.Kill(c.frozen[i], syscall.SIGCONT)
	}
	c.frozen = nil
}

// childrenOf lists the processes whose parent is pid (from /proc).
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut after its ')'.
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		if len(fields) >= 2 && fields[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

// Port is the server's TCP port.
func (c *Cluster) Port() int { return c.port }

// URL is a connection URL for database name on this server.
func (c *Cluster) URL(name string) string {
	u := url.URL{Scheme: "postgres", User: url.User("postgres"), Host: "127.0.0.1:" + strconv.Itoa(c.port), Path: "/" + name,
		RawQuery: "sslmode=disable"}
	return u.String()
}

// CreateDatabase creates database name on this server and returns its URL.
func (c *Cluster) CreateDatabase(name string) string {
	c.t.Helper()
	db, err := sqlx.Open("postgres", c.URL("postgres"))
	if err != nil {
		c.t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE DATABASE ` + pq.QuoteIdentifier(name)); err != nil {
		c.t.Fatalf("testdb cluster: create %s: %v", name, err)
	}
	return c.URL(name)
}
