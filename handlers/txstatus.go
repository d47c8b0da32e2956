package handlers

import (
	"context"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/service/txstatus"
	"github.com/syncgate/syncgate/node"
)

// txStatusResult is GET /v1/tx/status/:hash's data (OpenAPI schema TxStatus).
type txStatusResult struct {
	TxHash        string         `json:"tx_hash"`
	Status        string         `json:"status"`
	Confirmations *int64         `json:"confirmations,omitempty"`
	Block         *txStatusBlock `json:"block,omitempty"`
	Tip           txStatusTip    `json:"tip"`
	SubmittedAt   *time.Time     `json:"submitted_at,omitempty"`
	TTLSlot       *int64         `json:"ttl_slot,omitempty"`
	Reason        *string        `json:"reason,omitempty"`
	Mempool       string         `json:"mempool"`
}

type txStatusBlock struct {
	Hash   string `json:"hash"`
	Height int64  `json:"height"`
	Slot   int64  `json:"slot"`
}

type txStatusTip struct {
	Slot int64  `json:"slot"`
	Hash string `json:"hash"`
}

// txStatus: GET /v1/tx/status/:hash, where a transaction is on the caller's
// network (txstatus.Service.Status has the rules).
func (s *Server) txStatus(c *gin.Context) error {
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	hash, err := cardano.ParseTxHash(c.Param("hash"))
	if err != nil {
		return httpx.ErrInvalidTxHash
	}
	// Pinned: the recent tip a status is kept under and the reads deciding
	// it come from one db-sync server.
	st, err := s.txs.Status(c.Request.Context(), db.Network.Name, db.Pinned(), hash)
	if err != nil {
		return err
	}
	out := txStatusResult{TxHash: hash.String(), Status: st.Status, Mempool: "unavailable",
		Tip: txStatusTip{Slot: st.Tip.SlotNo, Hash: st.Tip.BlockHash}, TTLSlot: st.TTLSlot}
	if st.MempoolOK {
		out.Mempool = "ok"
	}
	if st.Block != nil {
		out.Block = &txStatusBlock{Hash: st.Block.Hash, Height: st.Block.BlockNo, Slot: st.Block.Slot}
		out.Confirmations = &st.Confirmations
	}
	if st.SubmittedAt != nil {
		at := st.SubmittedAt.UTC()
		out.SubmittedAt = &at
	}
	if st.Status == txstatus.Rejected {
		out.Reason = &st.Reason
	}
	httpx.OK(c, out)
	return nil
}

// nodeMempool is the node's mempool reader as transaction status asks it.
type nodeMempool struct{ m *node.Mempool }

func (n nodeMempool) Contains(ctx context.Context, network string, hash [32]byte) (txstatus.MempoolAnswer, error) {
	nw, ok := cardano.NetworkByName(network)
	if !ok {
		return txstatus.MempoolAnswer{}, fmt.Errorf("mempool: unknown network %q", network)
	}
	snap, err := n.m.Snapshot(ctx, nw)
	if err != nil {
		return txstatus.MempoolAnswer{}, err
	}
	return txstatus.MempoolAnswer{In: snap.Has(hex.EncodeToString(hash[:])), TakenAt: snap.TakenAt, Gen: snap.Gen}, nil
}
