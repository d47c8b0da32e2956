package node

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"github.com/syncgate/syncgate/internal/cardano"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	ouroboros "github.com/blinklabs-io/gouroboros"
	"github.com/blinklabs-io/gouroboros/protocol/localtxsubmission"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/node/nodetest"
)

var (
	mainnet = cardano.Networks[0]
	preprod = cardano.Networks[2]
)

// conwayTx is a real Conway transaction from the vectors.
func conwayTx(t testing.TB) *Tx {
	t.Helper()
	for _, v := range loadVectors(t).Vectors {
		if v.ID == "blockfrost-e781decc5945" {
			tx, err := DecodeTxHex(v.CborHex)
			if err != nil {
				t.Fatal(err)
			}
			return tx
		}
	}
	t.Fatal("vector missing")
	return nil
}

func TestSubmitAccepted(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	s := NewSubmitter(map[string]string{"mainnet": n.Socket}, Options{})
	tx := conwayTx(t)
	if err := s.Submit(t.Context(), mainnet, tx.EraID, tx.CBOR); err != nil {
		t.Fatalf("submit: %v", err)
	}
	got := n.Received()
	if len(got) != 1 || got[0].EraID != 6 || !bytes.Equal(got[0].Tx, tx.CBOR) {
		t.Fatalf("node received %+v", got)
	}
	// One connection per submission.
	if err := s.Submit(t.Context(), mainnet, tx.EraID, tx.CBOR); err != nil {
		t.Fatal(err)
	}
	if c := n.Connections(); c != 2 {
		t.Errorf("connections %d, want 2", c)
	}
}

func TestSubmitRejected(t *testing.T) {
	txid, _ := hex.DecodeString("279184037d249e397d97293738370756da559718fcdefae9924834840046b37b")
	badInputs := nodetest.ConwayBadInputs(txid, 1)
	cases := []struct {
		name       string
		reason     error
		wantReason string
		wantCBOR   []byte
	}{
		{"Conway bad inputs", badInputs,
			"ConwayUtxowFailure (UtxoFailure (BadInputsUTxO 258([[h'279184037d249e397d97293738370756da559718fcdefae9924834840046b37b', 1]])))",
			[]byte(badInputs)},
		{"era mismatch", nodetest.EraMismatch(6, "Conway", 1, "Shelley"),
			"The era of the node and the tx do not match. The node is running in the Conway era, but the transaction is for the Shelley era.",
			[]byte{0x82, 0x82, 0x01, 0x67, 'S', 'h', 'e', 'l', 'l', 'e', 'y', 0x82, 0x06, 0x66, 'C', 'o', 'n', 'w', 'a', 'y'}},
		{"text reason", errors.New("mempool is full"), "mempool is full",
			append([]byte{0x6f}, "mempool is full"...)},
	}
	n := nodetest.Start(t, mainnet.Magic)
	s := NewSubmitter(map[string]string{"mainnet": n.Socket}, Options{})
	tx := conwayTx(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n.Reject(tc.reason)
			err := s.Submit(t.Context(), mainnet, tx.EraID, tx.CBOR)
			var rej *RejectedError
			if !errors.As(err, &rej) {
				t.Fatalf("got %v, want RejectedError", err)
			}
			if rej.Reason != tc.wantReason {
				t.Errorf("reason\n got %s\nwant %s", rej.Reason, tc.wantReason)
			}
			if !bytes.Equal(rej.ReasonCBOR, tc.wantCBOR) {
				t.Errorf("reason CBOR %x, want %x", rej.ReasonCBOR, tc.wantCBOR)
			}
		})
	}
}

func TestSubmitSilentNode(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	n.Silent()
	s := NewSubmitter(map[string]string{"mainnet": n.Socket}, Options{SubmitTimeout: 200 * time.Millisecond})
	tx := conwayTx(t)
	err := s.Submit(t.Context(), mainnet, tx.EraID, tx.CBOR)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("got %v, want ErrTimeout", err)
	}
	if len(n.Received()) != 1 {
		t.Error("the node should have received the transaction")
	}

	// The request's own deadline bounds the submission as well.
	s = NewSubmitter(map[string]string{"mainnet": n.Socket}, Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if err := s.Submit(ctx, mainnet, tx.EraID, tx.CBOR); !errors.Is(err, ErrTimeout) {
		t.Fatalf("request deadline: got %v, want ErrTimeout", err)
	}
}

// A socket that accepts but never speaks: the handshake times out.
func TestSubmitSilentHandshake(t *testing.T) {
	dir, err := os.MkdirTemp("", "sgnode")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "mute.socket")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	s := NewSubmitter(map[string]string{"mainnet": path}, Options{HandshakeTimeout: 200 * time.Millisecond})
	if err := s.Submit(t.Context(), mainnet, 6, []byte{0x80}); !errors.Is(err, ErrTimeout) {
		t.Fatalf("got %v, want ErrTimeout", err)
	}
}

