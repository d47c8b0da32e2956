package blockfrost

import (
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
)

func (a *API) submitRoutes() []Route {
	return []Route{
		{Method: http.MethodPost, Path: "/tx/submit", Group: admin.GroupSubmit, Handle: a.submit},
	}
}

// submit: POST /tx/submit. The body is the transaction's raw CBOR
// (Content-Type: application/cbor); the answer its id as a JSON string.
// The submission is /v1's (Deps.Submit): idempotent, logged, visible in
// /v1/tx/status.
func (a *API) submit(c *gin.Context) error {
	if mt, _, err := mime.ParseMediaType(c.GetHeader("Content-Type")); err != nil || mt != "application/cbor" {
		return errSubmitContentType
	}
	var raw []byte
	if c.Request.Body != nil {
		var err error
		if raw, err = io.ReadAll(c.Request.Body); err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return httpx.ErrBodyTooLarge
			}
			return err
		}
	}
	switch {
	case len(raw) == 0:
		return errSubmitEmpty
	case isHexText(raw):
		return errSubmitHexText
	case raw[0] == '{':
		return errSubmitJSON
	}
	hash, err := a.deps.Submit(c, raw)
	if err != nil {
		return err
	}
	c.Data(http.StatusOK, httpx.ContentType, []byte(`"`+hash+`"`+"\n"))
	return nil
}

// isHexText reports whether a body is hex digits: a transaction's CBOR
// sent as text, which is never a transaction itself (read as CBOR, its
// first byte starts a number or a string, not the array a transaction
// is). A JSON object's "{" starts a text string: never one either.
func isHexText(b []byte) bool {
	if len(b)%2 != 0 {
		return false
	}
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
