package handlers

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
)

// maxHeaderBytes is the request-line-plus-headers size answered 431 in
// the JSON envelope. It is far below http.Server's MaxHeaderBytes (1 MiB),
// past which net/http itself answers a plain-text 431 before any handler
// runs (docs/DECISIONS.md).
const maxHeaderBytes = 32 << 10

// limitHeaders answers 431 in the envelope for oversized request headers.
func limitHeaders() gin.HandlerFunc {
	return func(c *gin.Context) {
		r := c.Request
		n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
		for k, vs := range r.Header {
			for _, v := range vs {
				n += len(k) + len(v) + 4
			}
		}
		if n > maxHeaderBytes {
			httpx.Fail(c, httpx.ErrHeadersTooLarge)
			return
		}
		c.Next()
	}
}
