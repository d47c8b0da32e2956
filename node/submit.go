package node

import (
	"context"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	ouroboros "github.com/blinklabs-io/gouroboros"
	"github.com/blinklabs-io/gouroboros/protocol/localtxsubmission"

	"github.com/syncgate/syncgate/config"
)

// Submission failures other than a rejection. Handlers map them to statuses;
// the wrapped text (socket, phase, cause) is for the log only.
var (
	// ErrNotConfigured: no node socket is configured for the network.
	ErrNotConfigured = errors.New("node: no node socket configured")
	// ErrUnavailable: the node could not be reached, refused the handshake
	// (wrong network magic) or hung up before answering.
	ErrUnavailable = errors.New("node: unavailable")
	// ErrTimeout: the node was reached but did not finish the handshake or
	// answer the submission in time.
	ErrTimeout = errors.New("node: did not answer in time")
)

// RejectedError is the node's explicit refusal of a transaction.
type RejectedError struct {
	// Reason is readable: gouroboros' decoding where it is right, Conway
	// failures named here, otherwise CBOR diagnostic notation.
	Reason string
	// ReasonCBOR is the reason exactly as the node sent it.
	ReasonCBOR []byte
}

func (e *RejectedError) Error() string { return "node rejected the transaction: " + e.Reason }

// Default timeouts of each phase. The request deadline bounds the total as
// well, whichever is shorter.
const (
	DefaultDialTimeout      = 5 * time.Second
	DefaultHandshakeTimeout = 5 * time.Second
	DefaultSubmitTimeout    = 10 * time.Second
)

// Options tunes a Submitter; zero values mean the defaults.
type Options struct {
	DialTimeout      time.Duration
	HandshakeTimeout time.Duration
	SubmitTimeout    time.Duration
	// Log receives gouroboros' own (debug) logging; nil discards it.
	Log *slog.Logger
}

// Submitter submits transactions to each network's cardano-node over
// node-to-client LocalTxSubmission. It opens one connection per Submit and
// closes it afterwards, so a restarted node, a dead connection or a node
// that answered slowly for someone else never affects the next request.
// It is safe for concurrent use.
type Submitter struct {
	sockets map[string]string // network name → unix path or host:port
	opts    Options
}

// NewSubmitter returns a Submitter for the given node sockets (network name
// → unix socket path, or host:port for a socat/ssh-forwarded socket).
func NewSubmitter(sockets map[string]string, opts Options) *Submitter {
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = DefaultDialTimeout
	}
	if opts.HandshakeTimeout <= 0 {
		opts.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if opts.SubmitTimeout <= 0 {
		opts.SubmitTimeout = DefaultSubmitTimeout
	}
	s := &Submitter{sockets: map[string]string{}, opts: opts}
	for name, addr := range sockets {
		if addr = strings.TrimSpace(addr); addr != "" {
			s.sockets[name] = addr
		}
	}
	return s
}

// SocketsFromConfig collects NODE_SOCKET_<NET> of every served network.
func SocketsFromConfig(cfg config.Config) map[string]string {
	m := map[string]string{}
	for name, nc := range cfg.Networks {
		if nc.NodeSocket != "" {
			m[name] = nc.NodeSocket
		}
	}
	return m
}

// endpoint tells a unix socket path from a TCP host:port. "unix:" and
// "tcp://" prefixes force the choice; otherwise anything with a slash, or
// that is not host:port with a numeric port, is a path.
func endpoint(addr string) (network, address string) {
	switch {
	case strings.HasPrefix(addr, "tcp://"):
		return "tcp", strings.TrimPrefix(addr, "tcp://")
	case strings.HasPrefix(addr, "unix://"):
		return "unix", strings.TrimPrefix(addr, "unix://")
	case strings.HasPrefix(addr, "unix:"):
		return "unix", strings.TrimPrefix(addr, "unix:")
	case strings.Contains(addr, "/"):
		return "unix", addr
	}
	if _, port, err := net.SplitHostPort(addr); err == nil {
		if _, err := strconv.ParseUint(port, 10, 16); err == nil {
			return "tcp", addr
		}
	}
	return "unix", addr
}

