package handlers

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer"
)

// balanceByAddress: GET /v1/assets/balance/address/:address.
func (s *Server) balanceByAddress(c *gin.Context) error {
	db, addr, err := s.chainAddress(c)
	if err != nil {
		return err
	}
	return balanceOf(c, db, addr, s.answers.BalanceByAddress, s.answers.PendingBalanceByAddress)
}

// balanceByStake: GET /v1/assets/balance/stake/:stakeKey.
func (s *Server) balanceByStake(c *gin.Context) error {
	db, key, err := s.chainStakeKey(c)
	if err != nil {
		return err
	}
	return balanceOf(c, db, key, s.answers.BalanceByStake, s.answers.PendingBalanceByStake)
}

// balanceByCredential: GET /v1/assets/balance/credential/:credential.
func (s *Server) balanceByCredential(c *gin.Context) error {
	db, cred, err := s.chainCredential(c)
	if err != nil {
		return err
	}
	return balanceOf(c, db, cred, s.answers.BalanceByCredential, s.answers.PendingBalanceByCredential)
}

// balanceOf answers a balance route once its target is parsed: the
// confirmed balance, or with ?pending the balance after the mempool.
func balanceOf[T any](c *gin.Context, db *dbsync.DB, target T,
	confirmed func(context.Context, *dbsync.DB, T, bool) ([]byte, error),
	pending func(context.Context, *dbsync.DB, T, bool, answer.PendingMode) ([]byte, error)) error {
	grouped, err := httpx.QueryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	mode, err := pendingMode(c)
	if err != nil {
		return err
	}
	if mode != answer.PendingOff {
		b, err := pending(c.Request.Context(), db, target, grouped, mode)
		return answered(c)(b, mempoolError(db.Network, err))
	}
	return answered(c)(confirmed(c.Request.Context(), db, target, grouped))
}
