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
	"fmt"
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
	return string(b)
}

// Text returns the named file's text, or an error when there is none (for
// names typed by a person; code uses Must).
func Text(name string) (string, error) {
	b, err := files.ReadFile(name)
	return string(b), err
}

// Statement is one statement ready to run: its text and the name it goes
// by in metrics and logs, which is its file ("dbsync/tip.sql"), followed
// by the template parameters it was rendered with, if any
// ("dbsync/tx_history_page.sql Order=DESC"). The name travels with the
// text, so nothing has to find a statement's name from its text.
type Statement struct {
	Name string
	Text string
}

// Load returns the named file as a Statement, unrendered; it panics like
// Must on a missing file.
func Load(name string) Statement { return Statement{Name: name, Text: Must(name)} }

// Render executes the named file as a text/template: the fragments.sql
// of its top directory ("dbsync/fragments.sql" for
// "dbsync/indexes/x.sql"), when there is one, is parsed first so the file
// may use its definitions ({{template "utxo_rows" .}}); funcs are the
// template functions (nil: none) and data the values the template sees.
// A key missing from data is an error. This is the one renderer of every
// SQL template: dbsync's layouts, the admin store's shared column lists and
// the unspent-output index's variants.
func Render(name string, funcs template.FuncMap, data any) (string, error) {
	src, err := files.ReadFile(name)
	if err != nil {
		return "", err
	}
	loaded.Store(name, true)
	t := template.New(name).Funcs(funcs).Option("missingkey=error")
	if top, _, ok := strings.Cut(name, "/"); ok {
		frag := top + "/fragments.sql"
		if b, err := files.ReadFile(frag); err == nil && frag != name {
			loaded.Store(frag, true)
			if t, err = t.Parse(string(b)); err != nil {
				return "", fmt.Errorf("%s: %w", frag, err)
			}
		}
	}
	if t, err = t.Parse(string(src)); err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Compose renders the named file with no functions and no data: for
// statements that only share a column list from fragments.sql. It panics
// like Must on a missing file or a broken template.
func Compose(name string) string {
	text, err := Render(name, nil, nil)
	if err != nil {
		panic("sql: " + name + ": " + err.Error())
	}
	return text
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
