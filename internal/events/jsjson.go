package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// JSCanonical rewrites a JSON document as JavaScript's JSON.stringify
// writes what JSON.parse read of it: no spaces, keys in their order,
// strings escaped only where JavaScript escapes them (", \, control
// characters; never <, >, &, U+2028 or U+2029), numbers as JavaScript
// prints a double. Blockfrost's verifyWebhookSignature signs
// JSON.stringify(JSON.parse(body)), so a Blockfrost-format body is
// written in this form to verify byte for byte.
func JSCanonical(doc []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var out bytes.Buffer
	if err := jsValue(dec, &out); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("events: trailing data after a JSON document")
	}
	return out.Bytes(), nil
}

func jsValue(dec *json.Decoder, out *bytes.Buffer) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		closing := byte(']')
		if v == '{' {
			closing = '}'
		}
		out.WriteByte(byte(v))
		for i := 0; dec.More(); i++ {
			if i > 0 {
				out.WriteByte(',')
			}
			if v == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				jsString(out, k.(string))
				out.WriteByte(':')
			}
			if err := jsValue(dec, out); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		out.WriteByte(closing)
	case string:
		jsString(out, v)
	case json.Number:
		return jsNumber(out, v)
	case bool:
		out.WriteString(strconv.FormatBool(v))
	case nil:
		out.WriteString("null")
	default:
		return fmt.Errorf("events: unexpected JSON token %v", tok)
	}
	return nil
}

// jsNumber writes n as JavaScript prints the double it parses to
// (encoding/json formats a float64 the ES6 way; -0 prints as 0).
func jsNumber(out *bytes.Buffer, n json.Number) error {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return fmt.Errorf("events: number %s: %w", n, err)
	}
	if f == 0 {
		out.WriteByte('0')
		return nil
	}
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	out.Write(b)
	return nil
}

const hexDigits = "0123456789abcdef"

// jsString writes s quoted as JSON.stringify does.
func jsString(out *bytes.Buffer, s string) {
	out.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			out.WriteString(`\"`)
		case '\\':
			out.WriteString(`\\`)
		case '\b':
			out.WriteString(`\b`)
		case '\f':
			out.WriteString(`\f`)
		case '\n':
			out.WriteString(`\n`)
		case '\r':
			out.WriteString(`\r`)
		case '\t':
			out.WriteString(`\t`)
		default:
			if r < 0x20 {
				out.WriteString(`\u00`)
				out.WriteByte(hexDigits[r>>4])
				out.WriteByte(hexDigits[r&0xf])
				continue
			}
			var buf [utf8.UTFMax]byte
			n := utf8.EncodeRune(buf[:], r)
			out.Write(buf[:n])
		}
	}
	out.WriteByte('"')
}
