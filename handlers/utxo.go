package handlers

import (
	"log/slog"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer"
)

// utxosByAddress: GET /v1/utxos/address/:address.
func (s *Server) utxosByAddress(c *gin.Context) error {
	db, addr, err := s.chainAddress(c)
	if err != nil {
		return err
	}
	if mode, err := pendingMode(c); err != nil || mode != answer.PendingOff {
		if err != nil {
			return err
		}
		return mempoolError(db.Network, s.answers.PendingUTxOsByAddress(streamTo(c), db, addr, mode))
	}
	return s.answers.UTxOsByAddress(streamTo(c), db, addr)
}

// utxosByStake: GET /v1/utxos/stake/:stakeKey.
func (s *Server) utxosByStake(c *gin.Context) error {
	db, key, err := s.chainStakeKey(c)
	if err != nil {
		return err
	}
	if mode, err := pendingMode(c); err != nil || mode != answer.PendingOff {
		if err != nil {
			return err
		}
		return mempoolError(db.Network, s.answers.PendingUTxOsByStake(streamTo(c), db, key, mode))
	}
	return s.answers.UTxOsByStake(streamTo(c), db, key)
}

// utxosByCredential: GET /v1/utxos/credential/:credential.
func (s *Server) utxosByCredential(c *gin.Context) error {
	db, cred, err := s.chainCredential(c)
	if err != nil {
		return err
	}
	if mode, err := pendingMode(c); err != nil || mode != answer.PendingOff {
		if err != nil {
			return err
		}
		return mempoolError(db.Network, s.answers.PendingUTxOsByCredential(streamTo(c), db, cred, mode))
	}
	return s.answers.UTxOsByCredential(streamTo(c), db, cred)
}

// streamTo is the request as a streamed answer sees it: an answer cut
// short after its first byte is logged with the request id.
func streamTo(c *gin.Context) answer.Request {
	return answer.Request{
		Ctx: c.Request.Context(), W: c.Writer, AcceptEncoding: c.GetHeader("Accept-Encoding"),
		CutShort: func(msg string, err error) {
			httpx.Logger(c).Warn(msg, slog.String("request_id", httpx.RequestID(c)), slog.String("error", err.Error()))
		},
	}
}
