package events

// Blockfrost's webhook event types.
const (
	BlockfrostTransaction = "transaction"
	BlockfrostBlock       = "block"
	BlockfrostDelegation  = "delegation"
	BlockfrostEpoch       = "epoch"
)
