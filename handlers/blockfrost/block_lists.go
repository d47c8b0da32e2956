package blockfrost

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/internal/answer/bf"
)

// listedBlock is the block a list route names: the newest one for
// /blocks/latest/…, else its {hash_or_number}.
func listedBlock(c *gin.Context, latest bool) (bf.BlockRef, error) {
	if latest {
		return bf.NewestBlock, nil
	}
	return blockRef(c)
}

// blockNeighbours: GET /blocks/{hash_or_number}/next (next) and /previous.
func (a *API) blockNeighbours(next bool) func(*gin.Context) error {
	return func(c *gin.Context) error {
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		ref, err := blockRef(c)
		if err != nil {
			return err
		}
		p, err := unordered(c)
		if err != nil {
			return err
		}
		return ok(c)(a.deps.Answers.BlockNeighbours(c.Request.Context(), db, ref, next, p))
	}
}

// blockTxs: GET /blocks/{hash_or_number}/txs and (latest) /blocks/latest/txs.
func (a *API) blockTxs(latest bool) func(*gin.Context) error {
	return func(c *gin.Context) error {
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		ref, err := listedBlock(c, latest)
		if err != nil {
			return err
		}
		p, err := paging(c)
		if err != nil {
			return err
		}
		return ok(c)(a.deps.Answers.BlockTxs(c.Request.Context(), db, ref, p))
	}
}

// blockTxsCBOR: GET /blocks/{hash_or_number}/txs/cbor and (latest)
// /blocks/latest/txs/cbor.
func (a *API) blockTxsCBOR(latest bool) func(*gin.Context) error {
	return func(c *gin.Context) error {
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		ref, err := listedBlock(c, latest)
		if err != nil {
			return err
		}
		p, err := paging(c)
		if err != nil {
			return err
		}
		return ok(c)(a.deps.Answers.BlockTxsCBOR(c.Request.Context(), db, ref, p))
	}
}

// blockAddresses: GET /blocks/{hash_or_number}/addresses.
func (a *API) blockAddresses(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	ref, err := blockRef(c)
	if err != nil {
		return err
	}
	p, err := unordered(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.BlockAddresses(c.Request.Context(), db, ref, p))
}
