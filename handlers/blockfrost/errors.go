package blockfrost

import (
	"net/http"

	"github.com/syncgate/syncgate/handlers/httpx"
)

// The dialect's own 400s; identifiers shared with /v1 (addresses, stake
// keys, hashes) keep /v1's messages (handlers/httpx/errors.go).
var (
	errBlockRef = httpx.NewAPIError(400, "Invalid hash_or_number: expected a 64-character hex block hash or a block number")

	// POST /tx/submit's bodies that are not a transaction's bytes.
	errSubmitContentType = httpx.NewAPIError(400, "Invalid Content-Type: send the transaction's raw CBOR bytes with Content-Type: application/cbor")
	errSubmitEmpty       = httpx.NewAPIError(400, "Invalid transaction: empty body (send the transaction's raw CBOR bytes)")
	errSubmitHexText     = httpx.NewAPIError(400, "Invalid transaction: the body is hex text; send the raw CBOR bytes it encodes")
	errSubmitJSON        = httpx.NewAPIError(400, "Invalid transaction: the body is JSON; send the transaction's raw CBOR bytes")

	// Blockfrost's own messages for /utils/addresses/xpub.
	errXpub      = httpx.NewAPIError(http.StatusBadRequest, "Invalid or malformed xpub format. Has to be hex of length 128.")
	errXpubRole  = httpx.NewAPIError(http.StatusBadRequest, "Missing, out of range or malformed role.")
	errXpubIndex = httpx.NewAPIError(http.StatusBadRequest, "Missing, out of range or malformed index.")

	// Transaction evaluation (/utils/txs/evaluate…): the request is
	// checked, then refused.
	errEvaluateCBORType = httpx.NewAPIError(http.StatusBadRequest, "Invalid Content-Type: must be application/cbor")
	errEvaluateJSONType = httpx.NewAPIError(http.StatusBadRequest, "Invalid Content-Type: must be application/json")
	errEvaluateVersion  = httpx.ErrInvalidParam("version", "must be 5 or 6")
	errEvaluateCBOR     = httpx.NewAPIError(http.StatusBadRequest, "Invalid cbor: must be a string, the transaction's CBOR in hex or base64")
	errEvaluateUTxOs    = httpx.NewAPIError(http.StatusBadRequest, "Invalid additionalUtxoSet: must be an array of [TxIn, TxOut] pairs (Ogmios' additional UTxO set)")
	errNoEvaluator      = httpx.NewAPIError(http.StatusNotImplemented, "Transaction evaluation is not available: syncgate has no Plutus script evaluator")
	// An epoch is db-sync's word31 (as Blockfrost bounds it), a slot any
	// non-negative 64-bit integer, a slot within an epoch a word31.
	errEpochNumber = httpx.ErrInvalidParam("number", "must be an integer from 0 to 2147483647")
	errEpochInPath = httpx.ErrInvalidParam("epoch_number", "must be an integer from 0 to 2147483647")
	errSlotNumber  = httpx.ErrInvalidParam("slot_number", "must be a non-negative integer")
	errEpochSlot   = httpx.ErrInvalidParam("slot_number", "must be an integer from 0 to 2147483647")
	// Addresses and scripts.
	errAddress           = httpx.NewAPIError(400, "Invalid address: expected a payment address of this network (bech32 or Byron base58) or a payment credential (addr_vkh1… or script1…)")
	errAsset             = httpx.NewAPIError(400, "Invalid asset: expected a policy id (56 hex characters) followed by an asset name (0 to 64 hex characters)")
	errCredentialHistory = httpx.NewAPIError(400, "Invalid address: a transaction history is read by address; a payment credential (addr_vkh1…, script1…) is not accepted here")
	errFromAfterTo       = httpx.NewAPIError(400, "Invalid from/to: from must not come after to")
	errPolicy            = httpx.NewAPIError(400, "Invalid policy_id: expected 56 hex characters")
	errLabel             = httpx.NewAPIError(400, "Invalid label: expected a metadata label, an integer from 0 to 9223372036854775807")
	errScriptHash        = httpx.NewAPIError(400, "Invalid script_hash: expected 56 hex characters")
	errDatumHash         = httpx.NewAPIError(400, "Invalid datum_hash: expected 64 hex characters")
	// Accounts.
	errStakeAddress = httpx.NewAPIError(400, "Invalid stake_address: expected a bech32 stake address of this network (stake1… on mainnet, stake_test1… on testnets)")
)

// ErrMempoolFull is Blockfrost's 425: the node has no room for the
// transaction now (its words).
var ErrMempoolFull = httpx.NewAPIError(425, "Mempool is full, please try resubmitting again later.")
