package bfschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sort"

	"github.com/getkin/kin-openapi/openapi3"
)

// ValidateResponse checks one answer of the Blockfrost dialect against the
// document, as Blockfrost's own backend shapes its answers
// (getSchemaForEndpoint of @blockfrost/openapi):
//   - path is the concrete request path without /api/v0 (a query string
//     may follow), matched to its route's template;
//   - a 200 body must be JSON matching the route's 200 schema, with the
//     backend's own schemas for /txs/{hash}/metadata and
//     /scripts/{script_hash}/json (see customSchemas); formats the
//     validator knows (date-time, byte…) are checked, Blockfrost's own
//     (word64type, slot…) are names only;
//   - any other 2xx is refused: the document declares none;
//   - a 3xx, 4xx or 5xx body must be Blockfrost's error,
//     {status_code, error, message}, with status_code the answer's status.
//     A status the route does not declare (402 for a spent quota, 503…) is
//     accepted in that shape: clients read the shape, not the list.
//
// When header is not nil its Content-Type must be the declared media type
// (application/json; parameters such as charset allowed).
func (d *Document) ValidateResponse(method, path string, status int, header http.Header, body []byte) error {
	route, _, err := d.Match(method, path)
	if err != nil {
		return err
	}
	where := fmt.Sprintf("%s %s (%s) → %d", method, path, route.Template, status)
	op := d.operation(route)
	var schema *openapi3.Schema
	mediaType := "application/json"
	switch {
	case status == http.StatusOK:
		resp := op.Responses.Status(http.StatusOK)
		if resp == nil || resp.Value == nil {
			return fmt.Errorf("%s: the document declares no 200 answer", where)
		}
		mediaType, schema = okSchema(resp.Value)
		if c, ok := d.custom[route.Template]; ok {
			schema = c
		}
	case status >= 200 && status < 300:
		return fmt.Errorf("%s: Blockfrost's document declares no %d answer (only 200)", where, status)
	case status >= 300 && status < 600:
		schema = d.errorShape
	default:
		return fmt.Errorf("%s: not an HTTP status", where)
	}
	if header != nil {
		if err := checkContentType(header.Get("Content-Type"), mediaType); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	if !isJSON(mediaType) {
		return nil // IPFS's gateway: bytes, no schema to check
	}
	value, err := decodeJSON(body)
	if err != nil {
		return fmt.Errorf("%s: body is not one JSON value: %w (body: %.300s)", where, err, body)
	}
	if schema == nil {
		return fmt.Errorf("%s: the document gives the answer no schema", where)
	}
	if err := schema.VisitJSON(value, visitOptions...); err != nil {
		return fmt.Errorf("%s: body does not match Blockfrost's schema:\n%w\nbody: %.600s", where, err, body)
	}
	if status != http.StatusOK {
		if got := value.(map[string]any)["status_code"]; got != float64(status) {
			return fmt.Errorf("%s: status_code %v in an answer of status %d", where, got, status)
		}
	}
	return nil
}

// okSchema is a 200 answer's media type and schema (the first content,
// as getSchemaForEndpoint takes it).
func okSchema(resp *openapi3.Response) (string, *openapi3.Schema) {
	for _, mt := range sortedKeys(resp.Content) {
		if s := resp.Content[mt].Schema; s != nil {
			return mt, s.Value
		}
		return mt, nil
	}
	return "application/json", nil
}

// errorShape is Blockfrost's error answer: components.responses' 400
// schema, which every other error status repeats with other examples
// (checked).
func errorShape(doc *openapi3.T) (*openapi3.Schema, error) {
	var shape *openapi3.Schema
	for name, r := range doc.Components.Responses {
		if r.Value == nil || r.Value.Content.Get("application/json") == nil {
			return nil, fmt.Errorf("error answer %s has no JSON schema", name)
		}
		s := r.Value.Content.Get("application/json").Schema.Value
		if got := fmt.Sprint(sortedKeys(s.Properties), s.Required); got != "[error message status_code] [error message status_code]" {
			return nil, fmt.Errorf("error answer %s is not {status_code, error, message}: %s", name, got)
		}
		if name == "400" {
			shape = s
		}
	}
	if shape == nil {
		return nil, errors.New("no error answer 400 in components.responses")
	}
	return shape, nil
}

// customSchemas are the 200 schemas that getSchemaForEndpoint of
// @blockfrost/openapi (lib/custom-schemas) puts in place of the document's
// for routes in scope, and so what Blockfrost's backend answers with: any
// JSON value as a transaction's metadata (the document says string or
// object, but metadata on chain is also a number, a list or bytes), and
// any value or null as a script's JSON.
func customSchemas() map[string]*openapi3.Schema {
	anyValue := func() *openapi3.SchemaRef { return openapi3.NewSchemaRef("", &openapi3.Schema{Nullable: true}) }
	metadata := openapi3.NewObjectSchema().
		WithPropertyRef("label", openapi3.NewSchemaRef("", openapi3.NewStringSchema())).
		WithPropertyRef("json_metadata", anyValue())
	metadata.Required = []string{"label", "json_metadata"}
	metadata.AdditionalProperties = openapi3.AdditionalProperties{}
	scriptJSON := openapi3.NewObjectSchema().WithPropertyRef("json", anyValue())
	scriptJSON.Required = []string{"json"}
	return map[string]*openapi3.Schema{
		"/txs/{hash}/metadata":        openapi3.NewArraySchema().WithItems(metadata),
		"/scripts/{script_hash}/json": scriptJSON,
	}
}

func checkContentType(got, want string) error {
	mt, _, err := mime.ParseMediaType(got)
	if err != nil {
		return fmt.Errorf("Content-Type %q: %v (want %s)", got, err, want)
	}
	if mt != want {
		return fmt.Errorf("Content-Type %q, want %s", got, want)
	}
	return nil
}

func isJSON(mediaType string) bool {
	return mediaType == "application/json"
}

// decodeJSON decodes exactly one JSON value, as the clients' JSON.parse
// does (numbers as float64, like kin-openapi's own body decoder).
func decodeJSON(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one value")
	}
	return v, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ValidateSchema checks a JSON body against one of the document's
// component schemas by name (such as "address_content"), as
// validateSchema of @blockfrost/openapi does.
func (d *Document) ValidateSchema(name string, body []byte) error {
	ref := d.doc.Components.Schemas[name]
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("bfschema: no schema %q in Blockfrost's document", name)
	}
	value, err := decodeJSON(body)
	if err != nil {
		return fmt.Errorf("bfschema: %s: body is not one JSON value: %w", name, err)
	}
	if err := ref.Value.VisitJSON(value, visitOptions...); err != nil {
		return fmt.Errorf("bfschema: body does not match %s:\n%w", name, err)
	}
	return nil
}

// visitOptions: every mismatch at once, answers (not requests), and no
// copy of the schema and value in each error (the caller prints the body).
var visitOptions = []openapi3.SchemaValidationOption{
	openapi3.MultiErrors(), openapi3.VisitAsResponse(), openapi3.DisableSchemaErrorDetails(),
}
