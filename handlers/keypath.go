package handlers

import (
	"net/http"
	"strings"

	"github.com/syncgate/syncgate/handlers/httpx"
)

// keyPathPrefix starts a Blockfrost request that carries its key in the
// path: /key/<api key>/api/v0/... . Mesh's BlockfrostProvider given a URL
// sends no project_id header at all, so the key has to travel in the URL
// it is given (docs/DECISIONS.md "Blockfrost dialect").
const keyPathPrefix = "/key/"

// keyPath takes a key path prefix off before routing: the request goes on
// as /api/v0/... with the key in its project_id header, so nothing after
// this point (routing, access log, metrics, errors, audit) ever sees the
// key in a path. A /key/ path that does not continue with /api/v0 is left
// as it is, with the key cut out, and answers 404.
func keyPath(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, keyPathPrefix) {
			next.ServeHTTP(w, r)
			return
		}
		key, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, keyPathPrefix), "/")
		rest = "/" + rest
		r2 := r.Clone(r.Context())
		if rest == httpx.BlockfrostPrefix || strings.HasPrefix(rest, httpx.BlockfrostPrefix+"/") {
			r2.Header.Set("project_id", key)
		} else {
			rest = "/key" + rest // unknown: a 404 that names no key
		}
		r2.URL.Path, r2.URL.RawPath = rest, ""
		r2.RequestURI = r2.URL.RequestURI()
		next.ServeHTTP(w, r2)
	})
}
