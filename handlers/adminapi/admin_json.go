package adminapi

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// Field-by-field reading of admin request bodies (httpx.DecodeJSONObject gives
// the raw fields). Each helper answers whether the JSON value has the
// wanted type, so a handler can reply with its field's own message.

// maxNameLen is the spec's limit on names (characters, not bytes).
const maxNameLen = 255

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// jsonString decodes a JSON string.
func jsonString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || isNull(raw) {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// jsonInt decodes a JSON integer literal (no fraction, no exponent).
func jsonInt(raw json.RawMessage) (int, bool) {
	n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
	return n, err == nil
}

// jsonObject checks that raw is a JSON object PostgreSQL jsonb can hold and
// returns it re-encoded (valid UTF-8, numbers kept exactly). errMetadata…
// describe why not.
func jsonObject(raw json.RawMessage) ([]byte, *httpx.APIError) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, httpx.ErrMetadataType
	}
	if !storable(obj) {
		return nil, httpx.ErrMetadataContent
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, httpx.ErrMetadataContent
	}
	return b, nil
}

// storable reports whether v has no U+0000 in any string or key and no
// number beyond float64 range (jsonb refuses the first, and numbers like
// 1e999999 overflow its numeric).
func storable(v any) bool {
	switch x := v.(type) {
	case string:
		return !strings.ContainsRune(x, 0)
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return err == nil && !math.IsInf(f, 0)
	case []any:
		for _, e := range x {
			if !storable(e) {
				return false
			}
		}
	case map[string]any:
		for k, e := range x {
			if strings.ContainsRune(k, 0) || !storable(e) {
				return false
			}
		}
	}
	return true
}

// requiredName reads a required, non-empty name of at most 255 characters.
func requiredName(raw json.RawMessage, missing *httpx.APIError) (string, error) {
	s, ok := jsonString(raw)
	if !ok || strings.TrimSpace(s) == "" {
		return "", missing
	}
	return s, checkText("Name", s, httpx.ErrNameTooLong)
}

// checkText refuses U+0000 and, when tooLong is set, over 255 characters.
func checkText(field, s string, tooLong *httpx.APIError) error {
	if strings.ContainsRune(s, 0) {
		return httpx.ErrNULCharacter(field)
	}
	if tooLong != nil && utf8.RuneCountInString(s) > maxNameLen {
		return tooLong
	}
	return nil
}

// optionalString reads an optional string field of at most 255
// characters: absent or null gives nil.
func optionalString(obj map[string]json.RawMessage, field string) (*string, error) {
	raw, present := obj[field]
	if !present || isNull(raw) {
		return nil, nil
	}
	s, ok := jsonString(raw)
	if !ok {
		return nil, httpx.ErrStringField(field)
	}
	if err := checkText(field, s, httpx.ErrFieldTooLong(field)); err != nil {
		return nil, err
	}
	return &s, nil
}

// optionalMetadata reads an optional metadata object: absent or null gives nil.
func optionalMetadata(obj map[string]json.RawMessage) ([]byte, error) {
	raw, present := obj["metadata"]
	if !present || isNull(raw) {
		return nil, nil
	}
	b, err := jsonObject(raw)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// adminPage reads limit (1 to 100, default def) and offset.
func adminPage(c *gin.Context, def int) (admin.Page, error) {
	limit, err := httpx.QueryInt(c, "limit", def, 1, 100)
	if err != nil {
		return admin.Page{}, err
	}
	offset, err := httpx.QueryOffset(c)
	if err != nil {
		return admin.Page{}, err
	}
	return admin.Page{Limit: limit, Offset: offset}, nil
}

// queryUUID reads an optional UUID query parameter.
func queryUUID(c *gin.Context, name string, bad *httpx.APIError) (*uuid.UUID, error) {
	raw, present := c.GetQuery(name)
	if !present {
		return nil, nil
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		return nil, bad
	}
	return &id, nil
}

// isoTime writes times as DECISIONS.md asks: ISO 8601, UTC, "Z".
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func isoTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := isoTime(*t)
	return &s
}

// jsonOrEmpty returns stored JSON, or {} for an empty value.
func jsonOrEmpty(b []byte) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("{}")
	}
	return json.RawMessage(b)
}
