package answer

import "errors"

// What an answer reports as not there; the HTTP layer turns each into its
// client message. Each is also remembered under the tip (NotFoundTTL).
var (
	ErrTxNotFound    = errors.New("answer: transaction not found")
	ErrAssetNotFound = errors.New("answer: asset not found")
	ErrPoolNotFound  = errors.New("answer: pool not found")
	// ErrNotFound: an entity another dialect asked for is not there.
	ErrNotFound = errors.New("answer: not found")
	// ErrEpochParamsNotFound: no parameters for the epoch (a Byron
	// epoch, the next one before it begins, a db-sync without ledger).
	ErrEpochParamsNotFound = errors.New("answer: epoch parameters not found")
)
