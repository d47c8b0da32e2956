// Package openapi holds syncgate's OpenAPI 3.1 document (openapi.json, the
// one description of every route, kept in step with handlers/routes.go by
// a test) and renders it as a self-contained HTML page for /docs.
//
// openapi.json is generated: it is the bundle of the source tree src/ (one
// file per area, see README.md), written by `go generate` and committed, so
// the served bytes are those under review and the build needs no step of
// its own. A test in ./bundle fails while the two differ.
//
// The page is rendered here in Go rather than by a JavaScript renderer
// bundled from npm: it must work offline and under a strict
// Content-Security-Policy (no scripts at all), the build needs no Node
// toolchain, and the binary does not carry a megabyte of JavaScript for
// one reference page.
package openapi

//go:generate go run ./bundle

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"html/template"
	"sort"
	"strings"
	"sync"
)

// Document is the OpenAPI document, served as is at /openapi.json.
//
//go:embed openapi.json
var Document []byte

var (
	htmlOnce sync.Once
	htmlPage []byte
	htmlErr  error
)

// HTML returns the document rendered as one HTML page (built once).
func HTML() ([]byte, error) {
	htmlOnce.Do(func() { htmlPage, htmlErr = render(Document) })
	return htmlPage, htmlErr
}

type doc struct {
	Info struct {
		Title, Version, Summary, Description string
	}
	Tags  []struct{ Name string }
	Paths map[string]map[string]operation
	Comp  struct {
		Schemas         map[string]json.RawMessage `json:"schemas"`
		Parameters      map[string]parameter       `json:"parameters"`
		SecuritySchemes map[string]struct {
			BearerFormat string `json:"bearerFormat"`
			Description  string `json:"description"`
		} `json:"securitySchemes"`
	} `json:"components"`
}

type operation struct {
	Tags        []string
	Summary     string
	Description string
	Pending     string `json:"x-pending-branch"`
	Security    []map[string][]string
	Parameters  []parameter
	RequestBody *struct {
		Content map[string]struct{ Schema json.RawMessage }
	} `json:"requestBody"`
	Responses map[string]struct {
		Description string
		Content     map[string]struct {
			Schema  json.RawMessage
			Example json.RawMessage
		}
	}
}

// parameter is an operation's parameter, or a $ref to a shared one
// (components.parameters), which render resolves.
type parameter struct {
	Ref                   string `json:"$ref"`
	Name, In, Description string
	Required              bool
	Schema                json.RawMessage
}

type pageOp struct {
	Method, Path string
	Op           operation
	Auth         string
	Codes        []string
}

type pageTag struct {
	Name string
	Ops  []pageOp
}

