// Package sql holds every SQL statement syncgate runs, one statement per
// file, embedded into the binary:
//
//	dbsync/           read-only queries against a cardano-db-sync database
//	dbsync/indexes/   recommended extra db-sync indexes (IF NOT EXISTS)
//	chaingen/         the chain generator's own statements (checks, singletons)
//	chaingen/schema/  db-sync 13.7 DDL, used only by the chain generator
//	admin/            queries against syncgate's own admin schema
//	admin/migrations/ numbered admin schema migrations, never edited once landed
//	utxoindex/        syncgate's unspent-output index kept beside db-sync (its own schema)
//
// Packages load their statements into package-level values at start-up with
// Must, so a missing file stops the process at boot, not on a request.
package sqlfiles

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"text/template"
)

//go:embed dbsync admin chaingen utxoindex
var files embed.FS

// loaded records every file a package asked for, so a test can find SQL
// that nothing uses any more.
var loaded sync.Map

// names maps a statement's text back to its file name, so metrics can
// label a statement by the file it came from.
var names sync.Map

// Must returns the text of the named file (for example "dbsync/tip.sql").
// It panics when the file does not exist: that is a build defect.
func Must(name string) string { return mustRead(files, name) }

// mustRead is Must over one embedded tree (the service's or the bench's).
func mustRead(tree embed.FS, name string) string {
	b, err := tree.ReadFile(name)
	if err != nil {
		panic("sql: missing embedded file " + name)
	}
	loaded.Store(name, true)
	names.LoadOrStore(string(b), name)
	return string(b)
}

// Text returns the named file's text, or an error when there is none (for
// names typed by a person; code uses Must).
func Text(name string) (string, error) {
	b, err := files.ReadFile(name)
	return string(b), err
}

// Compose returns the named file with {{template "x"}} expanded from the
// fragments.sql of its directory (text/template, no data). For statements
// that share a column list; dbsync's layout templates render themselves.
// It panics like Must on a missing file or a broken template.
func Compose(name string) string {
	dir := name[:strings.LastIndex(name, "/")+1]
	t, err := template.New(name).Parse(Must(dir + "fragments.sql"))
	if err == nil {
		t, err = t.Parse(Must(name))
	}
	var b strings.Builder
	if err == nil {
		err = t.Execute(&b, nil)
	}
	if err != nil {
		panic("sql: " + name + ": " + err.Error())
	}
	names.LoadOrStore(b.String(), name)
	return b.String()
}

// Label records name as the file a rendered statement came from (dbsync
// renders some files as templates), so NameOf finds it too.
func Label(text, name string) { names.LoadOrStore(text, name) }

// NameOf returns the file name ("dbsync/tip.sql") of a statement text
// returned by Must, or "" for text that did not come from Must unchanged.
func NameOf(text string) string {
	if n, ok := names.Load(text); ok {
		return n.(string)
	}
	return ""
}

// Unused lists the embedded files no Must or Dir call has asked for in
// this process (call it after every package's init has run).
func Unused() []string { return unusedOf(All()) }

// Dir returns the names of the .sql files directly in dir, sorted, with
// their full embedded path.
func Dir(dir string) []string {
	entries, err := fs.ReadDir(files, dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".sql") {
			names = append(names, dir+"/"+e.Name())
			loaded.Store(dir+"/"+e.Name(), true)
		}
	}
	sort.Strings(names)
	return names
}

// All lists every embedded .sql file, for the test that checks each one is used.
func All() []string { return sqlFiles(files) }

// sqlFiles lists every .sql file of an embedded tree, sorted.
func sqlFiles(tree embed.FS) []string {
	var names []string
	_ = fs.WalkDir(tree, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".sql") {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	return names
}

// unusedOf lists the names no Must-like call has asked for in this process.
func unusedOf(all []string) []string {
	var out []string
	for _, name := range all {
		if _, ok := loaded.Load(name); !ok {
			out = append(out, name)
		}
	}
	return out
}
