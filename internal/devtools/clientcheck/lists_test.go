package clientcheck_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// itemsKey formats every item of a list the client got with fields, in
// the order the client got them: strings unquoted, numbers as written,
// "<nil>" for null or absent, objects and arrays as JSON.
func itemsKey(raw []map[string]json.RawMessage, fields ...string) []string {
	out := []string{}
	for _, item := range raw {
		var parts []string
		for _, f := range fields {
			parts = append(parts, jsonText(item[f]))
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}

func jsonText(v json.RawMessage) string {
	var s string
	switch {
	case len(v) == 0 || string(v) == "null":
		return "<nil>"
	case json.Unmarshal(v, &s) == nil:
		return s
	}
	return string(v)
}

// listCheck compares a paged list with SQL's rows (one text column each,
// fields joined by spaces, in the route's order): the first-page call
// holds the first 100 rows, every all-pages call all of them. With byFirst
// only the first field's order is the contract (ties may come in any
// order): the rows are compared as a set and their first fields in order.
type listCheck struct {
	t       *testing.T
	r       *results
	route   string
	fields  []string
	want    []string
	byFirst bool
}

func (c listCheck) page(call string) { c.check(call, c.want[:min(100, len(c.want))], false) }
func (c listCheck) all(calls ...string) {
	for _, call := range calls {
		c.check(call, c.want, false)
	}
}
func (c listCheck) desc(call string) { c.check(call, reversed(c.want), true) }

func (c listCheck) check(call string, want []string, desc bool) {
	c.t.Helper()
	var raw []map[string]json.RawMessage
	if !c.r.get(call, c.route, &raw) {
		return
	}
	got := itemsKey(raw, c.fields...)
	if !c.byFirst {
		sameList(c.t, call, got, want)
		return
	}
	first := func(l []string) []string {
		out := make([]string, len(l))
		for i, v := range l {
			out[i], _, _ = strings.Cut(v, " ")
		}
		return out
	}
	sameList(c.t, call+" (order)", first(got), first(want))
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	sameList(c.t, call, g, w)
}

// want runs a query for a listCheck's rows (never nil).
func (s *stack) want(t *testing.T, query string, args ...any) []string {
	t.Helper()
	l := []string{}
	s.sqlList(t, &l, query, args...)
	return l
}
