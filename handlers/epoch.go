package handlers

import (
	"math"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
)

// epochsLatest: GET /v1/epochs/latest (the client SDK's chain position).
func (s *Server) epochsLatest(c *gin.Context) error {
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.EpochsLatest(c.Request.Context(), db))
}

// epochParamsLatest: GET /v1/epochs/latest/parameters, the protocol
// parameters of the tip's epoch (Blockfrost's epoch_param_content).
func (s *Server) epochParamsLatest(c *gin.Context) error {
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.EpochParameters(c.Request.Context(), db, 0, true))
}

// epochParams: GET /v1/epochs/:epoch/parameters. The upper bound (the
// current epoch + 1) is checked by the answer, which reads the tip.
func (s *Server) epochParams(c *gin.Context) error {
	epoch, ok := parseEpoch(c.Param("epoch"))
	if !ok {
		return httpx.ErrInvalidEpoch
	}
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.EpochParameters(c.Request.Context(), db, epoch, false))
}

// parseEpoch accepts decimal digits only (no sign, no spaces). A number
// too large for int64 is still a number: it is answered as out of range.
func parseEpoch(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return math.MaxInt64, true
	}
	return n, true
}