func TestSubmitUnavailable(t *testing.T) {
	preprodNode := nodetest.Start(t, preprod.Magic)
	hangUp := nodetest.Start(t, mainnet.Magic)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	hangUp.Set(func(nodetest.Submission) error {
		go hangUp.Close() // the node goes away while the submission is in flight
		<-release
		return nil
	})
	tx := conwayTx(t)
	cases := []struct {
		name   string
		socket string
		want   error
	}{
		{"not configured", "", ErrNotConfigured},
		{"socket missing", filepath.Join(os.TempDir(), "sg-no-such-node.socket"), ErrUnavailable},
		{"nothing listening on tcp", "127.0.0.1:1", ErrUnavailable},
		{"node of another network (magic refused)", preprodNode.Socket, ErrUnavailable},
		{"node hangs up mid-submission", hangUp.Socket, ErrUnavailable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSubmitter(map[string]string{"mainnet": tc.socket}, Options{})
			err := s.Submit(t.Context(), mainnet, tx.EraID, tx.CBOR)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	if len(preprodNode.Received()) != 0 {
		t.Error("a node of another network received the transaction")
	}
}

func TestSubmitCancelled(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	n.Silent()
	s := NewSubmitter(map[string]string{"mainnet": n.Socket}, Options{})
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		for len(n.Received()) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	tx := conwayTx(t)
	err := s.Submit(ctx, mainnet, tx.EraID, tx.CBOR)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// Each network's transactions go to that network's node, with its magic.
func TestSubmitPerNetwork(t *testing.T) {
	m := nodetest.Start(t, mainnet.Magic)
	p := nodetest.Start(t, preprod.Magic)
	s := NewSubmitter(map[string]string{"mainnet": m.Socket, "preprod": p.Socket}, Options{})
	tx := conwayTx(t)
	if err := s.Submit(t.Context(), preprod, tx.EraID, tx.CBOR); err != nil {
		t.Fatal(err)
	}
	if len(p.Received()) != 1 || len(m.Received()) != 0 {
		t.Fatalf("preprod got %d, mainnet got %d", len(p.Received()), len(m.Received()))
	}
	if err := s.Submit(t.Context(), cardano.Networks[1], tx.EraID, tx.CBOR); !errors.Is(err, ErrNotConfigured) {
		t.Fatalf("preview: got %v", err)
	}
}

func TestSubmitConcurrent(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	s := NewSubmitter(map[string]string{"mainnet": n.Socket}, Options{})
	tx := conwayTx(t)
	const workers = 16
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Go(func() { errs <- s.Submit(t.Context(), mainnet, tx.EraID, tx.CBOR) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := len(n.Received()); got != workers {
		t.Errorf("received %d, want %d", got, workers)
	}
}

func TestEndpoint(t *testing.T) {
	cases := []struct{ in, network, addr string }{
		{"/run/cardano/node.socket", "unix", "/run/cardano/node.socket"},
		{"node.socket", "unix", "node.socket"},
		{"./ipc/node.socket", "unix", "./ipc/node.socket"},
		{"127.0.0.1:3001", "tcp", "127.0.0.1:3001"},
		{"relay.example:3001", "tcp", "relay.example:3001"},
		{"[::1]:3001", "tcp", "[::1]:3001"},
		{"tcp://relay.example:3001", "tcp", "relay.example:3001"},
		{"unix:///run/node.socket", "unix", "/run/node.socket"},
		{"unix:node.socket", "unix", "node.socket"},
		{"weird:name", "unix", "weird:name"},
	}
	for _, tc := range cases {
		if n, a := endpoint(tc.in); n != tc.network || a != tc.addr {
			t.Errorf("endpoint(%q) = %s %s, want %s %s", tc.in, n, a, tc.network, tc.addr)
		}
	}
}

func TestSocketsFromConfig(t *testing.T) {
	cfg := config.Config{Networks: map[string]config.NetworkConfig{
		"mainnet": {Network: mainnet, NodeSocket: "/run/m.socket"},
		"preprod": {Network: preprod},
	}}
	got := SocketsFromConfig(cfg)
	if len(got) != 1 || got["mainnet"] != "/run/m.socket" {
		t.Errorf("got %v", got)
	}
}

// BenchmarkSubmit is one whole submission as the service does it: dial,
// handshake, submit, accept, close.
func BenchmarkSubmit(b *testing.B) {
	n := nodetest.Start(b, mainnet.Magic)
	s := NewSubmitter(map[string]string{"mainnet": n.Socket}, Options{})
	tx := conwayTx(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Submit(ctx, mainnet, tx.EraID, tx.CBOR); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSubmitReusedConnection submits over one long-lived connection:
// the difference to BenchmarkSubmit is what a connection per request costs.
func BenchmarkSubmitReusedConnection(b *testing.B) {
	n := nodetest.Start(b, mainnet.Magic)
	o, err := ouroboros.NewConnection(ouroboros.WithNetworkMagic(mainnet.Magic),
		ouroboros.WithLocalTxSubmissionConfig(localtxsubmission.NewConfig()))
	if err != nil {
		b.Fatal(err)
	}
	if err := o.Dial("unix", n.Socket); err != nil {
		b.Fatal(err)
	}
	defer o.Close()
	go func() {
		for range o.ErrorChan() {
		}
	}()
	tx := conwayTx(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := o.LocalTxSubmission().Client.SubmitTx(tx.EraID, tx.CBOR); err != nil {
			b.Fatal(err)
		}
	}
}

// After a timeout the client side of the connection is torn down: no
// goroutine is left waiting in SubmitTx (the silent node's own goroutines
// stay until it stops).
func TestSubmitTimeoutLeavesNoClientGoroutine(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	n.Silent()
	s := NewSubmitter(map[string]string{"mainnet": n.Socket}, Options{SubmitTimeout: 50 * time.Millisecond})
	tx := conwayTx(t)
	for range 3 {
		if err := s.Submit(t.Context(), mainnet, tx.EraID, tx.CBOR); !errors.Is(err, ErrTimeout) {
			t.Fatalf("got %v", err)
		}
	}
	var stacks string
	for range 200 {
		buf := make([]byte, 1<<20)
		stacks = string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "localtxsubmission.(*Client).SubmitTx") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("SubmitTx goroutines left behind:\n%s", stacks)
}
