package openapi_test

import (
	"encoding/json"
	"html"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/syncgate/syncgate/handlers/openapi"
)

// TestDocumentIsValidOpenAPI checks the served document without any
// service running: it loads (every $ref resolves) and validates as
// OpenAPI. The handler tests check it against the routes and responses.
func TestDocumentIsValidOpenAPI(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openapi.Document)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Paths.Len() < 30 {
		t.Fatalf("openapi %q with %d paths", doc.OpenAPI, doc.Paths.Len())
	}
}

// TestHTMLNamesEveryPathAndSchema: the /docs page is rendered from the
// whole document.
func TestHTMLNamesEveryPathAndSchema(t *testing.T) {
	page, err := openapi.HTML()
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Paths      map[string]json.RawMessage
		Components struct{ Schemas map[string]json.RawMessage }
	}
	if err := json.Unmarshal(openapi.Document, &d); err != nil {
		t.Fatal(err)
	}
	text := html.UnescapeString(string(page))
	for p := range d.Paths {
		if !strings.Contains(text, "<code>"+p+"</code>") {
			t.Errorf("/docs does not show path %s", p)
		}
	}
	for s := range d.Components.Schemas {
		if !strings.Contains(text, `id="schema-`+s+`"`) {
			t.Errorf("/docs does not show schema %s", s)
		}
	}
	if len(d.Paths) < 30 || len(d.Components.Schemas) < 30 {
		t.Fatalf("%d paths, %d schemas: the document did not decode", len(d.Paths), len(d.Components.Schemas))
	}
}
