package handlers

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
)

// utxoJSON is the spec's UTxO (§2.7), used by both UTxO endpoints.
type utxoJSON struct {
	TransactionID string        `json:"transaction_id"`
	OutputIndex   int           `json:"output_index"`
	Address       string        `json:"address"`
	Value         valueJSON     `json:"value"`
	DatumHash     *string       `json:"datum_hash"`
	ScriptHash    *string       `json:"script_hash"`
	CreatedAt     createdAtJSON `json:"created_at"`
}

type createdAtJSON struct {
	SlotNo     int64  `json:"slot_no"`
	HeaderHash string `json:"header_hash"`
}

func utxosJSON(utxos []dbsync.UTxO) []utxoJSON {
	out := make([]utxoJSON, len(utxos))
	for i, u := range utxos {
		out[i] = utxoJSON{
			TransactionID: u.TxHash,
			OutputIndex:   u.OutputIndex,
			Address:       u.Address,
			Value:         valueOf(u.Value, false),
			DatumHash:     u.DatumHash,
			ScriptHash:    u.ScriptHash,
			CreatedAt:     createdAtJSON{SlotNo: u.SlotNo, HeaderHash: u.BlockHash},
		}
	}
	return out
}

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
	buf     bytes.Buffer
}

func (st *utxoStream) write(chunk []dbsync.UTxO) error {
	st.buf.Reset()
	if !st.started {
		st.started = true
		st.c.Writer.Header().Set("Content-Type", contentType)
		st.c.Writer.WriteHeader(http.StatusOK)
		st.buf.WriteString(`{"success":true,"data":[`)
	}
	enc := json.NewEncoder(&st.buf)
	enc.SetEscapeHTML(false)
	for _, u := range utxosJSON(chunk) {
		if st.items > 0 {
			st.buf.WriteByte(',')
		}
		if err := enc.Encode(u); err != nil {
			return err
		}
		st.buf.Truncate(st.buf.Len() - 1) // Encode's newline
		st.items++
	}
	_, err := st.c.Writer.Write(st.buf.Bytes())
	return err
}

func (st *utxoStream) finish() error {
	if !st.started {
		ok(st.c, []utxoJSON{})
		return nil
	}
	_, err := st.c.Writer.WriteString("]}\n")
	return err
}
