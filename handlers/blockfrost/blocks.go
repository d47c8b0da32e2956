package blockfrost

import (
	"math"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
)

func (a *API) blockRoutes() []Route {
	get := func(path string, h func(*gin.Context) error) Route {
		return Route{Method: http.MethodGet, Path: path, Group: admin.GroupChain, Chain: true, Handle: h}
	}
	addresses := get("/blocks/:hash_or_number/addresses", a.blockAddresses)
	// The addresses a block spent from are those of the outputs it spent.
	addresses.Needs = []dbsync.Facts{dbsync.FactsSpent}
	return []Route{
		get("/blocks/latest", a.latestBlock),
		get("/blocks/latest/txs", a.blockTxs(true)),
		get("/blocks/latest/txs/cbor", a.blockTxsCBOR(true)),
		get("/blocks/:hash_or_number", a.block),
		get("/blocks/:hash_or_number/next", a.blockNeighbours(true)),
		get("/blocks/:hash_or_number/previous", a.blockNeighbours(false)),
		get("/blocks/:hash_or_number/txs", a.blockTxs(false)),
		get("/blocks/:hash_or_number/txs/cbor", a.blockTxsCBOR(false)),
		addresses,
		get("/blocks/slot/:slot_number", a.blockInSlot),
		get("/blocks/epoch/:epoch_number/slot/:slot_number", a.blockInEpochSlot),
	}
}

// latestBlock: GET /blocks/latest.
func (a *API) latestBlock(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.LatestBlock(c.Request.Context(), db))
}

// block: GET /blocks/{hash_or_number}.
func (a *API) block(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	ref, err := blockRef(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.Block(c.Request.Context(), db, ref))
}

// blockInSlot: GET /blocks/slot/{slot_number}.
func (a *API) blockInSlot(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	slot, err := nonNegative(c, "slot_number", math.MaxInt64, errSlotNumber)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.BlockInSlot(c.Request.Context(), db, slot))
}

// blockInEpochSlot: GET /blocks/epoch/{epoch_number}/slot/{slot_number}.
func (a *API) blockInEpochSlot(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	epoch, err := nonNegative(c, "epoch_number", math.MaxInt32, errEpochInPath)
	if err != nil {
		return err
	}
	slot, err := nonNegative(c, "slot_number", math.MaxInt32, errEpochSlot)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.BlockInEpochSlot(c.Request.Context(), db, epoch, slot))
}
