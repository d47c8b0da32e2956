package node

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blinklabs-io/gouroboros/ledger"

	"github.com/syncgate/syncgate/node/nodetest"
)

// vectorMempool is every valid vector as the fake node's mempool, with
// the hashes and sizes the snapshot must report.
func vectorMempool(t testing.TB) (nodetest.Mempool, []string, int) {
	t.Helper()
	m := nodetest.Mempool{Slot: 123_456_789, Capacity: 178_176}
	var hashes []string
	size := 0
	for _, v := range loadVectors(t).Vectors {
		raw, err := hex.DecodeString(v.CborHex)
		if err != nil {
			t.Fatal(err)
		}
		m.Txs = append(m.Txs, nodetest.MempoolTx(raw))
		hashes = append(hashes, v.TxHash)
		size += len(raw)
	}
	return m, hashes, size
}

func TestMempoolSnapshotVectors(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	m, hashes, size := vectorMempool(t)
	n.SetMempool(m)
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{MaxAge: time.Minute})
	before := time.Now()
	s, err := mp.Snapshot(t.Context(), mainnet)
	if err != nil {
		t.Fatal(err)
	}
	if s.Slot != m.Slot || s.CapacityBytes != m.Capacity || s.TxCount != uint32(len(hashes)) || s.Bytes != uint32(size) {
		t.Fatalf("snapshot slot %d capacity %d count %d bytes %d; want %d %d %d %d",
			s.Slot, s.CapacityBytes, s.TxCount, s.Bytes, m.Slot, m.Capacity, len(hashes), size)
	}
	if s.TakenAt.Before(before) || s.TakenAt.After(time.Now()) || s.Network != "mainnet" {
		t.Errorf("taken at %v on %q", s.TakenAt, s.Network)
	}
	if len(s.Txs) != len(hashes) {
		t.Fatalf("%d transactions listed, want %d", len(s.Txs), len(hashes))
	}
	for i, h := range hashes {
		if s.Txs[i].Hash != h || !s.Has(h) {
			t.Errorf("tx %d: hash %s, want %s (in snapshot: %v)", i, s.Txs[i].Hash, h, s.Has(h))
		}
		tx, _ := s.Tx(h)
		// Every vector but Byron's pays at least one output; the inputs
		// are the ones the submit path decodes.
		want, err := DecodeTxHex(loadVectors(t).Vectors[i].CborHex)
		if err != nil {
			t.Fatal(err)
		}
		if len(tx.Inputs) != len(want.Inputs) || len(tx.Inputs) > 0 && tx.Inputs[0] != want.Inputs[0] {
			t.Errorf("tx %s inputs %v, want %v", h, tx.Inputs, want.Inputs)
		}
		if len(tx.Outputs) == 0 || tx.Outputs[0].Address == "" || tx.Outputs[0].Lovelace.Sign() <= 0 {
			t.Errorf("tx %s outputs %+v", h, tx.Outputs)
		}
		if sp, ok := s.SpentBy(tx.Inputs[0]); !ok || sp != h {
			t.Errorf("input %s spent by %q, want %s", tx.Inputs[0], sp, h)
		}
	}
	if s.Has("00" + hashes[0][2:]) {
		t.Error("an unknown hash is in the snapshot")
	}
	if ok, err := mp.Has(t.Context(), mainnet, hashes[3]); !ok || err != nil {
		t.Errorf("Mempool.Has: %v %v", ok, err)
	}
	if a := n.Acquires(); a != 1 {
		t.Errorf("%d acquisitions, want 1 (Has shares the snapshot)", a)
	}
}

