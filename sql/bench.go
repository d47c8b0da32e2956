package sql

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

// benchFiles are the load benchmark's own statements (bench/: data steps
// such as adding the wide address to a seeded db-sync). They are embedded
// apart from the service's files: the syncgate binary never loads them, so
// All and Unused, which check the binary's statements, leave them out;
// BenchUnused does the same check for the bench.
//
//go:embed bench
var benchFiles embed.FS

// BenchMust returns the text of the named bench statement (for example
// "bench/wide_tip.sql") and panics when there is none, like Must.
func BenchMust(name string) string {
	b, err := benchFiles.ReadFile(name)
	if err != nil {
		panic("sql: missing embedded bench file " + name)
	}
	loaded.Store(name, true)
	names.LoadOrStore(string(b), name)
	return string(b)
}

// BenchUnused lists the bench's .sql files no BenchMust call has asked for
// in this process.
func BenchUnused() []string {
	var out []string
	_ = fs.WalkDir(benchFiles, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".sql") {
			if _, ok := loaded.Load(p); !ok {
				out = append(out, p)
			}
		}
		return nil
	})
	sort.Strings(out)
	return out
}
