package delivery

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

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
