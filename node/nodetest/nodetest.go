// Package nodetest is a fake cardano-node for tests: gouroboros itself in
// server mode on a unix socket, answering node-to-client LocalTxSubmission
// the way its Behaviour says (accept, reject with exact CBOR, era mismatch,
// or never answer), and LocalTxMonitor from the mempool set with
// SetMempool (real transaction CBOR). It records every submission it
// receives and counts mempool acquisitions. Imported only by _test.go files
// and the bench (a node holding a mempool for the mempool scenarios).
package nodetest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	ouroboros "github.com/blinklabs-io/gouroboros"
	"github.com/blinklabs-io/gouroboros/ledger"
	"github.com/blinklabs-io/gouroboros/protocol/localtxmonitor"
	"github.com/blinklabs-io/gouroboros/protocol/localtxsubmission"
	"github.com/fxamacker/cbor/v2"
)

// Submission is one transaction the node received.
type Submission struct {
	EraID uint16
	Tx    []byte
}

// Behaviour decides the node's answer: nil accepts; an error rejects. A
// RawReject (or any error with MarshalCBOR, like *ledger.EraMismatch) is sent
// as its exact CBOR; any other error is sent as its text.
type Behaviour func(Submission) error

// Node is a running fake node. Socket is its unix socket path.
type Node struct {
	Socket string
	Magic  uint32

	ln        net.Listener
	stop      chan struct{}
	wg        sync.WaitGroup
	mu        sync.Mutex
	behaviour Behaviour
	received  []Submission
	conns     []*ouroboros.Connection
	accepted  int
	mempool   Mempool
	acquires  int
	silentMem bool
}

// Mempool is what the fake node's LocalTxMonitor serves: the slot it
// reports a snapshot acquired at, its capacity and its transactions.
type Mempool struct {
	Slot     uint64
	Capacity uint32
	Txs      []localtxmonitor.TxAndEraId
}

// MempoolTx is raw as a mempool entry, under the era gouroboros detects
// for it (the fake node's server decodes every entry under its era).
func MempoolTx(raw []byte) localtxmonitor.TxAndEraId {
	era, err := ledger.DetermineTransactionType(raw)
	if err != nil {
		panic(fmt.Sprintf("nodetest: mempool tx: %v", err))
	}
	return localtxmonitor.TxAndEraId{EraId: era, Tx: raw}
}

// SetMempool replaces the mempool later acquisitions see.
func (n *Node) SetMempool(m Mempool) {
	n.mu.Lock()
	n.mempool = m
	n.mu.Unlock()
}

// AcceptIntoMempool makes the node keep what it accepts, as a node does: an
// accepted transaction joins the mempool LocalTxMonitor serves, at its end;
// one the mempool already holds is refused the way a node refuses it (its
// first input is already spent, by the transaction itself).
func (n *Node) AcceptIntoMempool() { n.Set(n.Keep) }

// Keep is AcceptIntoMempool's behaviour, for behaviours that add to it
// (a slow node that keeps what it accepts).
func (n *Node) Keep(s Submission) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, t := range n.mempool.Txs {
		if bytes.Equal(t.Tx, s.Tx) {
			return alreadyHeld(s.Tx)
		}
	}
	n.mempool.Txs = append(n.mempool.Txs, MempoolTx(s.Tx))
	return nil
}

// alreadyHeld is a node's refusal of a transaction its mempool holds:
// BadInputsUTxO naming the transaction's first input.
func alreadyHeld(raw []byte) error {
	era, err := ledger.DetermineTransactionType(raw)
	if err != nil {
		return err
	}
	tx, err := ledger.NewTransactionFromCbor(era, raw)
	if err != nil || len(tx.Inputs()) == 0 {
		return fmt.Errorf("nodetest: an undecodable transaction: %v", err)
	}
	in := tx.Inputs()[0]
	id := in.Id()
	return ConwayBadInputs(id[:], uint64(in.Index()))
}

// AddToMempool puts transactions at the end of the mempool (a node taking
// them back after a rollback, or from its peers).
func (n *Node) AddToMempool(raws ...[]byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, raw := range raws {
		n.mempool.Txs = append(n.mempool.Txs, MempoolTx(raw))
	}
}

// TakeMempool empties the mempool and returns its transactions' CBOR in
// order: what a node's next block takes.
func (n *Node) TakeMempool() [][]byte {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([][]byte, len(n.mempool.Txs))
	for i, t := range n.mempool.Txs {
		out[i] = t.Tx
	}
	n.mempool.Txs = nil
	return out
}

// MempoolSilent makes the node never answer a mempool acquisition.
func (n *Node) MempoolSilent() {
	n.mu.Lock()
	n.silentMem = true
	n.mu.Unlock()
}

// Acquires is how many mempool snapshots clients have acquired.
func (n *Node) Acquires() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.acquires
}

