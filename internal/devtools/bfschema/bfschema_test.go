package bfschema

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"
)

var jsonHeader = http.Header{"Content-Type": {"application/json; charset=utf-8"}}

// badExamples are the routes whose own example in 0.1.93 does not match
// their own 200 schema, and why. The test fails when one of them starts
// passing (a new document: drop it from here).
var badExamples = map[string]string{
	"GET /addresses/{address}/utxos":                  "tx_index (required, deprecated) missing from the example",
	"GET /addresses/{address}/utxos/{asset}":          "tx_index (required, deprecated) missing from the example",
	"GET /accounts/{stake_address}/utxos":             "tx_index (required, deprecated) missing from the example",
	"GET /pools/extended":                             "the example holds schema fragments ({type, example, description}) as values and metadata without its required fields",
	"GET /utils/addresses/xpub/{xpub}/{role}/{index}": "the schema is an object, the example an array of them",
}

// noExamples are the routes whose 200 answer has no example, whole or
// assembled from its parts, and the part that lacks one.
var noExamples = map[string]string{
	"GET /governance/proposals/{gov_action_id}/parameters":        "cert_index",
	"GET /governance/proposals/{tx_hash}/{cert_index}/parameters": "cert_index",
	"POST /utils/txs/evaluate":                                    "the answer",
	"POST /utils/txs/evaluate/utxos":                              "the answer",
	"GET /ipfs/gateway/{IPFS_path}":                               "application/octet-stream",
	"POST /ipfs/pin/add/{IPFS_path}":                              "filecoin",
	"GET /ipfs/pin/list":                                          "[0].filecoin",
	"GET /ipfs/pin/list/{IPFS_path}":                              "filecoin",
}

func TestRoutes(t *testing.T) {
	d := Open(t)
	routes := d.Routes()
	inScope := 0
	for _, r := range routes {
		if r.InScope() {
			inScope++
		}
		// Every route's sample path leads back to it: the router prefers
		// literal segments (/blocks/latest, /pools/extended,
		// /governance/proposals/{id}/votes) to parameters.
		path := d.SamplePath(r)
		got, _, err := d.Match(r.Method, path)
		if err != nil || got != r {
			t.Errorf("%s: its sample path %s matched %v (%v)", r, path, got, err)
		}
	}
	if len(routes) != 129 || inScope != 117 {
		t.Errorf("%d routes, %d in scope; shared/spec/blockfrost.md counts 129 and 117", len(routes), inScope)
	}
	for _, c := range []struct{ path, template string }{
		{"/blocks/latest", "/blocks/latest"},
		{"/blocks/latest/txs?page=2", "/blocks/latest/txs"},
		{"/blocks/4873401/txs", "/blocks/{hash_or_number}/txs"},
		{"/epochs/latest/parameters", "/epochs/latest/parameters"},
		{"/epochs/225/parameters", "/epochs/{number}/parameters"},
		{"/pools/extended?count=5", "/pools/extended"},
		{"/scripts/datum/db583ad85881a96c73fbb26ab9e24d1120bb38f45385664bb9c797a2ea8d9a2d/cbor", "/scripts/datum/{datum_hash}/cbor"},
		{"/governance/proposals/gov_action1qqq/parameters", "/governance/proposals/{gov_action_id}/parameters"},
		{"/governance/proposals/2dd15e0ef6e6a17841cb9541c27724072ce4d4b79b91e58432fbaa32d9572531/1", "/governance/proposals/{tx_hash}/{cert_index}"},
		{"/addresses/addr1qx/utxos?page=2&count=100&order=desc", "/addresses/{address}/utxos"},
		{"/assets/policy/476039a0949cf0b22f6a800f56780184c44533887ca6e821007840c3", "/assets/policy/{policy_id}"},
	} {
		got, _, err := d.Match(http.MethodGet, c.path)
		if err != nil || got.Template != c.template {
			t.Errorf("%s matched %v (%v), want %s", c.path, got, err, c.template)
		}
	}
	if _, _, err := d.Match(http.MethodGet, "/v1/utxos/address/addr1"); err == nil {
		t.Error("a path of no route matched one")
	}
	if _, _, err := d.Match(http.MethodPost, "/blocks/latest"); err == nil {
		t.Error("POST /blocks/latest matched a route")
	}
}

