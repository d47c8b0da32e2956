package handlers

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/handlers/openapi"
)

// pendingRoutes are operations the OpenAPI document describes whose routes
// are being added on other branches (acct, pool, harden). Empty this list
// as they merge: the sync test then requires them in routes.go, and fails
// while an entry here is already served (so the list cannot go stale).
var pendingRoutes = map[string]bool{
	// The Blockfrost dialect's routes not served yet.
}

// undocumentedRoutes are served routes whose operations the document does
// not describe yet. The test fails once one is documented.
var undocumentedRoutes = map[string]bool{
	// Blockfrost's root with its trailing slash (what blockfrost-js
	// requests); the document names it once, without.
	"GET /api/v0/": true,
}

var ginParam = regexp.MustCompile(`[:*]([A-Za-z_]+)`) // :param and the catch-all *param

// ginNames are path segments gin must name as a sibling route does (one
// name per segment) and the document's name for them: Blockfrost's
// proposals by {tx_hash}/{cert_index} beside {gov_action_id}.
var ginNames = strings.NewReplacer("/governance/proposals/{gov_action_id}/{cert_index}", "/governance/proposals/{tx_hash}/{cert_index}")

// TestOpenAPIRoutesInSync: every route of routes.go is in the document
// and every operation of the document is a route (but the pending ones).
func TestOpenAPIRoutesInSync(t *testing.T) {
	doc, _ := loadSpec(t)
	served := map[string]bool{}
	for _, r := range New(Deps{Log: quiet}).engine.Routes() {
		served[r.Method+" "+ginNames.Replace(ginParam.ReplaceAllString(r.Path, "{$1}"))] = true
	}
	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
	}
	var problems []string
	for r := range served {
		if !documented[r] && !undocumentedRoutes[r] {
			problems = append(problems, "served but not in openapi.json: "+r)
		}
		if documented[r] && undocumentedRoutes[r] {
			problems = append(problems, "documented now, remove from undocumentedRoutes: "+r)
		}
		if pendingRoutes[r] {
			problems = append(problems, "served now, remove from pendingRoutes: "+r)
		}
	}
	for r := range documented {
		if !served[r] && !pendingRoutes[r] {
			problems = append(problems, "in openapi.json but not served: "+r)
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
	if len(served) < 30 {
		t.Fatalf("only %d routes found: the walk is broken", len(served))
	}
}

// TestOpenAPIServedAndRendered: /openapi.json is the embedded document,
// /docs an HTML page naming every path, both without authentication.
func TestOpenAPIServedAndRendered(t *testing.T) {
	s := New(Deps{Log: quiet})
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if w.Code != 200 || w.Body.String() != string(openapi.Document) || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("/openapi.json: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	w = httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/docs", nil))
	page := w.Body.String()
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("/docs: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	doc, _ := loadSpec(t)
	for path := range doc.Paths.Map() {
		if !strings.Contains(page, "<code>"+path+"</code>") {
			t.Errorf("/docs does not show %s", path)
		}
	}
	// Offline: nothing is fetched from elsewhere.
	for _, ext := range []string{"<script", "src=\"http", "href=\"http", "@import"} {
		if strings.Contains(page, ext) {
			t.Errorf("/docs contains %q: it must work offline", ext)
		}
	}
}