func (n *Node) getMempool(localtxmonitor.CallbackContext) (uint64, uint32, []localtxmonitor.TxAndEraId, error) {
	n.mu.Lock()
	silent := n.silentMem
	n.mu.Unlock()
	if silent {
		<-n.stop
		return 0, 0, nil, errors.New("node stopped")
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.acquires++
	return n.mempool.Slot, n.mempool.Capacity, n.mempool.Txs, nil
}

// Start runs a fake node for network magic on a fresh unix socket, accepting
// every transaction until told otherwise; it stops in t.Cleanup.
func Start(t testing.TB, magic uint32) *Node {
	t.Helper()
	// Unix socket paths are limited to ~108 bytes: t.TempDir() can exceed it.
	dir, err := os.MkdirTemp("", "sgnode")
	if err != nil {
		t.Fatalf("nodetest: %v", err)
	}
	n, err := Listen(filepath.Join(dir, "node.socket"), magic)
	if err != nil {
		os.RemoveAll(dir)
		t.Fatalf("nodetest: %v", err)
	}
	t.Cleanup(func() {
		n.Close()
		os.RemoveAll(dir)
	})
	return n
}

// Listen runs a fake node for network magic on the unix socket at path
// (for the bench, which has no testing.TB); Close stops it.
func Listen(path string, magic uint32) (*Node, error) {
	n := &Node{Socket: path, Magic: magic, stop: make(chan struct{})}
	var err error
	if n.ln, err = net.Listen("unix", path); err != nil {
		return nil, err
	}
	n.wg.Add(1)
	go n.serve()
	return n, nil
}

// Set replaces the behaviour for the following submissions.
func (n *Node) Set(b Behaviour) {
	n.mu.Lock()
	n.behaviour = b
	n.mu.Unlock()
}

// Accept makes the node accept every transaction (the default).
func (n *Node) Accept() { n.Set(nil) }

// Reject makes the node refuse every transaction with reason.
func (n *Node) Reject(reason error) { n.Set(func(Submission) error { return reason }) }

// Silent makes the node never answer: submissions hang until the client gives
// up or the node stops.
func (n *Node) Silent() {
	n.Set(func(Submission) error {
		<-n.stop
		return errors.New("node stopped")
	})
}

// Received returns a copy of every submission so far, in arrival order.
func (n *Node) Received() []Submission {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]Submission(nil), n.received...)
}

// Connections is how many client connections the node has accepted.
func (n *Node) Connections() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.accepted
}

// Close stops the node: the socket disappears, connections end, silent
// submissions are released.
func (n *Node) Close() {
	select {
	case <-n.stop:
		return
	default:
	}
	close(n.stop)
	n.ln.Close()
	n.mu.Lock()
	conns := n.conns
	n.conns = nil
	n.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
	n.wg.Wait()
}

func (n *Node) serve() {
	defer n.wg.Done()
	for {
		c, err := n.ln.Accept()
		if err != nil {
			return
		}
		n.mu.Lock()
		n.accepted++
		n.mu.Unlock()
		n.wg.Add(1)
		go n.handle(c)
	}
}

// handle runs the handshake and the protocols of one client connection.
func (n *Node) handle(c net.Conn) {
	defer n.wg.Done()
	errCh := make(chan error, 10)
	o, err := ouroboros.NewConnection(
		ouroboros.WithConnection(c),
		ouroboros.WithServer(true),
		ouroboros.WithNetworkMagic(n.Magic),
		ouroboros.WithErrorChan(errCh),
		ouroboros.WithLocalTxSubmissionConfig(localtxsubmission.NewConfig(
			localtxsubmission.WithSubmitTxFunc(n.submitTx))),
		ouroboros.WithLocalTxMonitorConfig(localtxmonitor.NewConfig(
			localtxmonitor.WithGetMempoolFunc(n.getMempool))),
	)
	if err != nil { // e.g. a client with another network magic
		c.Close()
		return
	}
	n.mu.Lock()
	select {
	case <-n.stop:
		n.mu.Unlock()
		o.Close()
		return
	default:
		n.conns = append(n.conns, o)
	}
	n.mu.Unlock()
	for {
		select {
		case _, ok := <-errCh:
			if !ok {
				return
			}
		case <-n.stop:
			return
		}
	}
}

func (n *Node) submitTx(_ localtxsubmission.CallbackContext, tx localtxsubmission.MsgSubmitTxTransaction) error {
	s := Submission{EraID: tx.EraId}
	if b, ok := tx.Raw.Content.([]byte); ok {
		s.Tx = append([]byte(nil), b...)
	}
	n.mu.Lock()
	n.received = append(n.received, s)
	b := n.behaviour
	n.mu.Unlock()
	if b == nil {
		return nil
	}
	return b(s)
}

// RawReject is a rejection reason sent as these exact CBOR bytes, as a real
// node's MsgRejectTx carries them.
type RawReject []byte

func (r RawReject) Error() string                { return "rejected: " + hex.EncodeToString(r) }
func (r RawReject) MarshalCBOR() ([]byte, error) { return []byte(r), nil }

// ConwayBadInputs is a real-shaped Conway BadInputsUTxO rejection of one input:
// [[6, [[1, [0, [1, 258([[txid, index]])]]]]]] (LEDGER UtxowFailure →
// UTXOW UtxoFailure → UTXO BadInputsUTxO with a tag-258 set).
func ConwayBadInputs(txID []byte, index uint64) RawReject {
	set := cbor.Tag{Number: 258, Content: []any{[]any{txID, index}}}
	b, err := cbor.Marshal([]any{[]any{6, []any{[]any{1, []any{0, []any{1, set}}}}}})
	if err != nil {
		panic(fmt.Sprintf("nodetest: %v", err))
	}
	return RawReject(b)
}

// EraMismatch is the hard-fork combinator's wrong-era rejection: the node is
// in ledgerEra (e.g. 6, "Conway"), the transaction was for txEra.
func EraMismatch(ledgerEra uint8, ledgerName string, txEra uint8, txName string) error {
	return &ledger.EraMismatch{
		OtherEra:  ledger.EraInfo{Index: txEra, Name: txName},
		LedgerEra: ledger.EraInfo{Index: ledgerEra, Name: ledgerName},
	}
}