// TestExamples validates every route's own example against its own
// schema: all pass but badExamples, which must still fail.
func TestExamples(t *testing.T) {
	d := Open(t)
	var passed, failed, none []string
	for _, r := range d.Routes() {
		body, err := d.Example(r)
		if err != nil {
			none = append(none, r.String())
			if want, ok := noExamples[r.String()]; !ok || !strings.Contains(err.Error(), want) {
				t.Errorf("%s has no example (%v); noExamples says %q", r, err, want)
			}
			continue
		}
		if _, ok := noExamples[r.String()]; ok {
			t.Errorf("%s has an example now: drop it from noExamples", r)
		}
		err = d.ValidateResponse(r.Method, d.SamplePath(r), http.StatusOK, jsonHeader, body)
		why, bad := badExamples[r.String()]
		switch {
		case err == nil && bad:
			t.Errorf("%s: its example passes now (badExamples says: %s)", r, why)
		case err != nil && !bad:
			t.Errorf("%s: its own example fails:\n%v", r, err)
		case err != nil:
			failed = append(failed, r.String())
		default:
			passed = append(passed, r.String())
		}
	}
	if len(failed) != len(badExamples) || len(none) != len(noExamples) {
		t.Errorf("failing examples %v, missing examples %v", failed, none)
	}
	t.Logf("%d examples pass, %d fail their own schema, %d routes have none", len(passed), len(failed), len(none))
}

