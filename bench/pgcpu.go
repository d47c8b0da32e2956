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

// pgCPUOf adds up the CPU seconds of the processes that count: with db
// set, that database's backends and the parallel workers they lead; with
// db empty, every process and every reaped child.
func pgCPUOf(procs []pgProc, db string) float64 {
	var sum float64
	if db == "" {
		for _, p := range procs {
			sum += p.CPU + p.Children
		}
		return sum
	}
	ours := map[int]bool{}
	for _, p := range procs {
		if p.Kind == "backend" && p.DB == db {
			ours[p.PID] = true
			sum += p.CPU
		}
	}
	for _, p := range procs {
		if p.Kind == "parallel" && ours[p.Leader] {
			sum += p.CPU
		}
	}
	return sum
}

// pgCPUReader returns what reads PostgreSQL's CPU seconds so far for
// --pg-cpu: "db" counts dbURL's database, "all" everything.
func pgCPUReader(mode, dbURL string) (func() (float64, error), error) {
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
	return func() (float64, error) {
		ps, err := pgProcs("/proc")
		if err != nil {
			return 0, err
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
