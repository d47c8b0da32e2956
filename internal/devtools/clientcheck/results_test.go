package clientcheck_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/syncgate/syncgate/handlers/blockfrost"
)

// callResult is one client call as a script printed it: the answer, or
// the error the client raised (Blockfrost's error body and the URL).
type callResult struct {
	OK  json.RawMessage `json:"ok"`
	Err *struct {
		Status  *int   `json:"status_code"`
		Error   string `json:"error"`
		Message string `json:"message"`
		URL     string `json:"url"`
	} `json:"err"`
	SDK string `json:"sdk"` // what the SDK derives offline (xpub)
}

// results reads a script's calls against the dialect's route table: a
// call of a route not served yet is reported (the route's family has not
// merged), any other failure is the dialect's bug.
type results struct {
	t      *testing.T
	calls  map[string]callResult
	served map[string]bool

	mu        sync.Mutex
	unserved  map[string][]string // route → calls
	checked   int
	unchecked map[string]bool // calls no check read
}

func newResults(t *testing.T, calls map[string]callResult) *results {
	r := &results{t: t, calls: calls, served: servedRoutes(), unserved: map[string][]string{}, unchecked: map[string]bool{}}
	for k := range calls {
		r.unchecked[k] = true
	}
	return r
}

var (
	ginParam = regexp.MustCompile(`:[A-Za-z_]+`)
	docParam = regexp.MustCompile(`\{[A-Za-z_]+\}`)
)

// routeShape is a route with its parameters unnamed ("GET /txs/{}"): gin
// gives one name to the wildcards two routes share at a segment (the two
// spellings of a proposal's id are both :gov_action_id there), so routes
// are matched by shape, not by the contract's parameter names.
func routeShape(route string) string { return docParam.ReplaceAllString(route, "{}") }

// servedRoutes is the dialect's route table by shape, as handlers mounts
// it under /api/v0.
func servedRoutes() map[string]bool {
	served := map[string]bool{}
	for _, r := range blockfrost.New(blockfrost.Deps{}).Routes() {
		served[r.Method+" "+ginParam.ReplaceAllString(r.Path, "{}")] = true
	}
	return served
}

// get decodes the answer of call (route is its Blockfrost route) into
// into and reports whether it could: false, with the failure reported,
// when the client got an error or the route is not served yet.
func (r *results) get(call, route string, into any) bool {
	r.t.Helper()
	r.mu.Lock()
	delete(r.unchecked, call)
	r.mu.Unlock()
	c, ok := r.calls[call]
	if !ok {
		r.t.Errorf("%s: the script made no such call", call)
		return false
	}
	if !r.served[routeShape(route)] {
		r.mu.Lock()
		r.unserved[route] = append(r.unserved[route], call)
		r.mu.Unlock()
		return false
	}
	if c.Err != nil {
		status := "no status"
		if c.Err.Status != nil {
			status = fmt.Sprint(*c.Err.Status)
		}
		r.t.Errorf("%s (%s): the client failed: %s %s: %s (%s)", call, route, status, c.Err.Error, c.Err.Message, c.Err.URL)
		return false
	}
	if err := json.Unmarshal(c.OK, into); err != nil {
		r.t.Errorf("%s (%s): answer %.300s: %v", call, route, c.OK, err)
		return false
	}
	r.mu.Lock()
	r.checked++
	r.mu.Unlock()
	return true
}

// refused checks that call failed with status (a route not served yet is
// reported as by get).
func (r *results) refused(call, route string, status int) {
	r.t.Helper()
	r.mu.Lock()
	delete(r.unchecked, call)
	r.mu.Unlock()
	c, ok := r.calls[call]
	switch {
	case !ok:
		r.t.Errorf("%s: the script made no such call", call)
	case !r.served[routeShape(route)]:
		r.mu.Lock()
		r.unserved[route] = append(r.unserved[route], call)
		r.mu.Unlock()
	case c.Err == nil || c.Err.Status == nil || *c.Err.Status != status:
		r.t.Errorf("%s (%s): want the client to fail with %d, got %s %+v", call, route, status, c.OK, c.Err)
	default:
		r.mu.Lock()
		r.checked++
		r.mu.Unlock()
	}
}

// report logs the routes not served yet and fails on calls no check read.
func (r *results) report() {
	r.t.Helper()
	var routes []string
	for route, calls := range r.unserved {
		routes = append(routes, fmt.Sprintf("%s (%d calls)", route, len(calls)))
	}
	sort.Strings(routes)
	if len(routes) > 0 {
		r.t.Logf("not served yet, so not checked (%d routes): %s", len(routes), strings.Join(routes, ", "))
	}
	var left []string
	for k := range r.unchecked {
		left = append(left, k)
	}
	sort.Strings(left)
	if len(left) > 0 {
		r.t.Errorf("calls the test does not check: %s", strings.Join(left, ", "))
	}
	r.t.Logf("%d client calls checked against SQL", r.checked)
}

// eq reports a difference between what the client got and the SQL fact.
func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s: the client got %v, SQL says %v", what, got, want)
	}
}

// sameList reports the first difference between two lists.
func sameList[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: the client got %d items, SQL says %d (got %v, want %v)", what, len(got), len(want), clip(got), clip(want))
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: item %d is %v, SQL says %v", what, i, got[i], want[i])
			return
		}
	}
}

func clip[T any](l []T) []T {
	if len(l) > 8 {
		return l[:8]
	}
	return l
}

// reversed is l in the opposite order (a new slice).
func reversed[T any](l []T) []T {
	out := make([]T, len(l))
	for i, v := range l {
		out[len(l)-1-i] = v
	}
	return out
}

// answered returns call for a check of its own when its route is served
// (counted as checked); false, reported as get reports it, when the
// route is not served yet.
func (r *results) answered(call, route string) (callResult, bool) {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.unchecked, call)
	c, ok := r.calls[call]
	switch {
	case !ok:
		r.t.Errorf("%s: the script made no such call", call)
		return c, false
	case !r.served[routeShape(route)]:
		r.unserved[route] = append(r.unserved[route], call)
		return c, false
	}
	r.checked++
	return c, true
}

// status is the HTTP status the client failed with (0: it did not).
func (c callResult) status() int {
	if c.Err == nil || c.Err.Status == nil {
		return 0
	}
	return *c.Err.Status
}
