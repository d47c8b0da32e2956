package handlers

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"
)

// contentType is written exactly as the spec spells it (gin's default has a
// space after the semicolon, which strict clients reject).
const contentType = "application/json;charset=utf-8"

// Pagination is the pagination object (OpenAPI schema Pagination). HasMore is a pointer
// because the audit-log and per-credential usage lists omit it.
type Pagination struct {
	Limit      int    `json:"limit"`
	Offset     int    `json:"offset"`
	Total      int64  `json:"total"`
	HasMore    *bool  `json:"hasMore,omitempty"`
	NextCursor *int64 `json:"next_cursor,omitempty"`
}

// NewPagination fills HasMore as DECISIONS.md defines it: offset + len(page) < total.
func NewPagination(limit, offset, pageLen int, total int64) Pagination {
	more := int64(offset+pageLen) < total
	return Pagination{Limit: limit, Offset: offset, Total: total, HasMore: &more}
}

// LastUpdated is the last_updated object (OpenAPI schema LastUpdated).
type LastUpdated struct {
	SlotNo    int64  `json:"slot_no"`
	BlockHash string `json:"block_hash"`
	BlockTime string `json:"block_time"`
}

// envelope is the one response shape ({success, data, …} in the OpenAPI document).
type envelope struct {
	Success     bool         `json:"success"`
	Data        any          `json:"data,omitempty"`
	Pagination  *Pagination  `json:"pagination,omitempty"`
	Message     string       `json:"message,omitempty"`
	LastUpdated *LastUpdated `json:"last_updated,omitempty"`
	Error       string       `json:"error,omitempty"`
	// Details carries extra machine-readable error context (tx submission).
	Details any `json:"details,omitempty"`
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeJSON encodes v with the exact content type. Encoding happens into a
// pooled buffer first so an encoding error can still become a clean 500.
func writeJSON(c *gin.Context, status int, v any) {
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
	c.Data(status, contentType, buf.Bytes())
}

// encodeJSON is writeJSON's encoding (no HTML escaping, trailing newline)
// for answers that are stored before they are sent.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ok answers 200 {success:true, data}.
func ok(c *gin.Context, data any) {
	writeJSON(c, http.StatusOK, envelope{Success: true, Data: data})
}

// okPage answers 200 {success:true, data, pagination}.
func okPage(c *gin.Context, data any, p Pagination) {
	writeJSON(c, http.StatusOK, envelope{Success: true, Data: data, Pagination: &p})
}

// okAppended answers 200 with data written by appendData (one of the
// append* encoders) and, when not nil, pagination and last_updated: the
// bytes writeJSON would write for the same envelope, without encoding/json
// walking (and re-scanning) the data.
func okAppended(c *gin.Context, appendData func([]byte) []byte, p *Pagination, lu *LastUpdated) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	buf.Write(appendEnvelope(buf.AvailableBuffer(), appendData, p, lu))
	c.Data(http.StatusOK, contentType, buf.Bytes())
}

// appendEnvelope appends the bytes okAppended answers.
func appendEnvelope(b []byte, appendData func([]byte) []byte, p *Pagination, lu *LastUpdated) []byte {
	b = append(b, `{"success":true,"data":`...)
	b = appendData(b)
	if p != nil {
		b = appendField(b, "pagination", p)
	}
	if lu != nil {
		b = appendField(b, "last_updated", lu)
	}
	return append(b, "}\n"...)
}

// appendField writes ,"name":<v as encoding/json writes it> for the small
// fixed-shape envelope parts (pagination, last_updated).
func appendField(b []byte, name string, v any) []byte {
	field, err := json.Marshal(v) // no strings that HTML escaping would touch
	if err != nil {
		panic(err) // Pagination and LastUpdated always encode
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return append(b, field...)
}

// okMessage answers status with data and a message (create, update, revoke…).
func okMessage(c *gin.Context, status int, data any, message string) {
	writeJSON(c, status, envelope{Success: true, Data: data, Message: message})
}
