package handlers

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer"
)

// balanceByAddress: GET /v1/assets/balance/address/:address.
func (s *Server) balanceByAddress(c *gin.Context) error {
	db, addr, err := s.chainAddress(c)
	if err != nil {
		return err
	}
	grouped, err := httpx.QueryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	if mode, err := pendingMode(c); err != nil || mode != answer.PendingOff {
		if err != nil {
			return err
		}
		b, err := s.answers.PendingBalanceByAddress(c.Request.Context(), db, addr, grouped, mode)
		return answered(c)(b, mempoolError(db.Network, err))
	}
	return answered(c)(s.answers.BalanceByAddress(c.Request.Context(), db, addr, grouped))
}

// balanceByStake: GET /v1/assets/balance/stake/:stakeKey.
func (s *Server) balanceByStake(c *gin.Context) error {
	db, key, err := s.chainStakeKey(c)
	if err != nil {
		return err
	}
	grouped, err := httpx.QueryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	if mode, err := pendingMode(c); err != nil || mode != answer.PendingOff {
		if err != nil {
			return err
		}
		b, err := s.answers.PendingBalanceByStake(c.Request.Context(), db, key, grouped, mode)
		return answered(c)(b, mempoolError(db.Network, err))
	}
	return answered(c)(s.answers.BalanceByStake(c.Request.Context(), db, key, grouped))
}

// balanceByCredential: GET /v1/assets/balance/credential/:credential.
func (s *Server) balanceByCredential(c *gin.Context) error {
	db, cred, err := s.chainCredential(c)
	if err != nil {
		return err
	}
	grouped, err := httpx.QueryBool(c, "groupByPolicy")
	if err != nil {
		return err
	}
	if mode, err := pendingMode(c); err != nil || mode != answer.PendingOff {
		if err != nil {
			return err
		}
		b, err := s.answers.PendingBalanceByCredential(c.Request.Context(), db, cred, grouped, mode)
		return answered(c)(b, mempoolError(db.Network, err))
	}
	return answered(c)(s.answers.BalanceByCredential(c.Request.Context(), db, cred, grouped))
}
