package blockfrost

import "github.com/syncgate/syncgate/handlers/httpx"

// The dialect's own 400s; identifiers shared with /v1 (addresses, stake
// keys, hashes) keep /v1's messages (handlers/httpx/errors.go).
var (
	errBlockRef = httpx.NewAPIError(400, "Invalid hash_or_number: expected a 64-character hex block hash or a block number")
	// An epoch is db-sync's word31 (as Blockfrost bounds it), a slot any
	// non-negative 64-bit integer, a slot within an epoch a word31.
	errEpochNumber = httpx.ErrInvalidParam("number", "must be an integer from 0 to 2147483647")
	errEpochInPath = httpx.ErrInvalidParam("epoch_number", "must be an integer from 0 to 2147483647")
	errSlotNumber  = httpx.ErrInvalidParam("slot_number", "must be a non-negative integer")
	errEpochSlot   = httpx.ErrInvalidParam("slot_number", "must be an integer from 0 to 2147483647")
)
