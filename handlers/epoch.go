package handlers

import (
	"github.com/gin-gonic/gin"
)

// epochsLatest: GET /v1/epochs/latest (the client SDK's chain position).
func (s *Server) epochsLatest(c *gin.Context) error {
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.EpochsLatest(c.Request.Context(), db))
}
