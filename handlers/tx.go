package handlers

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Limits of the two history endpoints (OpenAPI: the history routes' limit and offset).
const (
	detailedHistoryDefaultLimit = 20
	detailedHistoryMaxLimit     = 100
	lightHistoryDefaultLimit    = 100
	lightHistoryMaxLimit        = 500
)

// txsByAddress: GET /v1/tx/address/:address (detailed history).
func (s *Server) txsByAddress(c *gin.Context) error {
	db, addr, err := s.chainAddress(c)
	if err != nil {
		return err
	}
	q, err := historyQuery(c, detailedHistoryDefaultLimit, detailedHistoryMaxLimit)
	if err != nil {
		return err
	}
	grouped, err := httpx.QueryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	return answered(c)(s.answers.DetailedHistory(c.Request.Context(), db, addr, q, grouped))
}

// txHistory: GET /v1/tx/history/:address (light history).
func (s *Server) txHistory(c *gin.Context) error {
	db, addr, err := s.chainAddress(c)
	if err != nil {
		return err
	}
	q, err := historyQuery(c, lightHistoryDefaultLimit, lightHistoryMaxLimit)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.LightHistory(c.Request.Context(), db, addr, q))
}

// txByHash: GET /v1/tx/hash/:hash.
func (s *Server) txByHash(c *gin.Context) error {
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	hash, err := cardano.ParseTxHash(c.Param("hash"))
	if err != nil {
		return httpx.ErrInvalidTxHash
	}
	grouped, err := httpx.QueryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	return answered(c)(s.answers.Tx(c.Request.Context(), db, hash, grouped))
}