// The Conway vector with native assets decodes to the spec's value form:
// hex policy and name, quantities exact.
func TestMempoolOutputsDecoded(t *testing.T) {
	for _, v := range loadVectors(t).Vectors {
		raw, _ := hex.DecodeString(v.CborHex)
		era, _ := ledger.DetermineTransactionType(raw)
		tx, err := decodeMempoolTx(uint8(era), raw)
		if err != nil {
			t.Fatalf("%s: %v", v.ID, err)
		}
		for _, o := range tx.Outputs {
			for _, a := range o.Assets {
				if len(a.Policy) != 56 || len(a.Name) > 64 || a.Quantity.Sign() <= 0 {
					t.Errorf("%s: asset %+v", v.ID, a)
				}
			}
			if o.StakeRaw != nil && (len(o.StakeRaw) != 29 || o.StakeRaw[0]&0xe0 != 0xe0) {
				t.Errorf("%s: stake raw %x", v.ID, o.StakeRaw)
			}
		}
	}
}

func TestMempoolSharedSnapshot(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	m, _, _ := vectorMempool(t)
	n.SetMempool(m)
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{MaxAge: time.Minute})
	const callers = 64
	var wg sync.WaitGroup
	snaps := make([]*Snapshot, callers)
	errs := make([]error, callers)
	for i := range callers {
		wg.Go(func() { snaps[i], errs[i] = mp.Snapshot(t.Context(), mainnet) })
	}
	wg.Wait()
	for i := range callers {
		if errs[i] != nil || snaps[i] != snaps[0] {
			t.Fatalf("caller %d: %v (shared: %v)", i, errs[i], snaps[i] == snaps[0])
		}
	}
	if a := n.Acquires(); a != 1 {
		t.Errorf("%d acquisitions for %d concurrent callers, want 1", a, callers)
	}
	if c := n.Connections(); c != 1 {
		t.Errorf("%d connections, want 1", c)
	}
}

func TestMempoolRefreshEverySecond(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	m, _, _ := vectorMempool(t)
	n.SetMempool(m)
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{})
	first, err := mp.Snapshot(t.Context(), mainnet)
	if err != nil {
		t.Fatal(err)
	}
	m.Slot++
	m.Txs = m.Txs[:3]
	n.SetMempool(m)
	// Within the second: the same snapshot, no new acquisition.
	for range 20 {
		s, err := mp.Snapshot(t.Context(), mainnet)
		if err != nil || s != first {
			t.Fatalf("within a second: %v, shared %v", err, s == first)
		}
	}
	if a := n.Acquires(); a != 1 {
		t.Fatalf("%d acquisitions within a second", a)
	}
	time.Sleep(time.Until(first.TakenAt.Add(DefaultMempoolMaxAge)))
	// After it: the next request starts one refresh (and may still get
	// the old snapshot); soon every request has the new one.
	deadline := time.Now().Add(5 * time.Second)
	for {
		s, err := mp.Snapshot(t.Context(), mainnet)
		if err != nil {
			t.Fatal(err)
		}
		if s != first {
			if s.Slot != m.Slot || s.TxCount != 3 || len(s.Txs) != 3 {
				t.Fatalf("refreshed snapshot slot %d count %d", s.Slot, s.TxCount)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("snapshot never refreshed")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if a := n.Acquires(); a != 2 {
		t.Errorf("%d acquisitions after one refresh, want 2", a)
	}
}

func TestMempoolNodeDown(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	n.Close()
	// The clock stands still: the failure stays remembered (MaxAge).
	at := time.Now()
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{Now: func() time.Time { return at }})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	// Refused at once: unavailable, not the request's deadline.
	if _, err := mp.Snapshot(ctx, mainnet); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err %v, want ErrUnavailable", err)
	}
	// The failure is remembered: the next requests do not dial again,
	// even when something listens at the socket now.
	_ = os.Remove(n.Socket)
	ln, err := net.Listen("unix", n.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var dials atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			dials.Add(1)
			c.Close()
		}
	}()
	for range 100 {
		if _, err := mp.Snapshot(ctx, mainnet); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("err %v", err)
		}
	}
	if d := dials.Load(); d != 0 {
		t.Errorf("100 requests to a remembered dead node dialled %d times", d)
	}

	if _, err := NewMempool(nil, MempoolOptions{}).Snapshot(ctx, mainnet); !errors.Is(err, ErrNotConfigured) {
		t.Errorf("no socket: %v", err)
	}
}

