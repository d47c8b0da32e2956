package bfschema

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Example is the route's 200 answer as the document shows it, as JSON:
// the response's own example, else its schema's, else one assembled from
// the examples of its parts (an object from its properties' examples, an
// array of one item from its items' example, null for a nullable part
// without one), as Blockfrost's rendered documentation shows it. An error says why there is none (a required
// property without an example, a schema without any).
func (d *Document) Example(r Route) ([]byte, error) {
	op := d.operation(r)
	if op == nil {
		return nil, fmt.Errorf("bfschema: no route %s", r)
	}
	resp := op.Responses.Status(http.StatusOK)
	if resp == nil || resp.Value == nil {
		return nil, fmt.Errorf("bfschema: %s declares no 200 answer", r)
	}
	for _, mt := range sortedKeys(resp.Value.Content) {
		media := resp.Value.Content[mt]
		if !isJSON(mt) {
			return nil, fmt.Errorf("bfschema: %s answers %s", r, mt)
		}
		if media.Example != nil {
			return json.Marshal(media.Example)
		}
		for _, name := range sortedKeys(media.Examples) {
			if ex := media.Examples[name]; ex != nil && ex.Value != nil {
				return json.Marshal(ex.Value.Value)
			}
		}
		v, err := exampleOf(media.Schema, "", 0)
		if err != nil {
			return nil, fmt.Errorf("bfschema: %s has no example: %w", r, err)
		}
		return json.Marshal(v)
	}
	return nil, fmt.Errorf("bfschema: %s has no 200 content", r)
}

// exampleOf builds a value from a schema's examples; at names where it is
// in the answer (for errors).
func exampleOf(ref *openapi3.SchemaRef, at string, depth int) (any, error) {
	if ref == nil || ref.Value == nil {
		return nil, fmt.Errorf("%s: no schema", where(at))
	}
	if depth > 32 {
		return nil, fmt.Errorf("%s: schema nested too deep", where(at))
	}
	s := ref.Value
	if s.Example != nil {
		return s.Example, nil
	}
	for _, alts := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		var first error
		for _, alt := range alts {
			v, err := exampleOf(alt, at, depth+1)
			if err == nil {
				return v, nil
			}
			if first == nil {
				first = err
			}
		}
		if first != nil {
			return nil, first
		}
	}
	switch {
	case s.Type.Is(openapi3.TypeArray):
		item, err := exampleOf(s.Items, at+"[0]", depth+1)
		if err != nil {
			return nil, err
		}
		return []any{item}, nil
	case len(s.Properties) > 0 && (s.Type == nil || s.Type.Is(openapi3.TypeObject)):
		// (the items of /epochs/{number}/stakes/{pool_id} have properties
		// but no type)
		obj := map[string]any{}
		for _, name := range sortedKeys(s.Properties) {
			v, err := exampleOf(s.Properties[name], at+"."+name, depth+1)
			if err != nil {
				if required(s, name) {
					return nil, err
				}
				continue
			}
			obj[name] = v
		}
		return obj, nil
	}
	if s.Nullable {
		return nil, nil // a nullable part without an example is shown as null
	}
	return nil, fmt.Errorf("%s: no example", where(at))
}

func where(at string) string {
	if at == "" {
		return "the answer"
	}
	return strings.TrimPrefix(at, ".")
}

func required(s *openapi3.Schema, name string) bool {
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

// SamplePath is the route's template with each path parameter replaced
// by its example in the document (or "x" where it has none), escaped:
// a concrete path that Match leads back to the route.
func (d *Document) SamplePath(r Route) string {
	path := r.Template
	op := d.operation(r)
	if op == nil {
		return path
	}
	for _, p := range op.Parameters {
		if p.Value == nil || p.Value.In != openapi3.ParameterInPath {
			continue
		}
		value := "x"
		if p.Value.Example != nil {
			value = text(p.Value.Example)
		} else if p.Value.Schema != nil && p.Value.Schema.Value != nil && p.Value.Schema.Value.Example != nil {
			value = text(p.Value.Schema.Value.Example)
		}
		path = strings.ReplaceAll(path, "{"+p.Value.Name+"}", url.PathEscape(value))
	}
	return path
}

// text writes an example value as it appears in a path (the YAML loader
// makes every number a float64: 4873401, not 4.873401e+06).
func text(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
