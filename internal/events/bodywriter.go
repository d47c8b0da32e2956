package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// bodySep separates the bodies of one write in the single text parameter
// that carries them: JSON never holds a raw control character, so it
// cannot occur in a body (one string parsed by string_to_array costs far
// less, on both sides, than an array literal of escaped documents).
const bodySep = '\x1e'

// bodyWriter writes the bodies of one decision's events into one buffer,
// each part that events share (the block and tip, the network and time,
// a Blockfrost payload in JavaScript's form) encoded once. The bodies are
// byte for byte what json.Marshal(Body) and blockfrostBody's envelope
// write (TestBodyWriterMatchesEncoding).
type bodyWriter struct {
	buf      []byte
	n        int
	network  []byte
	created  []byte
	unix     int64
	blocks   map[*BlockRef][]byte
	strs     map[string][]byte
	payloads map[*BlockfrostPayload][]byte
}

func newBodyWriter(network string, now time.Time) (*bodyWriter, error) {
	w := &bodyWriter{unix: now.Unix(), blocks: map[*BlockRef][]byte{}, strs: map[string][]byte{},
		payloads: map[*BlockfrostPayload][]byte{}}
	var err error
	if w.created, err = json.Marshal(now); err != nil {
		return nil, err
	}
	w.network = w.str(network)
	return w, nil
}

// eventData is e's data as JSON: as given when the scanner encoded it
// once for many events (json.RawMessage, from json.Marshal), else encoded.
func eventData(e NewEvent) ([]byte, error) {
	if raw, ok := e.Data.(json.RawMessage); ok && raw != nil {
		return raw, nil
	}
	data, err := json.Marshal(e.Data)
	if err != nil {
		return nil, fmt.Errorf("events: %s data: %w", e.Type, err)
	}
	return data, nil
}

// standard appends event e's syncgate body.
func (w *bodyWriter) standard(id uuid.UUID, e NewEvent, seq int64, data []byte) {
	w.start()
	w.buf = append(w.buf, `{"id":`...)
	w.buf = appendUUID(w.buf, id)
	w.buf = append(w.buf, `,"type":`...)
	w.buf = append(w.buf, w.str(e.Type)...)
	w.buf = append(w.buf, `,"webhook_id":`...)
	w.buf = appendUUID(w.buf, e.WebhookID)
	w.buf = append(w.buf, `,"seq":`...)
	w.buf = strconv.AppendInt(w.buf, seq, 10)
	w.buf = append(w.buf, `,"network":`...)
	w.buf = append(w.buf, w.network...)
	w.buf = append(w.buf, `,"created_at":`...)
	w.buf = append(w.buf, w.created...)
	w.buf = append(w.buf, `,"block":`...)
	w.buf = append(w.buf, w.block(e.Block)...)
	w.buf = append(w.buf, `,"tip":`...)
	w.buf = append(w.buf, w.block(e.Tip)...)
	w.buf = append(w.buf, `,"data":`...)
	w.buf = append(w.buf, data...)
	w.buf = append(w.buf, '}')
}

// blockfrost appends event e's body for a Blockfrost-format webhook: its
// Blockfrost payload, or (an event Blockfrost has no type for: undos,
// webhook.*, quota notices) syncgate's type and data in the envelope, in
// the form JSON.stringify writes (JSCanonical).
func (w *bodyWriter) blockfrost(id uuid.UUID, e NewEvent, data []byte) error {
	typ, payload := e.Type, []byte(nil)
	if p := e.Blockfrost; p != nil {
		typ = p.Type
		if payload = w.payloads[p]; payload == nil {
			var err error
			if payload, err = JSCanonical(p.Payload); err != nil {
				return err
			}
			w.payloads[p] = payload
		}
	} else {
		var err error
		if payload, err = JSCanonical(data); err != nil {
			return err
		}
	}
	w.start()
	w.buf = append(w.buf, `{"id":`...)
	w.buf = appendUUID(w.buf, id)
	w.buf = append(w.buf, `,"webhook_id":`...)
	w.buf = appendUUID(w.buf, e.WebhookID)
	w.buf = append(w.buf, `,"created":`...)
	w.buf = strconv.AppendInt(w.buf, w.unix, 10)
	w.buf = append(w.buf, `,"api_version":1,"type":`...)
	var t bytes.Buffer
	jsString(&t, typ)
	w.buf = append(w.buf, t.Bytes()...)
	w.buf = append(w.buf, `,"payload":`...)
	w.buf = append(w.buf, payload...)
	w.buf = append(w.buf, '}')
	return nil
}

// bodies is every body written, separated by bodySep.
func (w *bodyWriter) bodies() (string, error) {
	if bytes.Count(w.buf, []byte{bodySep}) != max(w.n-1, 0) {
		return "", errors.New("events: a body holds a raw control character")
	}
	return string(w.buf), nil
}

func (w *bodyWriter) start() {
	if w.n > 0 {
		w.buf = append(w.buf, bodySep)
	}
	w.n++
}

func (w *bodyWriter) block(b *BlockRef) []byte {
	if b == nil {
		return []byte("null")
	}
	if j, ok := w.blocks[b]; ok {
		return j
	}
	j, _ := json.Marshal(blockJSON(b)) // strings and numbers: cannot fail
	w.blocks[b] = j
	return j
}

func (w *bodyWriter) str(s string) []byte {
	if j, ok := w.strs[s]; ok {
		return j
	}
	j, _ := json.Marshal(s) // a string: cannot fail
	w.strs[s] = j
	return j
}

func appendUUID(dst []byte, id uuid.UUID) []byte {
	dst = append(dst, '"')
	dst = append(dst, id.String()...)
	return append(dst, '"')
}