// A node that accepts the connection but never answers the acquisition:
// each request ends at its own deadline.
func TestMempoolSilentNodeBoundedByDeadline(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	n.MempoolSilent()
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{ReadTimeout: time.Second})
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := mp.Snapshot(ctx, mainnet)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err %v, want ErrTimeout", err)
	}
	// Its own deadline ends it, not the read's (a second): bounded by
	// the read timeout, so a loaded machine's delay does not fail it.
	if d := time.Since(start); d >= time.Second {
		t.Errorf("answered after %v, deadline 200ms, read timeout 1s", d)
	}
	// The read itself gives up at ReadTimeout and is remembered as failed.
	time.Sleep(1200 * time.Millisecond)
	ctx2, cancel2 := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel2()
	if _, err := mp.Snapshot(ctx2, mainnet); !errors.Is(err, ErrTimeout) && !errors.Is(err, ErrUnavailable) {
		t.Errorf("after the read timed out: %v", err)
	}
}

// BenchmarkMempoolRead1000 is one whole snapshot read (connect, acquire,
// sizes, 1,000 transactions listed and decoded, release) from the fake
// node: what a refresh costs, once a second per network. The bench's
// mempool repeats a few vectors, so "known" (every transaction decoded by
// the previous read, as when the mempool has not changed) is the listing
// alone, and "new" decodes all 1,000.
func BenchmarkMempoolRead1000(b *testing.B) {
	n := nodetest.Start(b, mainnet.Magic)
	m, _, _ := vectorMempool(b)
	all := m.Txs
	for i := 0; len(m.Txs) < 1000; i++ {
		m.Txs = append(m.Txs, all[i%len(all)])
	}
	n.SetMempool(m)
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{})
	_, known, err := mp.read(b.Context(), mainnet, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		known map[string]MempoolTx
	}{{"new", nil}, {"known", known}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				s, _, err := mp.read(b.Context(), mainnet, c.known)
				if err != nil || s.TxCount != 1000 {
					b.Fatal(err)
				}
			}
		})
	}
}

// Reads that end (normally, or at a silent node's read timeout) leave no
// protocol or decoding goroutine of ours behind.
func TestMempoolReadsLeaveNoGoroutine(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	m, _, _ := vectorMempool(t)
	n.SetMempool(m)
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{ReadTimeout: 100 * time.Millisecond})
	for range 5 {
		if _, _, err := mp.read(t.Context(), mainnet, nil); err != nil {
			t.Fatal(err)
		}
	}
	n.MempoolSilent()
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if _, _, err := mp.read(ctx, mainnet, nil); !errors.Is(err, ErrTimeout) {
		t.Fatalf("silent node: %v", err)
	}
	var stacks string
	for range 200 {
		buf := make([]byte, 1<<20)
		stacks = string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "node.decodeAll") && !strings.Contains(stacks, "node.(*monitorClient)") &&
			!strings.Contains(stacks, "node.newMonitorClient") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("goroutines left behind:\n%s", stacks)
}

// A node that keeps what it accepts: the submitted transaction is in the
// next snapshot (MaxAge and MaxStale of a nanosecond: every read is new),
// submitting it again is refused with BadInputsUTxO naming its first
// input, and once a block takes the mempool the snapshot is empty.
func TestMempoolKeepsAccepted(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	n.AcceptIntoMempool()
	sub := NewSubmitter(map[string]string{"mainnet": n.Socket}, Options{})
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{MaxAge: time.Nanosecond, MaxStale: time.Nanosecond})
	tx := conwayTx(t)
	has := func() bool {
		t.Helper()
		in, err := mp.Has(t.Context(), mainnet, tx.Hash)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	if has() {
		t.Fatal("in the mempool before its submission")
	}
	if err := sub.Submit(t.Context(), mainnet, tx.EraID, tx.CBOR); err != nil {
		t.Fatal(err)
	}
	if !has() {
		t.Fatal("accepted, not in the next snapshot")
	}
	var rej *RejectedError
	err := sub.Submit(t.Context(), mainnet, tx.EraID, tx.CBOR)
	if !errors.As(err, &rej) || !strings.Contains(rej.Reason, "BadInputsUTxO") || !strings.Contains(rej.Reason, tx.Inputs[0].TxHash) {
		t.Fatalf("submitted again: %v", err)
	}
	if got := n.TakeMempool(); len(got) != 1 || !bytes.Equal(got[0], tx.CBOR) {
		t.Fatalf("taken: %d transactions", len(got))
	}
	if has() {
		t.Fatal("in the mempool after a block took it")
	}
	n.AddToMempool(tx.CBOR)
	if !has() {
		t.Fatal("added back, not in the snapshot")
	}
}

// The snapshot's output indexes hold exactly the outputs a scan of its
// transactions finds, in the node's order.
func TestMempoolOutputIndexes(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	m, _, _ := vectorMempool(t)
	m.Txs = append(m.Txs, m.Txs...) // the same outputs twice: order across transactions counts
	n.SetMempool(m)
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{})
	s, err := mp.Snapshot(t.Context(), mainnet)
	if err != nil {
		t.Fatal(err)
	}
	scan := func(match func(Output) bool) []OutputRef {
		var out []OutputRef
		for i, tx := range s.Txs {
			for j, o := range tx.Outputs {
				if match(o) {
					out = append(out, OutputRef{Tx: i, Out: j})
				}
			}
		}
		return out
	}
	same := func(what string, got, want []OutputRef) {
		t.Helper()
		if len(got) != len(want) || len(want) == 0 {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: %v, want %v", what, got, want)
			}
		}
	}
	stakes := 0
	for _, tx := range s.Txs {
		for _, o := range tx.Outputs {
			same("address "+o.Address, s.OutputsToAddress(o.Address), scan(func(x Output) bool { return x.Address == o.Address }))
			if o.PaymentCred != nil {
				same("credential", s.OutputsToCredential(o.PaymentCred), scan(func(x Output) bool { return bytes.Equal(x.PaymentCred, o.PaymentCred) }))
			}
			if o.StakeRaw != nil {
				stakes++
				same("stake", s.OutputsToStake(o.StakeRaw), scan(func(x Output) bool { return bytes.Equal(x.StakeRaw, o.StakeRaw) }))
				// Two forms of the key (as cardano.StakeKey.Candidates
				// gives): the union, in order, once each.
				other := append([]byte{o.StakeRaw[0] ^ 0x01}, o.StakeRaw[1:]...)
				same("stake candidates", s.OutputsToStake(o.StakeRaw, other, o.StakeRaw), scan(func(x Output) bool { return bytes.Equal(x.StakeRaw, o.StakeRaw) }))
			}
			if h, got := s.Output(s.OutputsToAddress(o.Address)[0]); h == "" || got.Address != o.Address {
				t.Fatalf("Output: %s %+v", h, got)
			}
		}
	}
	if stakes == 0 {
		t.Fatal("no vector output has a stake address")
	}
	if got := s.OutputsToAddress("addr1unknown"); got != nil {
		t.Errorf("unknown address: %v", got)
	}
}

