// Command bfimport writes the Blockfrost dialect's part of syncgate's
// OpenAPI source (src/paths/blockfrost.json and
// src/components/schemas/blockfrost.json) from Blockfrost's own document,
// the openapi.yaml of npm @blockfrost/openapi (MIT, © blockfrost.io), for
// the routes syncgate serves under /api/v0. Blockfrost's document is the
// contract (spec/blockfrost.md); importing it, rather than writing the 60
// shapes again by hand, keeps ours from drifting from it. Run it when the
// served routes or the pinned version change, then go generate:
//
//	go run ./handlers/openapi/bfimport -in internal/devtools/jsclients/node_modules/@blockfrost/openapi/openapi.yaml
//	go generate ./handlers/openapi
//
// It turns OpenAPI 3.0 into 3.1 on the way (nullable becomes a "null"
// type), prefixes the paths with /api/v0, names the imported schemas
// Blockfrost_<name>, keeps only each operation's parts a reader needs
// (summary, description, parameters, body, responses) and answers every
// error with the dialect's error schema. Examples are left out.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

func main() {
	in := flag.String("in", "internal/devtools/jsclients/node_modules/@blockfrost/openapi/openapi.yaml", "Blockfrost's openapi.yaml")
	src := flag.String("src", "handlers/openapi/src", "syncgate's OpenAPI source tree")
	flag.Parse()
	if err := run(*in, *src); err != nil {
		fmt.Fprintln(os.Stderr, "bfimport:", err)
		os.Exit(1)
	}
}

func run(in, src string) error {
	doc, err := openapi3.NewLoader().LoadFromFile(in)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	var bf map[string]any
	if err := json.Unmarshal(raw, &bf); err != nil {
		return err
	}
	paths, schemas, err := convert(bf, Routes)
	if err != nil {
		return err
	}
	if err := write(filepath.Join(src, "paths", "blockfrost.json"), paths); err != nil {
		return err
	}
	return write(filepath.Join(src, "components", "schemas", "blockfrost.json"), schemas)
}

// convert picks routes' path items out of Blockfrost's document and the
// schemas they reach.
func convert(bf map[string]any, routes []string) (paths, schemas map[string]any, err error) {
	bfPaths, _ := bf["paths"].(map[string]any)
	comps, _ := bf["components"].(map[string]any)
	bfSchemas, _ := comps["schemas"].(map[string]any)
	paths, schemas = map[string]any{}, map[string]any{}
	need := map[string]bool{}
	for _, r := range routes {
		method, path, _ := strings.Cut(r, " ")
		item, ok := bfPaths[path].(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf("Blockfrost's document has no path %s", path)
		}
		op, ok := item[strings.ToLower(method)].(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf("Blockfrost's document has no %s", r)
		}
		ours := "/api/v0" + strings.TrimSuffix(path, "/")
		if path == "/" {
			ours = "/api/v0"
		}
		pi, _ := paths[ours].(map[string]any)
		if pi == nil {
			pi = map[string]any{}
			paths[ours] = pi
		}
		pi[strings.ToLower(method)] = operation(op, need)
	}
	// The schemas reached, and the ones they reach.
	for len(need) > 0 {
		var next []string
		for n := range need {
			next = append(next, n)
		}
		need = map[string]bool{}
		for _, n := range next {
			if _, done := schemas[schemaName(n)]; done {
				continue
			}
			s, ok := bfSchemas[n]
			if !ok {
				return nil, nil, fmt.Errorf("schema %s not in Blockfrost's document", n)
			}
			schemas[schemaName(n)] = rewrite(s, need)
		}
	}
	return paths, schemas, nil
}

// operation is one Blockfrost operation as syncgate documents it.
func operation(op map[string]any, need map[string]bool) map[string]any {
	out := map[string]any{"tags": []any{"blockfrost"}, "security": []any{map[string]any{"projectId": []any{}}}}
	for _, k := range []string{"summary", "description", "operationId", "parameters", "requestBody"} {
		if v, ok := op[k]; ok {
			out[k] = rewrite(v, need)
		}
	}
	if d, ok := out["description"].(string); ok {
		out["description"] = strings.TrimSpace(d)
	}
	responses := map[string]any{}
	rs, _ := op["responses"].(map[string]any)
	for code, r := range rs {
		if code == "200" {
			responses[code] = rewrite(r, need)
			continue
		}
		responses[code] = map[string]any{"$ref": "#/components/responses/BlockfrostError"}
	}
	for _, code := range []string{"400", "402", "403", "404", "413", "425", "429", "500", "501", "503", "504"} {
		if _, ok := responses[code]; !ok {
			responses[code] = map[string]any{"$ref": "#/components/responses/BlockfrostError"}
		}
	}
	out["responses"] = responses
	return out
}

// rewrite copies v, pointing schema references at the imported names
// (recording them in need) and turning 3.0's nullable into 3.1's types.
func rewrite(v any, need map[string]bool) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range t {
			if k == "$ref" {
				ref := x.(string)
				if n, ok := strings.CutPrefix(ref, "#/components/schemas/"); ok {
					need[n] = true
					out[k] = "#/components/schemas/" + schemaName(n)
					continue
				}
			}
			// Some of Blockfrost's examples fail their own schemas (a
			// required deprecated field left out): ours carries none.
			if k == "nullable" || k == "example" || k == "examples" || strings.HasPrefix(k, "x-") {
				continue
			}
			out[k] = rewrite(x, need)
		}
		if t["nullable"] == true {
			nullable(out)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = rewrite(x, need)
		}
		return out
	}
	return v
}

// nullable lets a 3.1 schema also be null.
func nullable(s map[string]any) {
	switch t := s["type"].(type) {
	case string:
		s["type"] = []any{t, "null"}
	case nil:
		if _, ok := s["$ref"]; ok {
			ref := s["$ref"]
			delete(s, "$ref")
			s["anyOf"] = []any{map[string]any{"$ref": ref}, map[string]any{"type": "null"}}
		}
	}
	if e, ok := s["enum"].([]any); ok {
		s["enum"] = append(e, nil)
	}
}

func schemaName(n string) string {
	r := strings.NewReplacer("-", "_", ".", "_", " ", "_")
	return "Blockfrost_" + r.Replace(n)
}

// write writes v as indented JSON with sorted keys (encoding/json sorts maps).
func write(file string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}
