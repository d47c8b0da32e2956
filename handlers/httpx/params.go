package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
)

// QueryInt parses an optional integer query parameter within [min, max].
// Absent means def; anything else out of range is the DECISIONS 400
// "Invalid <name>: must be an integer from <min> to <max>".
func QueryInt(c *gin.Context, name string, def, min, max int) (int, error) {
	raw, present := c.GetQuery(name)
	if !present {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(raw))
	if err != nil || n < min || n > max {
		return 0, ErrInvalidParam(name, "must be an integer from "+strconv.Itoa(min)+" to "+strconv.Itoa(max))
	}
	return n, nil
}

// MaxOffset bounds offsets: deeper pages must use cursors. It is far beyond
// any real client's walk (1000 pages of 100) and keeps OFFSET cost bounded.
const MaxOffset = 1_000_000

// QueryOffset parses the optional offset (default 0).
func QueryOffset(c *gin.Context) (int, error) {
	raw, present := c.GetQuery("offset")
	if !present {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(raw))
	if err != nil || n < 0 || n > MaxOffset {
		return 0, ErrInvalidParam("offset", "must be an integer from 0 to "+strconv.Itoa(MaxOffset))
	}
	return n, nil
}

// QueryBool parses an optional boolean (true/false/1/0, case-insensitive).
func QueryBool(c *gin.Context, name string) (bool, error) {
	raw, present := c.GetQuery(name)
	if !present {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(raw)) {
	case "true", "1":
		return true, nil
	case "false", "0", "":
		return false, nil
	}
	return false, ErrInvalidParam(name, "must be true or false")
}

// DecodeJSONObject reads the body as one JSON object and returns its fields
// undecoded, so each handler can validate types field by field and answer
// with the spec's message (a number where a string belongs is a 400, never
// a 500). Unknown fields are ignored by simply not being looked at.
func DecodeJSONObject(c *gin.Context) (map[string]json.RawMessage, error) {
	body, err := readBody(c)
	if err != nil {
		return nil, err
	}
	return jsonObject(body)
}

// DecodeAdminObject is DecodeJSONObject for the admin API, whose bodies
// must also be labelled JSON (ReadAdminBody).
func DecodeAdminObject(c *gin.Context) (map[string]json.RawMessage, error) {
	body, err := ReadAdminBody(c)
	if err != nil {
		return nil, err
	}
	return jsonObject(body)
}

// ReadAdminBody reads an admin request's body. A body that is not empty
// must be labelled application/json (parameters allowed) or a +json type,
// or carry no Content-Type at all; any other label is ErrMediaType, so a
// body meant as something else is never read, or defaulted, as JSON.
func ReadAdminBody(c *gin.Context) ([]byte, error) {
	body, err := readBody(c)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(body)) > 0 && !jsonMediaType(c.GetHeader("Content-Type")) {
		return nil, ErrMediaType
	}
	return body, nil
}

// jsonMediaType reports whether a Content-Type is absent or names JSON.
func jsonMediaType(header string) bool {
	if strings.TrimSpace(header) == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(header)
	return err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// readBody reads the whole body (none: empty).
func readBody(c *gin.Context) ([]byte, error) {
	if c.Request.Body == nil {
		return nil, nil
	}
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, ErrBodyTooLarge
		}
		return nil, ErrInvalidJSON
	}
	return body, nil
}

func jsonObject(body []byte) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return nil, ErrInvalidJSON
	}
	return obj, nil
}

// QueryMinSlot parses the optional min_slot (read your writes): a
// non-negative integer, else ErrInvalidMinSlot; ok is false when absent.
func QueryMinSlot(c *gin.Context) (slot int64, ok bool, err error) {
	raw, present := c.GetQuery("min_slot")
	if !present {
		return 0, false, nil
	}
	raw = strings.TrimSpace(raw)
	if raw == "" || raw[0] < '0' || raw[0] > '9' {
		return 0, false, ErrInvalidMinSlot
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return 0, false, ErrInvalidMinSlot
	}
	return n, true, nil
}