// example returns a route's example decoded, to be spoiled by a test.
func example(t *testing.T, d *Document, method, template string) any {
	t.Helper()
	body, err := d.Example(Route{Method: method, Template: template})
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestWrongAnswersFail(t *testing.T) {
	d := Open(t)
	const address = "/addresses/addr1qxqs59lphg8g6qndelq8xwqn60ag3aeyfcp33c2kdp46a09re5df3pzwwmyq946axfcejy5n4x0y99wqpgtp2gd0k09qsgy6pz"
	spoil := func(f func(m map[string]any)) []byte {
		v := example(t, d, "GET", "/addresses/{address}").(map[string]any)
		f(v)
		return mustJSON(t, v)
	}
	if err := d.ValidateResponse("GET", address, 200, jsonHeader, spoil(func(map[string]any) {})); err != nil {
		t.Fatalf("the unspoiled example fails: %v", err)
	}
	cases := []struct {
		name, path string
		status     int
		header     http.Header
		body       []byte
		want       string // in the error
	}{
		{"quantity as a number", address, 200, jsonHeader, spoil(func(m map[string]any) {
			m["amount"].([]any)[0].(map[string]any)["quantity"] = 42000000
		}), `"/amount/0/quantity": value must be a string`},
		{"a required field missing", address, 200, jsonHeader, spoil(func(m map[string]any) { delete(m, "stake_address") }),
			`property "stake_address" is missing`},
		{"null where not nullable", address, 200, jsonHeader, spoil(func(m map[string]any) { m["script"] = nil }),
			`"/script"`},
		{"a value outside its enum", address, 200, jsonHeader, spoil(func(m map[string]any) { m["type"] = "pointer" }),
			`"/type"`},
		{"an object where a list is", "/blocks/latest/txs", 200, jsonHeader, []byte(`{"txs":[]}`), "must be an array"},
		{"two JSON values", address, 200, jsonHeader, []byte(`{} {}`), "more than one value"},
		{"not JSON", address, 200, jsonHeader, []byte(`<html>`), "not one JSON value"},
		{"text/plain", address, 200, http.Header{"Content-Type": {"text/plain"}}, spoil(func(map[string]any) {}), "Content-Type"},
		{"no Content-Type", address, 200, http.Header{}, spoil(func(map[string]any) {}), "Content-Type"},
		{"a path of no route", "/addresses", 200, jsonHeader, []byte(`[]`), "no route"},
		{"a 2xx the document does not declare", address, 201, jsonHeader, spoil(func(map[string]any) {}), "no 201 answer"},
		{"an error without its message", address, 404, jsonHeader, []byte(`{"status_code":404,"error":"Not Found"}`), `property "message" is missing`},
		{"an error with another status_code", address, 404, jsonHeader, []byte(`{"status_code":400,"error":"Bad Request","message":"x"}`), "status_code 400"},
		{"an error as a string status_code", address, 404, jsonHeader, []byte(`{"status_code":"404","error":"Not Found","message":"x"}`), `"/status_code"`},
		{"a transaction id that is no string", "/tx/submit", 200, jsonHeader, []byte(`{"tx":"d1662b24fa9fe985fc2dce47455df399cb2e31e1e1819339e885801cc3578908"}`), "must be a string"},
		{"a transaction id too short", "/tx/submit", 200, jsonHeader, []byte(`"d1662b24"`), "minimum string length"},
	}
	for _, c := range cases {
		method := "GET"
		if c.path == "/tx/submit" {
			method = "POST"
		}
		err := d.ValidateResponse(method, c.path, c.status, c.header, c.body)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

func TestRightAnswersPass(t *testing.T) {
	d := Open(t)
	cases := []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
	}{
		{"health", "GET", "/health", 200, jsonHeader, `{"is_healthy":true}`},
		{"no header given: the body alone", "GET", "/health", 200, nil, `{"is_healthy":false}`},
		{"an empty list", "GET", "/addresses/addr1x/utxos?page=9", 200, jsonHeader, `[]`},
		{"404", "GET", "/txs/abc", 404, jsonHeader, `{"status_code":404,"error":"Not Found","message":"The requested component has not been found."}`},
		{"402, which no route declares", "GET", "/blocks/latest", 402, jsonHeader, `{"status_code":402,"error":"Project Over Limit","message":"Usage is over limit."}`},
		{"425 of /tx/submit", "POST", "/tx/submit", 425, jsonHeader, `{"status_code":425,"error":"Mempool Full","message":"Mempool is full, please try resubmitting again later."}`},
		// getSchemaForEndpoint's own schemas: any JSON value as metadata,
		// where the document says string or object.
		{"metadata as a number and a list", "GET", "/txs/abc/metadata", 200, jsonHeader, `[{"label":"1","json_metadata":42},{"label":"674","json_metadata":["a",{"b":null}]}]`},
		{"a plutus script's JSON is null", "GET", "/scripts/abc/json", 200, jsonHeader, `{"json":null}`},
		// The document's `{type: 'null'}` alternatives, read as nullable.
		{"DRep metadata without JSON", "GET", "/governance/dreps/drep1x/metadata", 200, jsonHeader,
			`{"drep_id":"drep1x","hex":"00","url":"https://x","hash":"00","json_metadata":null,"bytes":null}`},
	}
	for _, c := range cases {
		if err := d.ValidateResponse(c.method, c.path, c.status, c.header, []byte(c.body)); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// The document's own schema would refuse the metadata above: the
	// backend's replaces it on purpose.
	if err := d.ValidateSchema("tx_content_metadata", []byte(`[{"label":"1","json_metadata":42}]`)); err == nil {
		t.Error("the document's tx_content_metadata accepts a number: customSchemas may be unneeded")
	}
}

// TestAdditionalPropertiesFalse: where the document forbids other fields
// they fail. In 0.1.93 only Mithril's schemas do (no route in scope uses
// one): an extra field in an answer of a route in scope passes, as the
// document allows.
func TestAdditionalPropertiesFalse(t *testing.T) {
	d := Open(t)
	if err := d.ValidateSchema("Error", []byte(`{"label":"x","message":"y"}`)); err != nil {
		t.Fatal(err)
	}
	if err := d.ValidateSchema("Error", []byte(`{"label":"x","message":"y","code":1}`)); err == nil ||
		!strings.Contains(err.Error(), `property "code" is unsupported`) {
		t.Errorf("an extra field where additionalProperties is false: %v", err)
	}
	if err := d.ValidateResponse("GET", "/health", 200, jsonHeader, []byte(`{"is_healthy":true,"extra":1}`)); err != nil {
		t.Errorf("an extra field where the document allows one: %v", err)
	}
}

func TestQueryParameters(t *testing.T) {
	d := Open(t)
	params := d.QueryParameters(Route{Method: "GET", Template: "/addresses/{address}/utxos"})
	var got []string
	for _, p := range params {
		s := p.Schema
		desc := p.Name
		switch p.Name {
		case "count", "page":
			desc += " " + strings.Join([]string{jsonText(t, s.Min), jsonText(t, s.Max), jsonText(t, s.Default)}, " ")
		case "order":
			desc += " " + jsonText(t, s.Enum) + " " + jsonText(t, s.Default)
		}
		if p.Required {
			desc += " required"
		}
		got = append(got, desc)
	}
	want := []string{"count 1 100 100", "page 1 21474836 1", `order ["asc","desc"] "asc"`}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("query parameters %q, want %q", got, want)
	}
	if p := d.PathParameters(Route{Method: "GET", Template: "/addresses/{address}/utxos"}); len(p) != 1 || p[0].Name != "address" || !p[0].Required {
		t.Errorf("path parameters %+v", p)
	}
	// Every list route takes the three, with the same bounds.
	var lists []string
	for _, r := range d.Routes() {
		names := map[string]bool{}
		for _, p := range d.QueryParameters(r) {
			names[p.Name] = true
		}
		if names["page"] && !names["order"] && r.InScope() {
			lists = append(lists, r.String())
		}
	}
	sort.Strings(lists)
	t.Logf("list routes without order: %v", lists)
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	return string(mustJSON(t, v))
}

func TestMatchRefusesEmptyParameters(t *testing.T) {
	d := Open(t)
	for _, p := range []string{"/addresses", "/addresses/", "/blocks//txs", "/txs/abc/utxos/extra", "/addresses/a/utxos/"} {
		if r, params, err := d.Match("GET", p); err == nil {
			t.Errorf("%s matched %s %v", p, r, params)
		}
	}
}
