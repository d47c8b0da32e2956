package main

// Routes are the Blockfrost operations syncgate serves under /api/v0, as
// Blockfrost's document names them: the chain API a wallet or a
// transaction builder calls.
var Routes = []string{
	"GET /", "GET /health", "GET /health/clock",
	"GET /network", "GET /network/eras", "GET /genesis",
	"GET /epochs/latest", "GET /epochs/latest/parameters", "GET /epochs/{number}",
	"GET /epochs/{number}/parameters", "GET /epochs/{number}/next", "GET /epochs/{number}/previous",
	"GET /epochs/{number}/stakes", "GET /epochs/{number}/stakes/{pool_id}", "GET /epochs/{number}/blocks",
	"GET /epochs/{number}/blocks/{pool_id}",
	"GET /blocks/latest", "GET /blocks/latest/txs", "GET /blocks/latest/txs/cbor",
	"GET /blocks/{hash_or_number}", "GET /blocks/{hash_or_number}/next", "GET /blocks/{hash_or_number}/previous",
	"GET /blocks/{hash_or_number}/txs", "GET /blocks/{hash_or_number}/txs/cbor", "GET /blocks/{hash_or_number}/addresses",
	"GET /blocks/slot/{slot_number}", "GET /blocks/epoch/{epoch_number}/slot/{slot_number}",
	"GET /txs/{hash}", "GET /txs/{hash}/utxos", "GET /txs/{hash}/cbor", "GET /txs/{hash}/metadata",
	"GET /txs/{hash}/metadata/cbor", "GET /txs/{hash}/redeemers", "GET /txs/{hash}/required_signers",
	"GET /txs/{hash}/stakes", "GET /txs/{hash}/delegations", "GET /txs/{hash}/withdrawals", "GET /txs/{hash}/mirs",
	"GET /txs/{hash}/pool_updates", "GET /txs/{hash}/pool_retires", "POST /tx/submit",
	"GET /addresses/{address}", "GET /addresses/{address}/extended", "GET /addresses/{address}/total",
	"GET /addresses/{address}/utxos", "GET /addresses/{address}/utxos/{asset}",
	"GET /addresses/{address}/transactions", "GET /addresses/{address}/txs",
	"GET /scripts", "GET /scripts/{script_hash}", "GET /scripts/{script_hash}/json", "GET /scripts/{script_hash}/cbor",
	"GET /scripts/{script_hash}/redeemers", "GET /scripts/{script_hash}/utxos",
	"GET /scripts/datum/{datum_hash}", "GET /scripts/datum/{datum_hash}/cbor",
	"GET /mempool", "GET /mempool/{hash}", "GET /mempool/addresses/{address}",
	"GET /pools", "GET /pools/extended", "GET /pools/retired", "GET /pools/retiring", "GET /pools/{pool_id}",
	"GET /pools/{pool_id}/history", "GET /pools/{pool_id}/metadata", "GET /pools/{pool_id}/relays",
	"GET /pools/{pool_id}/delegators", "GET /pools/{pool_id}/blocks", "GET /pools/{pool_id}/updates",
	"GET /pools/{pool_id}/votes",
	"GET /utils/addresses/xpub/{xpub}/{role}/{index}", "POST /utils/txs/evaluate", "POST /utils/txs/evaluate/utxos",
	"GET /accounts/{stake_address}", "GET /accounts/{stake_address}/rewards", "GET /accounts/{stake_address}/history",
	"GET /accounts/{stake_address}/delegations", "GET /accounts/{stake_address}/registrations",
	"GET /accounts/{stake_address}/withdrawals", "GET /accounts/{stake_address}/mirs",
	"GET /accounts/{stake_address}/addresses", "GET /accounts/{stake_address}/addresses/assets",
	"GET /accounts/{stake_address}/addresses/total",
	"GET /accounts/{stake_address}/transactions", "GET /accounts/{stake_address}/utxos",
}
