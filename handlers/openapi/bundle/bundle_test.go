package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// TestOpenAPIJSONIsBundleOfSrc: the served document is exactly what the
// bundler makes of src/, so an edit made to openapi.json by hand (or to
// src/ without regenerating) fails here.
func TestOpenAPIJSONIsBundleOfSrc(t *testing.T) {
	want, err := bundle(os.DirFS("../src"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		line := 1 + bytes.Count(got[:commonPrefix(got, want)], []byte("\n"))
		t.Fatalf("handlers/openapi/openapi.json differs from the bundle of handlers/openapi/src from line %d on: "+
			"edit src/ (not openapi.json) and run `go generate ./handlers/openapi`", line)
	}
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func tree(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, body := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(body)}
	}
	return fsys
}

// TestBundleKeepsOrderAndText: members come out in list order then file
// order, nested includes work, and strings and numbers keep their exact
// spelling (no re-escaping of & < >, no float rewriting).
func TestBundleKeepsOrderAndText(t *testing.T) {
	got, err := bundle(tree(map[string]string{
		"root.json": `{"openapi": "3.1.0", "paths": {"$include": ["p/b.json", "p/a.json"]},
			"components": {"schemas": {"$include": ["s.json"]}}, "tags": [{"name": "x"}, []]}`,
		"p/a.json": `{"/z": {"get": {"description": "a & b <c> \u00e9 é"}}, "/a": {}}`,
		"p/b.json": `{"/m": {"get": {"x-n": 1.50e3}}}`,
		"s.json":   `{"Z": {"type": "string"}, "A": {"const": -0}}`,
		"notes.md": `not JSON, not included, ignored`,
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "openapi": "3.1.0",
  "paths": {
    "/m": {
      "get": {
        "x-n": 1.50e3
      }
    },
    "/z": {
      "get": {
        "description": "a & b <c> \u00e9 é"
      }
    },
    "/a": {}
  },
  "components": {
    "schemas": {
      "Z": {
        "type": "string"
      },
      "A": {
        "const": -0
      }
    }
  },
  "tags": [
    {
      "name": "x"
    },
    []
  ]
}
`
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBundleRefuses(t *testing.T) {
	const root = `{"paths": {"$include": ["a.json", "b.json"]}}`
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"key in two files", map[string]string{"root.json": root,
			"a.json": `{"/x": {}}`, "b.json": `{"/x": {}}`}, `b.json: "/x" is already in a.json`},
		{"key twice in a file, deep", map[string]string{"root.json": root,
			"a.json": `{"/x": {"get": {"responses": [{"d": 1, "d": 2}]}}}`, "b.json": `{}`},
			`a.json: key "d" twice in the object at "/~1x/get/responses/0"`},
		{"key twice in root", map[string]string{"root.json": `{"a": 1, "b": {}, "a": 2}`}, `root.json: key "a" twice`},
		{"file not included", map[string]string{"root.json": root,
			"a.json": `{}`, "b.json": `{}`, "sub/c.json": `{}`}, "sub/c.json: not included by root.json"},
		{"file included twice", map[string]string{"root.json": `{"p": {"$include": ["a.json"]}, "q": {"$include": ["a.json"]}}`,
			"a.json": `{}`}, "a.json: included twice"},
		{"missing file", map[string]string{"root.json": root, "a.json": `{}`}, "b.json"},
		{"fragment not an object", map[string]string{"root.json": root,
			"a.json": `{}`, "b.json": `["/x"]`}, "b.json: not a JSON object"},
		{"invalid JSON", map[string]string{"root.json": root,
			"a.json": `{"/x": {},}`, "b.json": `{}`}, "a.json: not valid JSON"},
		{"trailing value", map[string]string{"root.json": root,
			"a.json": `{} {}`, "b.json": `{}`}, "a.json: not valid JSON"},
		{"include in a fragment", map[string]string{"root.json": root,
			"a.json": `{"/x": {"$include": ["b.json"]}}`, "b.json": `{}`}, "a.json: $include at \"/~1x\": only root.json"},
		{"include beside other keys", map[string]string{"root.json": `{"p": {"$include": ["a.json"], "q": 1}}`,
			"a.json": `{}`}, "holds nothing else"},
		{"include outside the tree", map[string]string{"root.json": `{"p": {"$include": ["../a.json"]}}`},
			"not a clean path"},
		{"include not a list", map[string]string{"root.json": `{"p": {"$include": "a.json"}}`, "a.json": `{}`},
			"non-empty list"},
		{"no root", map[string]string{"a.json": `{}`}, "root.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := bundle(tree(c.files))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}
