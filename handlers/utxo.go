package handlers

import (
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
	utxos, err := db.UTxOsByAddress(c.Request.Context(), addr)
	if err != nil {
		return err
	}
	ok(c, utxosJSON(utxos))
	return nil
}

// utxosByStake: GET /v1/utxos/stake/:stakeKey.
func (s *Server) utxosByStake(c *gin.Context) error {
	db, key, err := s.chainStakeKey(c)
	if err != nil {
		return err
	}
	utxos, err := db.UTxOsByStake(c.Request.Context(), key)
	if err != nil {
		return err
	}
	ok(c, utxosJSON(utxos))
	return nil
}
