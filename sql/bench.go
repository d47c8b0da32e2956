package sqlfiles

import "embed"

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
func BenchMust(name string) string { return mustRead(benchFiles, name) }

// BenchUnused lists the bench's .sql files no BenchMust call has asked for
// in this process.
func BenchUnused() []string { return unusedOf(sqlFiles(benchFiles)) }
