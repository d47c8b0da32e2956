package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
	"log/slog"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/service/txstatus"
	"github.com/syncgate/syncgate/node"
)

// TxSubmitter hands a decoded transaction to a network's node.
// *node.Submitter implements it; its errors are node's typed errors.
type TxSubmitter interface {
	Submit(ctx context.Context, network cardano.Network, eraID uint16, tx []byte) error
}

// submitResult is the transaction submit result (OpenAPI schema SubmitResult).
type submitResult struct {
	TxHash string `json:"txHash"`
	// Status: submitted (the node accepted it now), in_mempool or in_block
	// (it was already there; the node was not asked again).
	Status string `json:"status"`
}

// submitRequest is POST /v1/tx/submit's body.
type submitRequest struct {
	tx             string
	skipValidation bool
}

// parseSubmitRequest reads {tx, skipValidation}: tx a string (required),
// skipValidation a boolean (absent or null means false).
func parseSubmitRequest(c *gin.Context) (submitRequest, error) {
	obj, err := httpx.DecodeJSONObject(c)
	if err != nil {
		return submitRequest{}, err
	}
	var req submitRequest
	raw := bytes.TrimSpace(obj["tx"])
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &req.tx) != nil {
		return submitRequest{}, httpx.ErrTxNotString
	}
	if raw := bytes.TrimSpace(obj["skipValidation"]); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if json.Unmarshal(raw, &req.skipValidation) != nil {
			return submitRequest{}, httpx.ErrSkipValidType
		}
	}
	return req, nil
}

// submitTx is POST /v1/tx/submit: decode and hash the transaction, answer
// at once when it is already in a block or the mempool, check its inputs
// against db-sync unless skipValidation, then hand it to the caller's
// network's node (once, however many submit it at the same time) and answer
// {txHash, status}.
func (s *Server) submitTx(c *gin.Context) error {
	req, err := parseSubmitRequest(c)
	if err != nil {
		return err
	}
	tx, err := node.DecodeTxHex(req.tx)
	if err != nil {
		var inv *node.InvalidTxError
		if errors.As(err, &inv) {
			return httpx.ErrInvalidTx(inv.Reason)
		}
		return err
	}
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	network := db.Network
	if s.deps.Submitter == nil {
		return fmt.Errorf("%w (no submitter)", httpx.ErrSubmitUnavailable(network.Name))
	}
	sub := txstatus.SubmitRequest{Network: network, Chain: db, Tx: tx}
	if caller, ok := callerOf(c); ok && caller.CredentialID != uuid.Nil {
		sub.CredentialID = &caller.CredentialID
	}
	if !req.skipValidation {
		sub.Check = func(ctx context.Context) error { return checkInputs(ctx, db, tx) }
	}
	start := time.Now()
	res, err := s.txs.Submit(c.Request.Context(), sub)
	var rej *node.RejectedError
	switch {
	case err == nil:
	case errors.As(err, &rej):
		httpx.Logger(c).Info("transaction rejected by node",
			slog.String("request_id", httpx.RequestID(c)),
			slog.String("network", network.Name),
			slog.String("tx_hash", tx.Hash),
			slog.String("reason", rej.Reason),
		)
		return httpx.ErrTxRejected(rej.Reason, rej.ReasonCBOR)
	case errors.Is(err, node.ErrTimeout):
		return fmt.Errorf("%w: %v", httpx.ErrNodeTimeout, err)
	case errors.Is(err, node.ErrNotConfigured), errors.Is(err, node.ErrUnavailable):
		// Wrapped so that httpx.Fail logs the cause (socket, phase) with the request id.
		return fmt.Errorf("%w: %v", httpx.ErrSubmitUnavailable(network.Name), err)
	default:
		return err
	}
	httpx.Logger(c).Info("transaction submitted",
		slog.String("request_id", httpx.RequestID(c)),
		slog.String("network", network.Name),
		slog.String("tx_hash", tx.Hash),
		slog.String("status", res.Status),
		slog.String("era", node.EraName(tx.EraID)),
		slog.Int("size", len(tx.CBOR)),
		slog.Bool("skip_validation", req.skipValidation),
		slog.Duration("duration", time.Since(start)),
	)
	httpx.OK(c, submitResult{TxHash: tx.Hash, Status: res.Status})
	return nil
}

// checkInputs refuses a transaction one of whose inputs is not an unspent
// output in db-sync, naming the first in the transaction's order.
func checkInputs(ctx context.Context, db *dbsync.DB, tx *node.Tx) error {
	refs := make([]dbsync.OutputRef, len(tx.Inputs))
	for i, in := range tx.Inputs {
		refs[i] = dbsync.OutputRef{TxHash: in.TxHash, Index: in.Index}
	}
	first, err := db.UnspentInputs(ctx, refs)
	if err != nil {
		return err
	}
	if first >= 0 {
		return httpx.ErrInputUnavailable(tx.Inputs[first].String())
	}
	return nil
}
