package handlers

import (
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
)

// utxosByAddress: GET /v1/utxos/address/:address.
func (s *Server) utxosByAddress(c *gin.Context) error {
	db, addr, err := s.chainAddress(c)
	if err != nil {
		return err
	}
	return streamUTxOs(c, func(fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByAddress(c.Request.Context(), addr, fn)
	})
}

// utxosByStake: GET /v1/utxos/stake/:stakeKey.
func (s *Server) utxosByStake(c *gin.Context) error {
	db, key, err := s.chainStakeKey(c)
	if err != nil {
		return err
	}
	return streamUTxOs(c, func(fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByStake(c.Request.Context(), key, fn)
	})
}

// utxosByCredential: GET /v1/utxos/credential/:credential.
func (s *Server) utxosByCredential(c *gin.Context) error {
	db, cred, err := s.chainCredential(c)
	if err != nil {
		return err
	}
	return streamUTxOs(c, func(fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByCredential(c.Request.Context(), cred, fn)
	})
}

// streamUTxOs answers {"success":true,"data":[...]} (the bytes ok() would
// write) one chunk of outputs at a time, so a list of tens of thousands
// never sits in memory whole. An error before the first byte is answered as
// usual; after it, the status is already 200, so the connection is aborted:
// a client must not mistake a cut list for a whole one.
func streamUTxOs(c *gin.Context, each func(fn func([]dbsync.UTxO) error) error) error {
	st := utxoStream{c: c}
	if err := each(st.write); err != nil {
		if !st.started {
			return err
		}
		logger(c).Warn("UTxO list cut short", slog.String("request_id", requestID(c)), slog.String("error", err.Error()))
		panic(http.ErrAbortHandler)
	}
	return st.finish()
}

type utxoStream struct {
	c       *gin.Context
	started bool
	items   int
	buf     []byte
}

func (st *utxoStream) write(chunk []dbsync.UTxO) error {
	b := st.buf[:0]
	if !st.started {
		st.started = true
		st.c.Writer.Header().Set("Content-Type", contentType)
		st.c.Writer.WriteHeader(http.StatusOK)
		b = append(b, `{"success":true,"data":[`...)
	}
	for _, u := range chunk {
		if st.items > 0 {
			b = append(b, ',')
		}
		b = appendUTxO(b, u)
		st.items++
	}
	st.buf = b
	_, err := st.c.Writer.Write(b)
	return err
}

func (st *utxoStream) finish() error {
	if !st.started {
		okAppended(st.c, func(b []byte) []byte { return append(b, "[]"...) }, nil, nil)
		return nil
	}
	_, err := st.c.Writer.WriteString("]}\n")
	return err
}
