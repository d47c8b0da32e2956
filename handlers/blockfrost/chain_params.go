package blockfrost

import (
	"errors"
	"math"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/cardano"
)

// nonNegative parses c's path parameter name as an integer from 0 to
// limit, or returns bad.
func nonNegative(c *gin.Context, name string, limit int64, bad error) (int64, error) {
	s := c.Param(name)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > limit || s[0] == '+' {
		return 0, bad
	}
	return n, nil
}

// epochNumber is the {number} of an /epochs/{number}/… route.
func epochNumber(c *gin.Context) (int64, error) {
	return nonNegative(c, "number", math.MaxInt32, errEpochNumber)
}

// poolID is the {pool_id} of a route: bech32 (pool1…) or 56 hex digits.
func poolID(c *gin.Context) (cardano.PoolID, error) {
	id, err := cardano.ParsePoolID(c.Param("pool_id"))
	if err != nil {
		return id, httpx.ErrInvalidPoolID
	}
	return id, nil
}

// blockRef is the {hash_or_number} of a /blocks/{hash_or_number}/… route.
func blockRef(c *gin.Context) (bf.BlockRef, error) {
	ref, valid := bf.ParseBlockRef(c.Param("hash_or_number"))
	if !valid {
		return ref, errBlockRef
	}
	return ref, nil
}

// unordered parses count and page of a list Blockfrost gives no order
// parameter: an order there is not one of its parameters, so it is not
// refused.
func unordered(c *gin.Context) (bf.Paging, error) {
	p, err := paging(c)
	if errors.Is(err, errOrder) {
		err = nil
	}
	p.Desc = false
	return p, err
}
