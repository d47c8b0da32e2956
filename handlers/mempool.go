package handlers

import (
	"errors"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// mempoolStatus: GET /v1/mempool.
func (s *Server) mempoolStatus(c *gin.Context) error {
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	b, err := s.answers.MempoolStatus(c.Request.Context(), db)
	if err != nil {
		return mempoolError(db.Network, err)
	}
	return answered(c)(b, nil)
}

// mempoolTx: GET /v1/mempool/:hash.
func (s *Server) mempoolTx(c *gin.Context) error {
	db, hash, err := s.chainTxHash(c)
	if err != nil {
		return err
	}
	tx, err := s.answers.MempoolTransaction(c.Request.Context(), db.Network, hash)
	if err != nil {
		return mempoolError(db.Network, err)
	}
	httpx.OK(c, tx)
	return nil
}

// pendingMode reads ?pending= of the UTxO and balance routes: absent or
// false is the confirmed answer, true marks and adds, exclude leaves out.
func pendingMode(c *gin.Context) (answer.PendingMode, error) {
	v, given := c.GetQuery("pending")
	switch {
	case !given || v == "false":
		return answer.PendingOff, nil
	case v == "true":
		return answer.PendingMark, nil
	case v == "exclude":
		return answer.PendingExclude, nil
	}
	return answer.PendingOff, httpx.ErrInvalidPending
}

// mempoolError maps a mempool read's failure to its client message.
func mempoolError(network cardano.Network, err error) error {
	if errors.Is(err, answer.ErrMempoolTxNotFound) {
		return httpx.ErrMempoolTxNotFound
	}
	return httpx.MempoolFailure(network.Name, err)
}
