package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// PostgreSQL's CPU during a run, read from /proc: the user+system time of
// the postgres processes before and after, so a run reports what its
// requests cost the database as well as the gateway.
//
// By default only the backends connected to the bench's database count
// (and the parallel workers they lead while alive): other databases on the
// same server (other work on a shared machine) and the background
// processes are left out. --pg-cpu all counts every postgres process and
// the CPU of those that ended (the postmaster's reaped children): the
// figure for a machine the bench has to itself.

var pgCPUMode = flag.String("pg-cpu", "db",
	"PostgreSQL CPU per request: db (backends of --db's database and their parallel workers) or all (every postgres process, ended ones included)")

// pgProc is one postgres process as /proc shows it.
type pgProc struct {
	PID int
	// CPU is its own user+system time; Children that of its ended, reaped
	// children (the postmaster's: backends and workers that exited).
	CPU, Children float64
	// Kind is "backend" (a client connection), "parallel" (a parallel
	// worker; Leader is its backend's pid), "postmaster" or "background".
	Kind   string
	DB     string // backends: the database
	Leader int    // parallel workers: the leading backend's pid
}

// parseStat reads comm, utime, stime, cutime and cstime (seconds) from a
// /proc/<pid>/stat line.
func parseStat(b []byte) (comm string, self, children float64, err error) {
	i, j := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if i < 0 || j < i {
		return "", 0, 0, errors.New("stat: no command name")
	}
	comm = string(b[i+1 : j])
	f := strings.Fields(string(b[j+1:]))
	if len(f) < 15 {
		return "", 0, 0, errors.New("stat: too few fields")
	}
	// f[0] is field 3 (state); utime, stime, cutime, cstime are fields 14 to 17.
	var t [4]float64
	for k := range t {
		if t[k], err = strconv.ParseFloat(f[11+k], 64); err != nil {
			return "", 0, 0, fmt.Errorf("stat: %w", err)
		}
	}
	return comm, (t[0] + t[1]) / clkTck, (t[2] + t[3]) / clkTck, nil
}

// classifyPG reads a postgres process's title (its /proc cmdline, which
// postgres rewrites): "postgres: [cluster: ]user db host(port) state" for
// a backend, "postgres: [cluster: ]parallel worker for PID N" for a
// parallel worker, the server's command line for the postmaster.
func classifyPG(cmdline []byte) (kind, db string, leader int) {
	title := strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " "))
	rest, ok := strings.CutPrefix(title, "postgres: ")
	if !ok {
		return "postmaster", "", 0
	}
	if i := strings.Index(rest, "parallel worker for PID "); i >= 0 {
		f := strings.Fields(rest[i+len("parallel worker for PID "):])
		if len(f) > 0 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				return "parallel", "", n
			}
		}
		return "background", "", 0
	}
	f := strings.Fields(rest)
	for k := 2; k < len(f); k++ {
		if isPGHost(f[k]) {
			return "backend", f[k-1], 0
		}
	}
	return "background", "", 0
}

// isPGHost: a backend title's client field, "[local]" or "host(port)".
func isPGHost(s string) bool {
	if s == "[local]" {
		return true
	}
	i := strings.LastIndexByte(s, '(')
	if i <= 0 || !strings.HasSuffix(s, ")") {
		return false
	}
	_, err := strconv.Atoi(s[i+1 : len(s)-1])
	return err == nil
}

// pgProcs lists the postgres processes under procRoot (/proc): comm
// "postgres". Processes that end while being read are skipped.
func pgProcs(procRoot string) ([]pgProc, error) {
	dirs, err := os.ReadDir(procRoot)
	if err != nil {
		return nil, err
	}
	var out []pgProc
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || !d.IsDir() {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(procRoot, d.Name(), "stat"))
		if err != nil {
			continue
		}
		comm, self, children, err := parseStat(stat)
		if err != nil || comm != "postgres" {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join(procRoot, d.Name(), "cmdline"))
		if err != nil {
			continue
		}
		p := pgProc{PID: pid, CPU: self, Children: children}
		p.Kind, p.DB, p.Leader = classifyPG(cmd)
		out = append(out, p)
	}
	return out, nil
}

// pgCPUOf is the CPU seconds of each process that counts, by pid: with db
// set, that database's backends and the parallel workers they lead; with
// db empty, every process, its reaped children included.
func pgCPUOf(procs []pgProc, db string) map[int]float64 {
	out := map[int]float64{}
	if db == "" {
		for _, p := range procs {
			out[p.PID] = p.CPU + p.Children
		}
		return out
	}
	for _, p := range procs {
		if p.Kind == "backend" && p.DB == db {
			out[p.PID] = p.CPU
		}
	}
	for _, p := range procs {
		if _, ours := out[p.Leader]; p.Kind == "parallel" && ours {
			out[p.PID] = p.CPU
		}
	}
	return out
}

// pgTracker adds up, over a run, the CPU each counted process spent: a
// process that ends takes its time with it, and one that starts brings
// what it spent before it was first seen, so a plain sum read before and
// after would be off by both (and could go down). Each process counts
// from its first sample (from zero when it started after the first) to
// its last.
type pgTracker struct {
	first, last map[int]float64
	ended       float64 // processes whose pid a new one took
	sampled     bool
}

func (t *pgTracker) add(s map[int]float64) {
	if t.first == nil {
		t.first, t.last = map[int]float64{}, map[int]float64{}
	}
	for pid, v := range s {
		if _, seen := t.first[pid]; !seen {
			if t.sampled {
				t.first[pid] = 0 // started during the run
			} else {
				t.first[pid] = v
			}
		}
		if v < t.last[pid] { // the pid was reused by a new process
			t.ended += t.last[pid] - t.first[pid]
			t.first[pid] = 0
		}
		t.last[pid] = v
	}
	t.sampled = true
}

// seconds is the CPU the counted processes spent between the samples.
func (t *pgTracker) seconds() float64 {
	sum := t.ended
	for pid, v := range t.last {
		sum += v - t.first[pid]
	}
	return sum
}

// pgCPUReader returns what reads PostgreSQL's CPU seconds so far, by
// process, for --pg-cpu: "db" counts dbURL's database, "all" everything.
func pgCPUReader(mode, dbURL string) (func() (map[int]float64, error), error) {
	var db string
	switch mode {
	case "all":
	case "db":
		if db = databaseName(dbURL); db == "" {
			return nil, fmt.Errorf("--pg-cpu db: no database name in --db")
		}
	default:
		return nil, fmt.Errorf("--pg-cpu %q: want db or all", mode)
	}
	return func() (map[int]float64, error) {
		ps, err := pgProcs("/proc")
		if err != nil {
			return nil, err
		}
		return pgCPUOf(ps, db), nil
	}, nil
}

// databaseName is the database a PostgreSQL URL or keyword DSN names.
func databaseName(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		if name := strings.TrimPrefix(u.Path, "/"); name != "" {
			return name
		}
		return u.Query().Get("dbname")
	}
	for _, f := range strings.Fields(dsn) {
		if v, ok := strings.CutPrefix(f, "dbname="); ok {
			return strings.Trim(v, "'")
		}
	}
	return ""
}
