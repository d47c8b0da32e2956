package jsclients_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/bfschema"
)

// exchange is one request a client made, as the fake received it.
type exchange struct {
	Method, Path, Query string
	Header              http.Header
}

func (e exchange) String() string {
	var h []string
	for k, v := range e.Header {
		h = append(h, k+": "+strings.Join(v, ","))
	}
	sort.Strings(h)
	q := ""
	if e.Query != "" {
		q = "?" + e.Query
	}
	return fmt.Sprintf("%s %s%s {%s}", e.Method, e.Path, q, strings.Join(h, "; "))
}

// answer is what the fake sends for one route: a status and a JSON body.
type answer func(params map[string]string, r *http.Request) (int, any)

// fakeBlockfrost is a tiny Blockfrost under prefix (…/api/v0): it finds
// each request's route in Blockfrost's document, answers it from answers
// (404 in Blockfrost's error shape for any other), checks its own answer
// against the document before sending it, and records every request.
type fakeBlockfrost struct {
	t       testing.TB
	doc     *bfschema.Document
	prefix  string
	answers map[string]answer // by route ("GET /health")
	srv     *httptest.Server

	mu   sync.Mutex
	seen []exchange
}

func newFake(t testing.TB, prefix string, answers map[string]answer) *fakeBlockfrost {
	f := &fakeBlockfrost{t: t, doc: bfschema.Open(t), prefix: prefix, answers: answers}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// URL is the base URL a client is given: the server and the prefix.
func (f *fakeBlockfrost) URL() string { return f.srv.URL + f.prefix }

func (f *fakeBlockfrost) serve(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	f.mu.Lock()
	f.seen = append(f.seen, exchange{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery, Header: r.Header.Clone()})
	f.mu.Unlock()

	status, body := http.StatusNotFound, any(map[string]any{"status_code": 404, "error": "Not Found", "message": "The requested component has not been found."})
	path, ok := strings.CutPrefix(r.URL.EscapedPath(), f.prefix)
	route, params, err := f.doc.Match(r.Method, path)
	if ok && err == nil {
		if a := f.answers[route.String()]; a != nil {
			status, body = a(params, r)
		}
	}
	b, err := json.Marshal(body)
	if err != nil {
		f.t.Errorf("fake: %v", err)
	}
	if ok {
		if err := f.doc.ValidateResponse(r.Method, path+"?"+r.URL.RawQuery, status, http.Header{"Content-Type": {"application/json"}}, b); err != nil {
			f.t.Errorf("fake: its own answer is not Blockfrost's: %v", err)
		}
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// requests returns what the clients sent so far, in order of arrival.
func (f *fakeBlockfrost) requests() []exchange {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]exchange(nil), f.seen...)
}

// logRequests writes every request to the test log: what the dialect
// must accept from this client.
func (f *fakeBlockfrost) logRequests(t testing.TB, client string) {
	t.Helper()
	for _, e := range f.requests() {
		t.Logf("%s sent: %s", client, e)
	}
}

// example is the route's example from Blockfrost's document, decoded.
func example(t testing.TB, doc *bfschema.Document, route string) any {
	t.Helper()
	method, template, _ := strings.Cut(route, " ")
	b, err := doc.Example(bfschema.Route{Method: method, Template: template})
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// utxos is n outputs made from the document's example UTxO of an
// address: its example lacks the deprecated tx_index the schema
// requires, so it is added (equal to output_index, as Blockfrost sends).
func utxos(t testing.TB, doc *bfschema.Document, n int) []any {
	t.Helper()
	item := example(t, doc, "GET /addresses/{address}/utxos").([]any)[0].(map[string]any)
	out := make([]any, n)
	for i := range out {
		u := map[string]any{}
		for k, v := range item {
			u[k] = v
		}
		u["tx_index"], u["output_index"] = i, i
		out[i] = u
	}
	return out
}
