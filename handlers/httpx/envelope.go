package httpx

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/internal/answer/wire"
)

// The response envelope and its parts are the answers' (internal/answer/wire).
const ContentType = wire.ContentType

type (
	// Pagination is the spec's pagination object (OpenAPI "Pagination").
	Pagination = wire.Pagination
	// LastUpdated is the spec's last_updated object (OpenAPI "LastUpdated").
	LastUpdated = wire.LastUpdated
	Envelope    = wire.Envelope
)

// NewPagination fills HasMore as DECISIONS.md defines it: offset + len(page) < total.
func NewPagination(limit, offset, pageLen int, total int64) Pagination {
	return wire.NewPagination(limit, offset, pageLen, total)
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// WriteJSON encodes v with the exact content type. Encoding happens into a
// pooled buffer first so an encoding error can still become a clean 500.
func WriteJSON(c *gin.Context, status int, v any) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		_ = c.Error(err)
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"success":false,"error":"Internal server error"}` + "\n")
	}
	c.Data(status, ContentType, buf.Bytes())
}

// OK answers 200 {success:true, data}.
func OK(c *gin.Context, data any) {
	WriteJSON(c, http.StatusOK, Envelope{Success: true, Data: data})
}

// OKPage answers 200 {success:true, data, pagination}.
func OKPage(c *gin.Context, data any, p Pagination) {
	WriteJSON(c, http.StatusOK, Envelope{Success: true, Data: data, Pagination: &p})
}

// OKMessage answers status with data and a message (create, update, revoke…).
func OKMessage(c *gin.Context, status int, data any, message string) {
	WriteJSON(c, status, Envelope{Success: true, Data: data, Message: message})
}
