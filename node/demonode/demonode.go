// Package demonode is the demo's cardano-node: a node-to-client server on
// a unix socket (gouroboros in server mode: handshake, LocalTxSubmission,
// LocalTxMonitor) in front of a db-sync database that a chain follower
// keeps moving (`syncgate demo`, `syncgate seed --follow --node-socket`).
//
// It accepts a transaction as a node would, within what the follower can
// write as db-sync does: a Babbage or Conway payment, native-token transfer
// or metadata, whose inputs are unspent outputs on chain or of its own
// mempool (not spent by it), whose vkey witnesses are valid signatures of
// the body hash and cover every key-locked input and required signer, whose
// value is preserved and fee and outputs meet the chain's parameters.
// Anything else is refused with a node-shaped reason (reject.go): ledger
// failures as a Conway node's ApplyTxErr, what it cannot write (certificates,
// minting, scripts, datums…) as text saying so. Accepted transactions wait
// in its Mempool, which LocalTxMonitor lists and the follower drains.
//
// It is not a test double (node/nodetest is): it sits beside syncgate in
// the demo, where NODE_SOCKET_<NET> points at it. It is a tool above the
// stores (it reads db-sync), imported only by the commands and tests.
package demonode

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	ouroboros "github.com/blinklabs-io/gouroboros"
	"github.com/blinklabs-io/gouroboros/protocol/localtxmonitor"
	"github.com/blinklabs-io/gouroboros/protocol/localtxsubmission"

	"github.com/syncgate/syncgate/internal/cardano"
)

// Options configure a demo node.
type Options struct {
	// Network is the chain's network (its magic for the handshake, its
	// address network id for outputs).
	Network cardano.Network
	Ledger  Ledger
	// CapacityBytes is the mempool's capacity (0: DefaultCapacityBytes).
	CapacityBytes int
	// CheckTimeout bounds the database work of one submission (0: 10 s).
	CheckTimeout time.Duration
	// Log receives what the node accepts, refuses and drops (nil: none).
	Log *slog.Logger
}

// Node is a running demo node.
type Node struct {
	path    string
	opts    Options
	mempool *Mempool
	ln      net.Listener
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   map[*ouroboros.Connection]bool
	closed  bool
}

// Listen starts a demo node on the unix socket at path (replacing a stale
// socket file a previous run left there).
func Listen(ctx context.Context, path string, opts Options) (*Node, error) {
	if opts.Ledger == nil {
		return nil, errors.New("demo node: no ledger")
	}
	if opts.CheckTimeout <= 0 {
		opts.CheckTimeout = 10 * time.Second
	}
	tip, err := opts.Ledger.Tip(ctx)
	if err != nil {
		return nil, fmt.Errorf("demo node: tip: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("demo node: %w", err)
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
		if c, err := net.Dial("unix", path); err == nil {
			c.Close()
			return nil, fmt.Errorf("demo node: %s is in use by another node", path)
		}
		_ = os.Remove(path)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("demo node: %w", err)
	}
	n := &Node{path: path, opts: opts, ln: ln, conns: map[*ouroboros.Connection]bool{}}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	n.mempool = newMempool(opts.CapacityBytes, uint64(tip.SlotNo), n.logf)
	n.wg.Add(1)
	go n.serve()
	return n, nil
}

// Socket is the node's unix socket path.
func (n *Node) Socket() string { return n.path }

// Mempool is the node's mempool (the chain follower's Submitted hooks).
func (n *Node) Mempool() *Mempool { return n.mempool }

// Submit checks a transaction (era as LocalTxSubmission names it) and
// adds it to the mempool: nil when accepted, else the reason the node
// sends (*Rejection, *UnsupportedError, *DecodeError, an era mismatch,
// ErrMempoolFull) or the database's error.
func (n *Node) Submit(ctx context.Context, era uint16, raw []byte) error {
	tx, err := Decode(era, raw)
	if err == nil {
		err = n.admit(ctx, tx)
	}
	if err != nil {
		n.logf("demo node: refused a transaction: %v", err)
		return err
	}
	n.logf("demo node: accepted transaction %s (%d bytes)", tx.HashHex(), len(raw))
	return nil
}

// Close stops the node: the socket goes, connections end.
func (n *Node) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	conns := n.conns
	n.conns = nil
	n.mu.Unlock()
	n.cancel()
	err := n.ln.Close()
	for c := range conns {
		c.Close()
	}
	n.wg.Wait()
	return err
}

func (n *Node) serve() {
	defer n.wg.Done()
	for {
		c, err := n.ln.Accept()
		if err != nil {
			return
		}
		n.wg.Add(1)
		go n.handle(c)
	}
}

// handle runs the handshake and the mini-protocols of one client.
func (n *Node) handle(c net.Conn) {
	defer n.wg.Done()
	errCh := make(chan error, 10)
	o, err := ouroboros.NewConnection(
		ouroboros.WithConnection(c),
		ouroboros.WithServer(true),
		ouroboros.WithNetworkMagic(n.opts.Network.Magic),
		ouroboros.WithErrorChan(errCh),
		ouroboros.WithLocalTxSubmissionConfig(localtxsubmission.NewConfig(
			localtxsubmission.WithSubmitTxFunc(n.submitTx))),
		ouroboros.WithLocalTxMonitorConfig(localtxmonitor.NewConfig(
			localtxmonitor.WithGetMempoolFunc(n.mempool.snapshot))),
	)
	if err != nil { // e.g. a client of another network
		c.Close()
		return
	}
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		o.Close()
		return
	}
	n.conns[o] = true
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		delete(n.conns, o)
		n.mu.Unlock()
		o.Close()
	}()
	// The first error (the client hanging up, a protocol violation) ends
	// the connection.
	select {
	case <-errCh:
	case <-n.ctx.Done():
	}
}

func (n *Node) submitTx(_ localtxsubmission.CallbackContext, msg localtxsubmission.MsgSubmitTxTransaction) error {
	raw, ok := msg.Raw.Content.([]byte)
	if !ok {
		return undecodable("no transaction bytes")
	}
	ctx, cancel := context.WithTimeout(n.ctx, n.opts.CheckTimeout)
	defer cancel()
	return n.Submit(ctx, msg.EraId, append([]byte(nil), raw...))
}

func (n *Node) logf(format string, args ...any) {
	if n.opts.Log != nil {
		n.opts.Log.Info(fmt.Sprintf(format, args...))
	}
}
