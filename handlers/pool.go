package handlers

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
)

// chainPool parses :poolId and resolves the caller's network.
func (s *Server) chainPool(c *gin.Context) (*dbsync.DB, cardano.PoolID, error) {
	id, err := cardano.ParsePoolID(c.Param("poolId"))
	if err != nil {
		return nil, cardano.PoolID{}, httpx.ErrInvalidPoolID
	}
	db, err := s.chainDB(c)
	if err != nil {
		return nil, cardano.PoolID{}, err
	}
	return db, id, nil
}

// poolInfo: GET /v1/pools/:poolId.
func (s *Server) poolInfo(c *gin.Context) error {
	db, id, err := s.chainPool(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.Pool(c.Request.Context(), db, id))
}

// poolDelegators: GET /v1/pools/:poolId/delegators/list?limit&offset.
func (s *Server) poolDelegators(c *gin.Context) error {
	id, err := cardano.ParsePoolID(c.Param("poolId"))
	if err != nil {
		return httpx.ErrInvalidPoolID
	}
	limit, err := httpx.QueryInt(c, "limit", 100, 1, 500)
	if err != nil {
		return err
	}
	offset, err := httpx.QueryOffset(c)
	if err != nil {
		return err
	}
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.PoolDelegators(c.Request.Context(), db, id, limit, offset))
}

// poolMetadata: GET /v1/pools/:poolId/metadata.
func (s *Server) poolMetadata(c *gin.Context) error {
	db, id, err := s.chainPool(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.PoolMetadata(c.Request.Context(), db, id))
}

// poolDelegatorCount: GET /v1/pools/:poolId/delegators.
func (s *Server) poolDelegatorCount(c *gin.Context) error {
	db, id, err := s.chainPool(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.PoolDelegatorCount(c.Request.Context(), db, id))
}

// poolBlocks: GET /v1/pools/:poolId/blocks.
func (s *Server) poolBlocks(c *gin.Context) error {
	db, id, err := s.chainPool(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.PoolBlocks(c.Request.Context(), db, id))
}
