// Package wire is the bytes of syncgate's answers: the one response
// envelope (docs/DECISIONS.md "Envelope, numbers, routing") with its pagination and last_updated parts, and the
// hand-written encoders of the chain objects that carry many values. It
// imports nothing of ours but dbsync's row types, so the answer layer and
// the HTTP layer (data and admin alike) write the same bytes.
package wire

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
)

// ContentType is written exactly as the spec spells it (gin's default has
// a space after the semicolon, which strict clients reject).
const ContentType = "application/json;charset=utf-8"

// Pagination is the spec's pagination object (OpenAPI "Pagination"). HasMore is a pointer
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

// LastUpdated is the spec's last_updated object (OpenAPI "LastUpdated").
type LastUpdated struct {
	SlotNo    int64  `json:"slot_no"`
	BlockHash string `json:"block_hash"`
	BlockTime string `json:"block_time"`
}

// Envelope is the one response shape (docs/DECISIONS.md "Envelope, numbers, routing").
type Envelope struct {
	Success     bool         `json:"success"`
	Data        any          `json:"data,omitempty"`
	Pagination  *Pagination  `json:"pagination,omitempty"`
	Message     string       `json:"message,omitempty"`
	LastUpdated *LastUpdated `json:"last_updated,omitempty"`
	Error       string       `json:"error,omitempty"`
	// Details carries extra machine-readable error context (tx submission).
	Details any `json:"details,omitempty"`
}

// Encode is the response encoding (no HTML escaping, trailing newline)
// for answers that are stored before they are sent.
func Encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// AppendEnvelope appends {"success":true,"data":<appendData's bytes>} and,
// when not nil, pagination and last_updated: the bytes Encode writes for
// the same envelope, without encoding/json walking (and re-scanning) the
// data.
func AppendEnvelope(b []byte, appendData func([]byte) []byte, p *Pagination, lu *LastUpdated) []byte {
	b = append(b, `{"success":true,"data":`...)
	b = appendData(b)
	if p != nil {
		b = append(b, `,"pagination":{"limit":`...)
		b = strconv.AppendInt(b, int64(p.Limit), 10)
		b = append(b, `,"offset":`...)
		b = strconv.AppendInt(b, int64(p.Offset), 10)
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, p.Total, 10)
		if p.HasMore != nil {
			b = append(b, `,"hasMore":`...)
			b = strconv.AppendBool(b, *p.HasMore)
		}
		if p.NextCursor != nil {
			b = append(b, `,"next_cursor":`...)
			b = strconv.AppendInt(b, *p.NextCursor, 10)
		}
		b = append(b, '}')
	}
	if lu != nil {
		b = appendLastUpdated(b, *lu)
	}
	return append(b, "}\n"...)
}

const lastUpdatedField = `,"last_updated":`

func appendLastUpdated(b []byte, lu LastUpdated) []byte {
	b = append(b, lastUpdatedField+`{"slot_no":`...)
	b = strconv.AppendInt(b, lu.SlotNo, 10)
	b = append(b, `,"block_hash":`...)
	b = appendJSONString(b, lu.BlockHash)
	b = append(b, `,"block_time":`...)
	b = appendJSONString(b, lu.BlockTime)
	return append(b, '}')
}

// WithLastUpdated returns a copy of an answer AppendEnvelope wrote with
// a last_updated, naming lu instead (its last field: the data before it
// stays as it is); ok is false for an answer without one.
func WithLastUpdated(answer []byte, lu LastUpdated) (_ []byte, ok bool) {
	i := bytes.LastIndex(answer, []byte(lastUpdatedField))
	if i < 0 {
		return nil, false
	}
	b := make([]byte, 0, i+len(lu.BlockHash)+len(lu.BlockTime)+96)
	b = appendLastUpdated(append(b, answer[:i]...), lu)
	return append(b, "}\n"...), true
}

// BlockTime renders a db-sync block time (whole seconds, UTC) as ISO 8601
// with Z (DECISIONS); admin records keep milliseconds.
func BlockTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }
