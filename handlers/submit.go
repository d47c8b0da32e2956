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

	"github.com/syncgate/syncgate/dbsync"
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

// submitTx is POST /v1/tx/submit: decode and hash the transaction, check its
// inputs against db-sync unless skipValidation, then hand it to the caller's
// network's node and answer {txHash}.
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
	ctx := c.Request.Context()
	if !req.skipValidation {
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
	}
	network := db.Network
	if s.deps.Submitter == nil {
		return fmt.Errorf("%w (no submitter)", httpx.ErrSubmitUnavailable(network.Name))
	}
	start := time.Now()
	err = s.deps.Submitter.Submit(ctx, network, tx.EraID, tx.CBOR)
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
		slog.String("era", node.EraName(tx.EraID)),
		slog.Int("size", len(tx.CBOR)),
		slog.Bool("skip_validation", req.skipValidation),
		slog.Duration("node_duration", time.Since(start)),
	)
	httpx.OK(c, submitResult{TxHash: tx.Hash})
	return nil
}
