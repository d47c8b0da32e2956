package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/syncgate/syncgate/handlers/openapi"
)

var (
	specOnce   sync.Once
	specDoc    *openapi3.T
	specRouter routers.Router
	specErr    error
)

// loadSpec loads and validates the embedded document once per test binary.
func loadSpec(t testing.TB) (*openapi3.T, routers.Router) {
	t.Helper()
	specOnce.Do(func() {
		loader := openapi3.NewLoader()
		specDoc, specErr = loader.LoadFromData(openapi.Document)
		if specErr != nil {
			return
		}
		if specErr = specDoc.Validate(loader.Context); specErr != nil {
			return
		}
		// Match on paths only: tests call httptest's example.com host.
		routed := *specDoc
		routed.Servers = nil
		specRouter, specErr = legacy.NewRouter(&routed)
	})
	if specErr != nil {
		t.Fatalf("openapi document: %v", specErr)
	}
	return specDoc, specRouter
}

// serveChecked serves req and checks the response against the OpenAPI
// document: every response a handler test receives through the shared
// helpers must match its operation's schema for that status, so a field
// renamed in code (or in the document) fails the tests.
func serveChecked(t testing.TB, h http.Handler, w *httptest.ResponseRecorder, req *http.Request) {
	t.Helper()
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	h.ServeHTTP(w, req)
	if f := os.Getenv("SG_OPENAPI_DUMP"); f != "" {
		dump(f, req, w)
	}
	checkResponse(t, req, body, w)
}

func checkResponse(t testing.TB, req *http.Request, body []byte, w *httptest.ResponseRecorder) {
	t.Helper()
	doc, router := loadSpec(t)
	if strings.HasPrefix(req.URL.Path, "/v1/test") {
		return // routes the tests add themselves (/v1/test/whoami, /v1/test-panic)
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		// 404/405 from the router (or 431 before routing): no operation,
		// but the error httpx.Envelope.
		if w.Code < 400 {
			t.Errorf("%s %s answered %d but the OpenAPI document has no such operation: %v", req.Method, req.URL.Path, w.Code, err)
			return
		}
		var v any
		if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
			t.Errorf("%s %s: %d body is not JSON", req.Method, req.URL.Path, w.Code)
			return
		}
		errSchema := doc.Components.Schemas["Error"].Value
		if strings.HasPrefix(req.URL.Path, "/api/v0") {
			errSchema = doc.Components.Responses["BlockfrostError"].Value.Content.Get("application/json").Schema.Value
		}
		if err := errSchema.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
			t.Errorf("%s %s: %d body does not match Error: %v", req.Method, req.URL.Path, w.Code, err)
		}
		return
	}
	r2 := req.Clone(context.Background())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: r2, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status:  w.Code,
		Header:  w.Header(),
		Body:    io.NopCloser(bytes.NewReader(w.Body.Bytes())),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s %s → %d does not match the OpenAPI document:\n%v\nbody: %.600s", req.Method, req.URL.Path, w.Code, err, w.Body.String())
	}
}

var dumpMu sync.Mutex

// dump appends the exchange to file (SG_OPENAPI_DUMP: a development aid
// for writing the document, not part of any check).
func dump(file string, req *http.Request, w *httptest.ResponseRecorder) {
	dumpMu.Lock()
	defer dumpMu.Unlock()
	out, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer out.Close()
	line, _ := json.Marshal(map[string]any{"method": req.Method, "path": req.URL.Path, "status": w.Code, "body": w.Body.String()})
	_, _ = out.Write(append(line, '\n'))
}
