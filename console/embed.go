// Package console holds the partner console: a single-page app of plain,
// hand-written HTML, CSS and JavaScript modules, embedded in the binary so
// it works offline and needs no build step. It talks only to the public
// admin API (handlers serve it at /console).
package console

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Files returns the console's files, index.html at the root.
func Files() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // "static" is embedded above; cannot happen
	}
	return sub
}
