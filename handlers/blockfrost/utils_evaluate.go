package blockfrost

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/node"
)

// Blockfrost evaluates a transaction's scripts with Ogmios (EvaluateTx);
// syncgate has no Plutus evaluator, so both routes answer 501. A request
// is checked first, as Blockfrost checks it, so a client learns of a
// malformed one (400, or 413 for a body over the limit) before learning
// that no evaluator is there. A wrong Content-Type is a 400, the status
// Blockfrost documents for every malformed request.

// evaluateTx: POST /utils/txs/evaluate, the transaction's CBOR as the body
// (Content-Type application/cbor), in hex or base64 text as Blockfrost's
// clients send it, or as raw bytes.
func (a *API) evaluateTx(c *gin.Context) error {
	if !isMediaType(c, "application/cbor", false) {
		return errEvaluateCBORType
	}
	if err := evaluateVersion(c); err != nil {
		return err
	}
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		return bodyError(err)
	}
	if _, err := decodeEvaluated(bytes.TrimSpace(body)); err != nil {
		return err
	}
	return errNoEvaluator
}

// evaluateTxUTxOs: POST /utils/txs/evaluate/utxos, a JSON object
// {"cbor": <hex or base64>, "additionalUtxoSet": [[TxIn, TxOut], …]}.
func (a *API) evaluateTxUTxOs(c *gin.Context) error {
	if !isMediaType(c, "application/json", true) {
		return errEvaluateJSONType
	}
	if err := evaluateVersion(c); err != nil {
		return err
	}
	obj, err := httpx.DecodeJSONObject(c)
	if err != nil {
		return err
	}
	var text string
	if raw := bytes.TrimSpace(obj["cbor"]); len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &text) != nil {
		return errEvaluateCBOR
	}
	if _, err := decodeEvaluated([]byte(strings.TrimSpace(text))); err != nil {
		return err
	}
	if raw := bytes.TrimSpace(obj["additionalUtxoSet"]); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if !validUTxOSet(raw) {
			return errEvaluateUTxOs
		}
	}
	return errNoEvaluator
}

// isMediaType reports whether the request is labelled mt (parameters
// allowed); an absent label passes when orAbsent.
func isMediaType(c *gin.Context, mt string, orAbsent bool) bool {
	h := strings.TrimSpace(c.GetHeader("Content-Type"))
	if h == "" {
		return orAbsent
	}
	got, _, err := mime.ParseMediaType(h)
	return err == nil && got == mt
}

// evaluateVersion checks ?version= (the Ogmios version Blockfrost asks: 5
// by default, or 6).
func evaluateVersion(c *gin.Context) error {
	if vs, given := c.GetQueryArray("version"); given && (len(vs) > 1 || vs[0] != "5" && vs[0] != "6") {
		return errEvaluateVersion
	}
	return nil
}

func bodyError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return httpx.ErrBodyTooLarge
	}
	return httpx.ErrInvalidTx("the body could not be read")
}

// decodeEvaluated reads a transaction given as raw CBOR (a CBOR array:
// its first byte 0x80–0x9f, never a hex or base64 character), hex or
// base64, and checks it is one as the submit route does.
func decodeEvaluated(b []byte) (*node.Tx, error) {
	raw := b
	switch {
	case len(b) == 0:
		return nil, httpx.ErrInvalidTx("empty")
	case b[0] >= 0x80 && b[0] <= 0x9f:
	case isHex(b):
		raw, _ = hex.DecodeString(string(b))
	default:
		var err error
		if raw, err = base64.StdEncoding.DecodeString(string(b)); err != nil {
			if raw, err = base64.RawStdEncoding.DecodeString(string(b)); err != nil {
				return nil, httpx.ErrInvalidTx("neither CBOR, hex nor base64")
			}
		}
	}
	tx, err := node.DecodeTx(raw)
	if err != nil {
		var inv *node.InvalidTxError
		if errors.As(err, &inv) {
			return nil, httpx.ErrInvalidTx(inv.Reason)
		}
		return nil, err
	}
	return tx, nil
}

func isHex(b []byte) bool {
	if len(b)%2 != 0 {
		return false
	}
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// validUTxOSet checks an additional UTxO set in Ogmios' shape, v5 or v6:
// an array of [TxIn, TxOut] pairs, the TxIn naming a transaction (txId, or
// transaction) and a non-negative integer index, the TxOut an address and
// a value object.
func validUTxOSet(raw json.RawMessage) bool {
	var pairs []json.RawMessage
	if json.Unmarshal(raw, &pairs) != nil {
		return false
	}
	for _, p := range pairs {
		var pair []map[string]json.RawMessage
		if json.Unmarshal(p, &pair) != nil || len(pair) != 2 || pair[0] == nil || pair[1] == nil {
			return false
		}
		in, out := pair[0], pair[1]
		var index uint64
		if in["txId"] == nil && in["transaction"] == nil || json.Unmarshal(in["index"], &index) != nil {
			return false
		}
		var addr string
		var value map[string]json.RawMessage
		if json.Unmarshal(out["address"], &addr) != nil || addr == "" || json.Unmarshal(out["value"], &value) != nil || value == nil {
			return false
		}
	}
	return true
}
