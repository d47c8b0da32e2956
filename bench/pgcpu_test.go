package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestParseStat(t *testing.T) {
	// A command name with spaces and parentheses: the fields count from
	// the last ')'.
	line := "4242 (postgres (x) y) S 2238 2238 2238 0 -1 4194560 100 0 0 0 150 50 7 3 20 0 1 0 12 0 0\n"
	comm, self, children, err := parseStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if comm != "postgres (x) y" || self != 2.0 || children != 0.1 {
		t.Errorf("comm %q, self %v s, children %v s; want postgres (x) y, 2, 0.1", comm, self, children)
	}
	for _, bad := range []string{"", "42 postgres S 1", "42 (postgres) S 1 2 3"} {
		if _, _, _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
}

func TestClassifyPG(t *testing.T) {
	for _, c := range []struct {
		cmdline    string
		kind, db   string
		leader     int
		withLeader bool
	}{
		{"/usr/lib/postgresql/15/bin/postgres\x00-D\x00/var/lib/postgresql/15/main\x00", "postmaster", "", 0, false},
		{"postgres: 15/main: postgres sg_bench_4m 127.0.0.1(49916) idle", "backend", "sg_bench_4m", 0, false},
		{"postgres: 15/main: postgres sg_bench_4m 127.0.0.1(49916) SELECT\x00\x00\x00", "backend", "sg_bench_4m", 0, false},
		{"postgres: bench sg_x [local] idle in transaction", "backend", "sg_x", 0, false}, // no cluster_name
		{"postgres: 15/main: postgres sg_x ::1(5000) idle", "backend", "sg_x", 0, false},
		{"postgres: 15/main: parallel worker for PID 12768", "parallel", "", 12768, true},
		{"postgres: 15/main: checkpointer ", "background", "", 0, false},
		{"postgres: 15/main: autovacuum worker sg_bench_4m", "background", "", 0, false},
		{"postgres: 15/main: walwriter", "background", "", 0, false},
	} {
		kind, db, leader := classifyPG([]byte(c.cmdline))
		if kind != c.kind || db != c.db || leader != c.leader {
			t.Errorf("%q: %s %q %d, want %s %q %d", c.cmdline, kind, db, leader, c.kind, c.db, c.leader)
		}
	}
}

// fakeProc writes a /proc tree: pid → (comm, utime+stime ticks, cutime
// ticks, cmdline).
type fakeProcess struct {
	comm     string
	ticks    int
	children int
	cmdline  string
}

func writeFakeProc(t *testing.T, root string, ps map[int]fakeProcess) {
	t.Helper()
	for pid, p := range ps {
		dir := filepath.Join(root, strconv.Itoa(pid))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		stat := strconv.Itoa(pid) + " (" + p.comm + ") S 1 1 1 0 -1 0 0 0 0 0 " + strconv.Itoa(p.ticks) + " 0 " +
			strconv.Itoa(p.children) + " 0 20 0 1 0 1 0 0\n"
		if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(stat), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "cmdline"), []byte(p.cmdline), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPGProcsAndCPU(t *testing.T) {
	root := t.TempDir()
	writeFakeProc(t, root, map[int]fakeProcess{
		10: {"postgres", 100, 5000, "/usr/lib/postgresql/15/bin/postgres\x00-D\x00/x"},
		11: {"postgres", 40, 0, "postgres: 15/main: checkpointer "},
		20: {"postgres", 300, 0, "postgres: 15/main: postgres sg_bench 127.0.0.1(1) idle"},
		21: {"postgres", 200, 0, "postgres: 15/main: postgres sg_bench 127.0.0.1(2) SELECT"},
		22: {"postgres", 900, 0, "postgres: 15/main: postgres sg_other 127.0.0.1(3) idle"},
		30: {"postgres", 50, 0, "postgres: 15/main: parallel worker for PID 21"},
		31: {"postgres", 70, 0, "postgres: 15/main: parallel worker for PID 22"},
		40: {"redis-server", 1000, 0, "redis-server *:6379"},
	})
	if err := os.MkdirAll(filepath.Join(root, "self"), 0o755); err != nil { // not a pid: ignored
		t.Fatal(err)
	}
	ps, err := pgProcs(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 7 {
		t.Fatalf("%d postgres processes, want 7: %+v", len(ps), ps)
	}
	sum := func(m map[int]float64) float64 {
		var s float64
		for _, v := range m {
			s += v
		}
		return s
	}
	// The bench database: its two backends and the worker of one of them.
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if got := pgCPUOf(ps, "sg_bench"); len(got) != 3 || !near(sum(got), 5.5) {
		t.Errorf("sg_bench: %v (%.2f s), want pids 20, 21, 30 (5.5 s)", got, sum(got))
	}
	// Everything, the postmaster's reaped children included.
	if got := sum(pgCPUOf(ps, "")); !near(got, 1.0+50+0.4+3+2+9+0.5+0.7) {
		t.Errorf("all: %.2f s", got)
	}
}

// pgTracker: a process that ends keeps what it spent up to its last
// sample, one that starts counts from zero, none counts what it spent
// before the first sample.
func TestPGTracker(t *testing.T) {
	var tr pgTracker
	tr.add(map[int]float64{1: 10, 2: 20})
	tr.add(map[int]float64{1: 11, 2: 22, 3: 1}) // 3 started
	tr.add(map[int]float64{1: 12, 3: 4})        // 2 ended
	tr.add(map[int]float64{1: 13, 3: 5, 2: 0.5})
	// 1: 3 s; 2: 2 s, then a new process on its pid: 0.5 s; 3: 5 s.
	if got := tr.seconds(); math.Abs(got-10.5) > 1e-9 {
		t.Errorf("seconds = %v, want 10.5", got)
	}
	var empty pgTracker
	if empty.seconds() != 0 {
		t.Error("no samples, but CPU")
	}
}

func TestDatabaseName(t *testing.T) {
	for dsn, want := range map[string]string{
		"postgres://postgres@127.0.0.1:5432/sg_bench_4m?sslmode=disable": "sg_bench_4m",
		"postgresql://u@h/db":                          "db",
		"postgres://u@h/?dbname=other":                 "other",
		"host=127.0.0.1 user=postgres dbname=sg_x":     "sg_x",
		"host=127.0.0.1 user=postgres dbname='sg_y'":   "sg_y",
		"host=127.0.0.1 user=postgres sslmode=disable": "",
	} {
		if got := databaseName(dsn); got != want {
			t.Errorf("databaseName(%q) = %q, want %q", dsn, got, want)
		}
	}
	if _, err := pgCPUReader("db", "host=127.0.0.1"); err == nil {
		t.Error("--pg-cpu db without a database name accepted")
	}
	if _, err := pgCPUReader("some", "postgres://h/db"); err == nil {
		t.Error("--pg-cpu some accepted")
	}
}

// On this machine's PostgreSQL: the reader finds the backend of a
// connection to a test database, and its CPU grows with the work it does.
func TestPGCPUReaderLive(t *testing.T) {
	dsn := testdb.New(t, "sg_test_pgcpu")
	db := testdb.Open(t, dsn)
	db.SetMaxOpenConns(1)
	var pid int
	if err := db.Get(&pid, `SELECT pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	read, err := pgCPUReader("db", dsn)
	if err != nil {
		t.Fatal(err)
	}
	before, err := read()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := before[pid]; !ok {
		t.Fatalf("backend %d of %s not found: %v", pid, databaseName(dsn), before)
	}
	// Work enough for several clock ticks of CPU.
	var n int64
	if err := db.Get(&n, `SELECT count(*) FROM generate_series(1, 3000000) g WHERE g % 7 = 0`); err != nil {
		t.Fatal(err)
	}
	after, err := read()
	if err != nil {
		t.Fatal(err)
	}
	if after[pid] <= before[pid] {
		t.Errorf("backend %d: %.2f s CPU before a query, %.2f s after", pid, before[pid], after[pid])
	}
}
