package delivery

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/syncgate/syncgate/internal/events"
)

// signatureHeaders are the headers that sign a push of p's body at
// timestamp: Blockfrost-Signature for a Blockfrost-format webhook, the
// Standard Webhooks trio (webhook-id, webhook-timestamp,
// webhook-signature) otherwise, in the order they are set.
func signatureHeaders(p *events.PushTarget, keys [][]byte, timestamp int64, body []byte) events.SentHeaders {
	if p.Format == events.FormatBlockfrost {
		return events.SentHeaders{{Name: "Blockfrost-Signature", Value: blockfrostSignature(keys, timestamp, body)}}
	}
	id := p.EventID.String()
	return events.SentHeaders{
		{Name: "webhook-id", Value: id},
		{Name: "webhook-timestamp", Value: strconv.FormatInt(timestamp, 10)},
		{Name: "webhook-signature", Value: signature(keys, id, timestamp, body)},
	}
}

// signature is the webhook-signature header (Standard Webhooks): one
// "v1,<base64 HMAC-SHA256>" per key, space separated, of
// id "." timestamp "." body.
func signature(keys [][]byte, id string, timestamp int64, body []byte) string {
	ts := strconv.FormatInt(timestamp, 10)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		mac := hmac.New(sha256.New, k)
		mac.Write([]byte(id))
		mac.Write([]byte{'.'})
		mac.Write([]byte(ts))
		mac.Write([]byte{'.'})
		mac.Write(body)
		parts = append(parts, "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	return strings.Join(parts, " ")
}

// blockfrostSignature is the Blockfrost-Signature header, as Blockfrost
// signs and blockfrost-js's verifyWebhookSignature checks:
// "t=<unix>,v1=<hex HMAC-SHA256>" of "<t>.<body>", one v1 per key. The
// HMAC key is the secret as shown to the user (whsec_…, the string a
// Blockfrost receiver passes as its auth token), not its decoded bytes.
func blockfrostSignature(keys [][]byte, timestamp int64, body []byte) string {
	ts := strconv.FormatInt(timestamp, 10)
	var b strings.Builder
	b.WriteString("t=" + ts)
	for _, k := range keys {
		mac := hmac.New(sha256.New, []byte(events.SecretPrefix+base64.StdEncoding.EncodeToString(k)))
		mac.Write([]byte(ts))
		mac.Write([]byte{'.'})
		mac.Write(body)
		b.WriteString(",v1=" + hex.EncodeToString(mac.Sum(nil)))
	}
	return b.String()
}
