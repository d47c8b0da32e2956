// Command bundle writes handlers/openapi/openapi.json, the OpenAPI document
// syncgate serves, from the source tree handlers/openapi/src (root.json and
// the files it includes). It runs by `go generate ./handlers/openapi`; a
// test of this package fails while openapi.json differs from the bundle of
// src, so the generated file is never the one edited.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
)

func main() {
	src := flag.String("src", "src", "source tree (holds root.json)")
	out := flag.String("out", "openapi.json", "document to write")
	flag.Parse()
	doc, err := bundle(os.DirFS(*src))
	if err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
	// Leave an up-to-date file untouched (no needless rebuilds).
	if old, err := os.ReadFile(*out); err == nil && bytes.Equal(old, doc) {
		return
	}
	if err := os.WriteFile(*out, doc, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
}
