package blockfrost

import "github.com/syncgate/syncgate/handlers/httpx"

// The dialect's own 400s; identifiers shared with /v1 (addresses, stake
// keys, hashes) keep /v1's messages (handlers/httpx/errors.go).
var (
	errBlockRef = httpx.NewAPIError(400, "Invalid hash_or_number: expected a 64-character hex block hash or a block number")

	// POST /tx/submit's bodies that are not a transaction's bytes.
	errSubmitContentType = httpx.NewAPIError(400, "Invalid Content-Type: send the transaction's raw CBOR bytes with Content-Type: application/cbor")
	errSubmitEmpty       = httpx.NewAPIError(400, "Invalid transaction: empty body (send the transaction's raw CBOR bytes)")
	errSubmitHexText     = httpx.NewAPIError(400, "Invalid transaction: the body is hex text; send the raw CBOR bytes it encodes")
	errSubmitJSON        = httpx.NewAPIError(400, "Invalid transaction: the body is JSON; send the transaction's raw CBOR bytes")
)

// ErrMempoolFull is Blockfrost's 425: the node has no room for the
// transaction now (its words).
var ErrMempoolFull = httpx.NewAPIError(425, "Mempool is full, please try resubmitting again later.")