func render(src []byte) ([]byte, error) {
	var d doc
	if err := json.Unmarshal(src, &d); err != nil {
		return nil, err
	}
	byTag := map[string][]pageOp{}
	for path, ops := range d.Paths {
		for method, op := range ops {
			for i, p := range op.Parameters {
				if name, ok := strings.CutPrefix(p.Ref, "#/components/parameters/"); ok {
					op.Parameters[i] = d.Comp.Parameters[name]
				}
			}
			auth := "none"
			for _, s := range op.Security {
				for name := range s {
					auth = name
				}
			}
			var codes []string
			for c := range op.Responses {
				codes = append(codes, c)
			}
			sort.Strings(codes)
			tag := "other"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			byTag[tag] = append(byTag[tag], pageOp{Method: strings.ToUpper(method), Path: path, Op: op, Auth: auth, Codes: codes})
		}
	}
	var tags []pageTag
	for _, t := range d.Tags {
		ops := byTag[t.Name]
		sort.Slice(ops, func(i, j int) bool {
			if ops[i].Path != ops[j].Path {
				return ops[i].Path < ops[j].Path
			}
			return ops[i].Method < ops[j].Method
		})
		tags = append(tags, pageTag{Name: t.Name, Ops: ops})
	}
	var names []string
	for n := range d.Comp.Schemas {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	err := page.Execute(&buf, map[string]any{"Doc": d, "Tags": tags, "SchemaNames": names})
	return buf.Bytes(), err
}

// pretty indents a raw JSON value for a <pre> block.
func pretty(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var out bytes.Buffer
	if json.Indent(&out, raw, "", "  ") != nil {
		return string(raw)
	}
	return out.String()
}

var page = template.Must(template.New("docs").Funcs(template.FuncMap{
	"pretty": pretty,
	"anchor": func(s string) string {
		return strings.NewReplacer("/", "-", "{", "", "}", "", ".", "-").Replace(s)
	},
	"lower": strings.ToLower,
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.Doc.Info.Title}} API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d1d1f;display:flex}
nav{width:19em;flex:none;height:100vh;overflow:auto;position:sticky;top:0;background:#f5f5f7;padding:1em;box-sizing:border-box;font-size:13px}
nav a{display:block;color:#333;text-decoration:none;padding:1px 0}nav h3{margin:1em 0 .2em;text-transform:uppercase;font-size:11px;color:#888}
main{padding:1em 2em;max-width:60em}h2{border-bottom:1px solid #ddd;margin-top:2em}
.op{border:1px solid #e2e2e2;border-radius:6px;margin:1em 0;padding:.6em 1em}
.m{display:inline-block;min-width:4.5em;font-weight:700;font-family:monospace}.get{color:#0a7}.post{color:#06c}.patch{color:#a60}.delete{color:#c33}
code,pre{font-family:ui-monospace,monospace;font-size:12.5px}pre{background:#f7f7f9;padding:.6em;overflow:auto;max-height:28em}
table{border-collapse:collapse}td,th{border:1px solid #e2e2e2;padding:2px 6px;text-align:left;vertical-align:top}
.pending{background:#fff4d6;padding:0 4px;border-radius:3px;font-size:12px}
</style></head><body>
<nav><strong>{{.Doc.Info.Title}}</strong> v{{.Doc.Info.Version}}<br><a href="/openapi.json">openapi.json</a>
{{range .Tags}}<h3>{{.Name}}</h3>{{range .Ops}}<a href="#{{lower .Method}}{{anchor .Path}}"><span class="m {{lower .Method}}">{{.Method}}</span>{{.Path}}</a>{{end}}{{end}}
<h3>schemas</h3>{{range .SchemaNames}}<a href="#schema-{{.}}">{{.}}</a>{{end}}
</nav><main>
<h1>{{.Doc.Info.Title}} API reference</h1><p>{{.Doc.Info.Summary}}</p><p>{{.Doc.Info.Description}}</p>
<h2>Authentication</h2><table>{{range $n, $s := .Doc.Comp.SecuritySchemes}}<tr><td><code>{{$n}}</code></td><td>Authorization: Bearer <code>{{$s.BearerFormat}}</code></td><td>{{$s.Description}}</td></tr>{{end}}</table>
{{range .Tags}}<h2 id="tag-{{.Name}}">{{.Name}}</h2>
{{range .Ops}}<div class="op" id="{{lower .Method}}{{anchor .Path}}"><div><span class="m {{lower .Method}}">{{.Method}}</span> <code>{{.Path}}</code> {{if .Op.Pending}}<span class="pending">new</span>{{end}}</div>
<p>{{.Op.Summary}}{{if .Op.Description}}<br>{{.Op.Description}}{{end}}</p><p>Authentication: <code>{{.Auth}}</code></p>
{{if .Op.Parameters}}<table><tr><th>parameter</th><th>in</th><th>required</th><th>description</th><th>schema</th></tr>{{range .Op.Parameters}}<tr><td><code>{{.Name}}</code></td><td>{{.In}}</td><td>{{if .Required}}yes{{end}}</td><td>{{.Description}}</td><td><code>{{printf "%s" .Schema}}</code></td></tr>{{end}}</table>{{end}}
{{with .Op.RequestBody}}{{range $ct, $c := .Content}}<p>Request body ({{$ct}}):</p><pre>{{pretty $c.Schema}}</pre>{{end}}{{end}}
{{$op := .Op}}{{range .Codes}}{{$r := index $op.Responses .}}<p><strong>{{.}}</strong> {{$r.Description}}</p>{{range $ct, $c := $r.Content}}<pre>{{pretty $c.Schema}}</pre>{{if $c.Example}}<p>Example:</p><pre>{{pretty $c.Example}}</pre>{{end}}{{end}}{{end}}
</div>{{end}}{{end}}
<h2>Schemas</h2>{{range $n, $s := .Doc.Comp.Schemas}}<h3 id="schema-{{$n}}">{{$n}}</h3><pre>{{pretty $s}}</pre>{{end}}
</main></body></html>
`))
