// Package bfschema checks answers against Blockfrost's API contract: the
// OpenAPI document (openapi.yaml) of the pinned npm package
// @blockfrost/openapi, installed by internal/devtools/jsclients. Tests of
// the Blockfrost dialect validate every answer they receive with
// ValidateResponse, and list the document's routes with Routes. Imported
// only by tests and tools.
package bfschema

import (
	"fmt"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/syncgate/syncgate/internal/devtools/jsclients"
)

// Version is the @blockfrost/openapi release package-lock.json pins; Load
// refuses a document of another.
const Version = "0.1.93"

// Document is Blockfrost's OpenAPI document, loaded and routed.
type Document struct {
	doc    *openapi3.T
	router routers.Router
	// errorShape is the answer of every status but 200: Blockfrost's
	// {status_code, error, message}.
	errorShape *openapi3.Schema
	// custom holds the 200 schemas Blockfrost's own backend answers with
	// in place of the document's (getSchemaForEndpoint's custom schemas).
	custom map[string]*openapi3.Schema
}

// Route is one operation of the document: its method and path template
// (as the document writes it, without the /api/v0 prefix).
type Route struct {
	Method   string // GET, POST
	Template string // /addresses/{address}/utxos
}

func (r Route) String() string { return r.Method + " " + r.Template }

// InScope tells whether syncgate's Blockfrost dialect serves the route:
// every route of the document but IPFS, NutLink and Blockfrost's own
// metrics (shared/spec/blockfrost.md).
func (r Route) InScope() bool {
	first, _, _ := strings.Cut(strings.TrimPrefix(r.Template, "/"), "/")
	switch first {
	case "ipfs", "nutlink", "metrics", "mithril":
		return false
	}
	return true
}

var (
	openOnce sync.Once
	openDoc  *Document
	openErr  error
)

// Open returns the document of the installed @blockfrost/openapi, loaded
// once per test binary. Like jsclients.Require, it skips the test under
// -short and fails it when the package cannot be installed or loaded.
func Open(t testing.TB) *Document {
	t.Helper()
	file := filepath.Join(jsclients.Package(t, "@blockfrost/openapi"), "openapi.yaml")
	openOnce.Do(func() { openDoc, openErr = Load(file) })
	if openErr != nil {
		t.Fatalf("bfschema: %v", openErr)
	}
	return openDoc
}

// Load reads and routes Blockfrost's openapi.yaml.
func Load(file string) (*Document, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if doc.Info == nil || doc.Info.Version != Version {
		return nil, fmt.Errorf("%s: not version %s of Blockfrost's document", file, Version)
	}
	if err := nullTypesAsNullable(doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	// The examples are checked route by route by this package's tests
	// (Blockfrost's Mithril schemas give URLs the format "byte", so the
	// document as a whole would not pass); the schemas themselves must.
	opts := []openapi3.ValidationOption{openapi3.DisableExamplesValidation()}
	if err := doc.Validate(loader.Context, opts...); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	// Requests are matched on their paths only: the document's servers
	// are Blockfrost's hosts, with /api/v0 in them.
	doc.Servers = nil
	router, err := legacy.NewRouter(doc, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	d := &Document{doc: doc, router: router, custom: customSchemas()}
	if d.errorShape, err = errorShape(doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return d, nil
}

// nullTypesAsNullable rewrites the document's `anyOf: [..., {type:
// 'null'}]` (six properties holding any JSON value: DRep and proposal
// metadata, script JSON) into the OpenAPI 3.0 form `nullable: true` beside
// the remaining alternatives. The document says it is OpenAPI 3.0.3, where
// "null" is no type: kin-openapi refuses the document as written. The
// rewrite accepts exactly the same values.
func nullTypesAsNullable(doc *openapi3.T) error {
	return doc.WalkSchemas(func(_ string, ref *openapi3.SchemaRef) error {
		s := ref.Value
		for _, of := range []*openapi3.SchemaRefs{&s.AnyOf, &s.OneOf} {
			kept := (*of)[:0:0]
			for _, alt := range *of {
				if alt.Value != nil && alt.Value.Type.Is(openapi3.TypeNull) {
					s.Nullable = true
					continue
				}
				kept = append(kept, alt)
			}
			*of = kept
		}
		return nil
	})
}

// Routes lists every operation of the document, sorted by template then
// method (129 in 0.1.93; 117 InScope).
func (d *Document) Routes() []Route {
	var out []Route
	for path, item := range d.doc.Paths.Map() {
		for method := range item.Operations() {
			out = append(out, Route{Method: method, Template: path})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Template != out[j].Template {
			return out[i].Template < out[j].Template
		}
		return out[i].Method < out[j].Method
	})
	return out
}

// Match finds the route a concrete request path (without /api/v0; a query
// string is ignored) belongs to, with its path parameters.
func (d *Document) Match(method, path string) (Route, map[string]string, error) {
	req, err := http.NewRequest(method, "http://blockfrost.invalid"+path, nil)
	if err != nil {
		return Route{}, nil, fmt.Errorf("bfschema: %s %s: %w", method, path, err)
	}
	route, params, err := d.router.FindRoute(req)
	if err != nil {
		return Route{}, nil, fmt.Errorf("bfschema: %s %s is no route of Blockfrost's document: %w", method, path, err)
	}
	// kin-openapi's router lets a parameter match nothing: /addresses
	// would be /addresses/{address} with an empty address (and a
	// trailing slash is another path).
	if strings.Count(req.URL.Path, "/") != strings.Count(route.Path, "/") {
		return Route{}, nil, fmt.Errorf("bfschema: %s %s is no route of Blockfrost's document (nearest: %s)", method, path, route.Path)
	}
	for name, v := range params {
		if v == "" {
			return Route{}, nil, fmt.Errorf("bfschema: %s %s: %s is empty", method, path, name)
		}
	}
	return Route{Method: route.Method, Template: route.Path}, params, nil
}

// Parameter is one declared parameter of a route.
type Parameter struct {
	Name     string
	Required bool
	// Schema is the parameter's schema: type, enum, default, minimum and
	// maximum (count 1-100, page 1-21474836, order asc|desc…).
	Schema *openapi3.Schema
}

// QueryParameters lists the query parameters the route declares, in the
// document's order (nil for an unknown route).
func (d *Document) QueryParameters(r Route) []Parameter {
	return d.parameters(r, openapi3.ParameterInQuery)
}

// PathParameters lists the route's path parameters, in the document's order.
func (d *Document) PathParameters(r Route) []Parameter {
	return d.parameters(r, openapi3.ParameterInPath)
}

func (d *Document) parameters(r Route, in string) []Parameter {
	op := d.operation(r)
	if op == nil {
		return nil
	}
	var out []Parameter
	for _, p := range op.Parameters {
		if p.Value == nil || p.Value.In != in {
			continue
		}
		var s *openapi3.Schema
		if p.Value.Schema != nil {
			s = p.Value.Schema.Value
		}
		out = append(out, Parameter{Name: p.Value.Name, Required: p.Value.Required, Schema: s})
	}
	return out
}

// operation is the route's operation, nil when the document has none.
func (d *Document) operation(r Route) *openapi3.Operation {
	item := d.doc.Paths.Value(r.Template)
	if item == nil {
		return nil
	}
	return item.GetOperation(r.Method)
}

// OpenAPI is the loaded document itself, for what this package does not
// offer (descriptions, component schemas).
func (d *Document) OpenAPI() *openapi3.T { return d.doc }