// Each read is a new generation; the transactions a read already decoded
// are taken from it (the same values), and a changed mempool is read as
// it is now.
func TestMempoolGenerationsReuseDecoded(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	m, hashes, _ := vectorMempool(t)
	n.SetMempool(m)
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{MaxAge: time.Nanosecond, MaxStale: time.Nanosecond})
	first, err := mp.Snapshot(t.Context(), mainnet)
	if err != nil {
		t.Fatal(err)
	}
	m.Txs = m.Txs[1:]
	n.SetMempool(m)
	var second *Snapshot
	for second == nil || second == first {
		if second, err = mp.Snapshot(t.Context(), mainnet); err != nil {
			t.Fatal(err)
		}
	}
	if first.Gen != 1 || second.Gen != 2 {
		t.Fatalf("generations %d, %d; want 1, 2", first.Gen, second.Gen)
	}
	if len(second.Txs) != len(hashes)-1 || second.Has(hashes[0]) {
		t.Fatalf("second read: %d transactions, has the removed one: %v", len(second.Txs), second.Has(hashes[0]))
	}
	for i, tx := range second.Txs {
		was := first.Txs[i+1]
		if tx.Hash != was.Hash || len(tx.Outputs) != len(was.Outputs) || len(tx.Outputs) > 0 && &tx.Outputs[0] != &was.Outputs[0] {
			t.Errorf("tx %s decoded again, not reused", tx.Hash)
		}
	}
}

// The next read starts MaxAge after the previous one ended, not after it
// began: with reads as long as MaxAge, a snapshot is still shared right
// after its read. The clock moves 600 ms at each reading of it: the first
// request at 0.6 s, its acquisition at 1.2 s, the read's end at 1.8 s; the
// next request, at 2.4 s, is within a second of the end (and past a second
// from the acquisition); the one after, at 3.0 s, is not.
func TestMempoolRefreshAfterReadEnds(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	m, _, _ := vectorMempool(t)
	n.SetMempool(m)
	var mu sync.Mutex
	var clock time.Time
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(600 * time.Millisecond)
		return clock
	}
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{Now: now, MaxAge: time.Second, MaxStale: time.Minute})
	first, err := mp.Snapshot(t.Context(), mainnet)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := mp.Snapshot(t.Context(), mainnet); err != nil || s != first {
		t.Fatalf("600 ms after the read ended: %v, shared %v", err, s == first)
	}
	if a := n.Acquires(); a != 1 {
		t.Fatalf("%d acquisitions, want 1", a)
	}
	// 3.0 s: past a second after the end, a new read starts.
	if _, err := mp.Snapshot(t.Context(), mainnet); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for n.Acquires() != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d acquisitions, want 2", n.Acquires())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestMempoolChangedWaitsForNewSnapshot: once this instance had a
// transaction accepted, the snapshot taken before is not shared any more
// (however young): the next request waits for one taken after, which
// holds the transaction.
func TestMempoolChangedWaitsForNewSnapshot(t *testing.T) {
	n := nodetest.Start(t, mainnet.Magic)
	m, _, _ := vectorMempool(t)
	all := m.Txs
	m.Txs = all[:2]
	n.SetMempool(m)
	mp := NewMempool(map[string]string{"mainnet": n.Socket}, MempoolOptions{MaxAge: time.Minute})
	first, err := mp.Snapshot(t.Context(), mainnet)
	if err != nil || first.TxCount != 2 {
		t.Fatalf("first snapshot: %v", err)
	}
	m.Txs = all[:3]
	n.SetMempool(m)
	if s, _ := mp.Snapshot(t.Context(), mainnet); s != first {
		t.Fatal("a young snapshot was not shared before any change")
	}
	time.Sleep(time.Millisecond) // the change comes after the snapshot was taken
	mp.Changed(mainnet)
	s, err := mp.Snapshot(t.Context(), mainnet)
	if err != nil || s == first || s.TxCount != 3 {
		t.Fatalf("after Changed: %v, new %v", err, s != first)
	}
	if again, _ := mp.Snapshot(t.Context(), mainnet); again != s {
		t.Fatal("the new snapshot is not shared")
	}
	if a := n.Acquires(); a != 2 {
		t.Errorf("%d acquisitions, want 2", a)
	}
	var never *Mempool
	never.Changed(mainnet) // no mempool configured: nothing to mark
}
