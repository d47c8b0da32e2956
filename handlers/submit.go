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
	"github.com/syncgate/syncgate/handlers/blockfrost"
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

// submitTx is POST /v1/tx/submit: decode and hash the transaction, then
// submit it (submitDecoded) and answer {txHash, status}.
func (s *Server) submitTx(c *gin.Context) error {
	req, err := parseSubmitRequest(c)
	if err != nil {
		return err
	}
	tx, err := node.DecodeTxHex(req.tx)
	if err != nil {
		return invalidTx(err)
	}
	res, err := s.submitDecoded(c, tx, !req.skipValidation)
	if err != nil {
		return err
	}
	httpx.OK(c, submitResult{TxHash: tx.Hash, Status: res.Status})
	return nil
}

// submitCBOR is the Blockfrost dialect's submission (blockfrost.Deps.Submit):
// the raw transaction bytes, decoded and hashed, then submitted as /v1's
// are (submitDecoded: one submission whichever dialect sends it) without
// the input check, as Blockfrost hands a transaction to the node as it
// is (a wallet chaining transactions spends outputs db-sync has not seen
// yet). A node that does not answer while its mempool has no room for the
// transaction is Blockfrost's 425.
func (s *Server) submitCBOR(c *gin.Context, raw []byte) (string, error) {
	tx, err := node.DecodeTx(raw)
	if err != nil {
		return "", invalidTx(err)
	}
	if _, err := s.submitDecoded(c, tx, false); err != nil {
		if errors.Is(err, httpx.ErrNodeTimeout) && s.mempoolFull(c, len(tx.CBOR)) {
			return "", fmt.Errorf("%w: %v", blockfrost.ErrMempoolFull, err)
		}
		return "", err
	}
	return tx.Hash, nil
}

// invalidTx is the answer to bytes node.DecodeTx refused.
func invalidTx(err error) error {
	var inv *node.InvalidTxError
	if errors.As(err, &inv) {
		return httpx.ErrInvalidTx(inv.Reason)
	}
	return err
}

// mempoolFull reports whether the caller's network's node says (its
// LocalTxMonitor sizes) that its mempool has no room for size more bytes:
// cardano-node holds a submission while its mempool is full rather than
// refusing it, so that is the only way it says so. False when it cannot
// tell.
func (s *Server) mempoolFull(c *gin.Context, size int) bool {
	if s.deps.Mempool == nil {
		return false
	}
	db, err := s.chainDB(c)
	if err != nil {
		return false
	}
	snap, err := s.deps.Mempool.Snapshot(c.Request.Context(), db.Network)
	return err == nil && snap.CapacityBytes > 0 && uint64(snap.Bytes)+uint64(size) > uint64(snap.CapacityBytes)
}

// submitDecoded submits a decoded transaction for the caller's network:
// answered at once when it is already in a block or the mempool, its
// inputs checked against db-sync when check says so, then handed to the
// node (once, however many submit it at the same time, through either
// dialect), logged. Errors are httpx's (400 rejected with the node's
// reason, 503 no node, 504 no answer) or the input check's.
func (s *Server) submitDecoded(c *gin.Context, tx *node.Tx, check bool) (txstatus.SubmitResult, error) {
	db, err := s.chainDB(c)
	if err != nil {
		return txstatus.SubmitResult{}, err
	}
	network := db.Network
	if s.deps.Submitter == nil {
		return txstatus.SubmitResult{}, fmt.Errorf("%w (no submitter)", httpx.ErrSubmitUnavailable(network.Name))
	}
	sub := txstatus.SubmitRequest{Network: network, Chain: db, Tx: tx}
	if caller, ok := callerOf(c); ok && caller.CredentialID != uuid.Nil {
		sub.CredentialID = &caller.CredentialID
	}
	if check {
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
		return res, httpx.ErrTxRejected(rej.Reason, rej.ReasonCBOR)
	case errors.Is(err, node.ErrTimeout):
		return res, fmt.Errorf("%w: %v", httpx.ErrNodeTimeout, err)
	case errors.Is(err, node.ErrNotConfigured), errors.Is(err, node.ErrUnavailable):
		// Wrapped so that httpx.Fail logs the cause (socket, phase) with the request id.
		return res, fmt.Errorf("%w: %v", httpx.ErrSubmitUnavailable(network.Name), err)
	default:
		return res, err
	}
	if res.Status == txstatus.Submitted {
		// The node took it now: this instance's mempool answers show it
		// from the next request on.
		s.deps.Mempool.Changed(network)
	}
	httpx.Logger(c).Info("transaction submitted",
		slog.String("request_id", httpx.RequestID(c)),
		slog.String("network", network.Name),
		slog.String("tx_hash", tx.Hash),
		slog.String("status", res.Status),
		slog.String("era", node.EraName(tx.EraID)),
		slog.Int("size", len(tx.CBOR)),
		slog.Bool("skip_validation", !check),
		slog.Duration("duration", time.Since(start)),
	)
	return res, nil
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
