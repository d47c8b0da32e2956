package blockfrost

import "github.com/syncgate/syncgate/handlers/httpx"

// The dialect's own 400s; identifiers shared with /v1 (addresses, stake
// keys, hashes) keep /v1's messages (handlers/httpx/errors.go).
var (
	errBlockRef = httpx.NewAPIError(400, "Invalid hash_or_number: expected a 64-character hex block hash or a block number")
)