// Submit sends tx (era eraID) to network's node and waits for its verdict:
// nil when accepted, *RejectedError when refused, or an error wrapping
// ErrNotConfigured, ErrUnavailable or ErrTimeout. A cancelled ctx (client
// gone) returns an error wrapping context.Canceled.
func (s *Submitter) Submit(ctx context.Context, network cardano.Network, eraID uint16, tx []byte) error {
	addr := s.sockets[network.Name]
	if addr == "" {
		return fmt.Errorf("%w for %s", ErrNotConfigured, network.Name)
	}
	conn, err := dialNode(ctx, network, addr, s.opts.DialTimeout, "dial")
	if err != nil {
		return err
	}
	defer conn.Close()

	// Handshake: NewConnection runs it synchronously with no deadline of
	// ours, so closing the socket is what bounds it.
	errCh := make(chan error, 10)
	hsCtx, hsCancel := context.WithTimeout(ctx, s.opts.HandshakeTimeout)
	stopHs := context.AfterFunc(hsCtx, func() { conn.Close() })
	opts := []ouroboros.ConnectionOptionFunc{
		ouroboros.WithConnection(conn),
		ouroboros.WithNetworkMagic(network.Magic),
		ouroboros.WithErrorChan(errCh),
		// The protocol's own Busy-state timeout is only a backstop behind
		// ours, so that a SubmitTx ending without an answer before our
		// deadline always means the node hung up.
		ouroboros.WithLocalTxSubmissionConfig(localtxsubmission.NewConfig(
			localtxsubmission.WithTimeout(s.opts.SubmitTimeout + 5*time.Second))),
	}
	if s.opts.Log != nil {
		opts = append(opts, ouroboros.WithLogger(s.opts.Log))
	}
	o, err := ouroboros.NewConnection(opts...)
	hsExpired := !stopHs()
	hsCancel()
	if err != nil || hsExpired {
		if o != nil {
			o.Close()
		}
		if hsExpired {
			return expired(hsCtx, network, "handshake")
		}
		return fmt.Errorf("%w: %s node %s: handshake: %v", ErrUnavailable, network.Name, addr, err)
	}
	defer o.Close()

	client := o.LocalTxSubmission().Client
	result := make(chan error, 1)
	go func() { result <- client.SubmitTx(eraID, tx) }()
	subCtx, subCancel := context.WithTimeout(ctx, s.opts.SubmitTimeout)
	defer subCancel()
	select {
	case err = <-result:
	case <-subCtx.Done():
		// The deferred Close ends the protocol, which releases SubmitTx.
		return expired(subCtx, network, "submit")
	}
	if err == nil {
		_ = client.Stop() // MsgDone: a polite goodbye, as cardano-cli does
		return nil
	}
	var rej localtxsubmission.TransactionRejectedError
	if errors.As(err, &rej) {
		_ = client.Stop()
		return &RejectedError{Reason: describeReason(rej.Reason, rej.ReasonCbor), ReasonCBOR: rej.ReasonCbor}
	}
	cause := err
	select {
	case e, ok := <-errCh:
		if ok && e != nil {
			cause = e
		}
	default:
	}
	return fmt.Errorf("%w: %s node %s: submit: %v", ErrUnavailable, network.Name, addr, cause)
}

// expired explains why a phase's context ended: the client went away
// (context.Canceled) or time ran out (ErrTimeout).
func expired(ctx context.Context, network cardano.Network, phase string) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("node: %s %s: %w", network.Name, phase, context.Canceled)
	}
	return fmt.Errorf("%w: %s %s", ErrTimeout, network.Name, phase)
}

// dialNode opens a connection to the node at addr (unix path or
// host:port); a failure is ErrUnavailable, or the deadline's error when
// ctx ended first (what names the step in it).
func dialNode(ctx context.Context, network cardano.Network, addr string, timeout time.Duration, what string) (net.Conn, error) {
	proto, address := endpoint(addr)
	dialer := net.Dialer{Timeout: timeout}
	conn, err := dialer.DialContext(ctx, proto, address)
	if err != nil {
		if ctx.Err() != nil {
			return nil, expired(ctx, network, what)
		}
		return nil, fmt.Errorf("%w: %s node %s: %v", ErrUnavailable, network.Name, addr, err)
	}
	return conn, nil
}
