package node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	ouroboros "github.com/blinklabs-io/gouroboros"
	"github.com/blinklabs-io/gouroboros/protocol"
	"github.com/blinklabs-io/gouroboros/protocol/localtxmonitor"

	"github.com/syncgate/syncgate/internal/cardano"
)

// Snapshot is one acquired view of a node's mempool. It never changes
// once made: concurrent readers share it.
type Snapshot struct {
	Network string
	// Slot is the slot number the node acquired the snapshot at
	// (LocalTxMonitor MsgAcquired): the slot of the block the mempool's
	// transactions are validated for, usually one past the node's tip.
	Slot uint64
	// TxCount, Bytes and CapacityBytes are the node's GetSizes answer.
	TxCount       uint32
	Bytes         uint32
	CapacityBytes uint32
	// TakenAt is when the snapshot was acquired.
	TakenAt time.Time
	// Gen numbers the network's snapshots of this reader, from 1, one up
	// per read: an answer keyed by it is of this very snapshot.
	Gen uint64
	// Txs are the snapshot's transactions in the node's order.
	Txs []MempoolTx

	byHash map[string]int
	spent  map[Input]string
	// Outputs by address, stake address (hash_raw) and payment credential,
	// built once per snapshot so a ?pending= request is map lookups.
	byAddress, byStake, byCred map[string][]OutputRef
}

// OutputRef names one output of a snapshot: Txs[Tx].Outputs[Out].
type OutputRef struct{ Tx, Out int }

// Output returns the transaction id and the output r names.
func (s *Snapshot) Output(r OutputRef) (string, Output) {
	tx := &s.Txs[r.Tx]
	return tx.Hash, tx.Outputs[r.Out]
}

// OutputsToAddress are the snapshot's outputs paying addr (bech32 or
// base58, as Output.Address), in the node's order.
func (s *Snapshot) OutputsToAddress(addr string) []OutputRef { return s.byAddress[addr] }

// OutputsToStake are the outputs delegated to any of the stake addresses
// (hash_raw forms), in the node's order.
func (s *Snapshot) OutputsToStake(raws ...[]byte) []OutputRef {
	if len(raws) == 1 {
		return s.byStake[string(raws[0])]
	}
	var out []OutputRef
	for _, r := range raws {
		out = append(out, s.byStake[string(r)]...)
	}
	slices.SortFunc(out, func(a, b OutputRef) int {
		if a.Tx != b.Tx {
			return a.Tx - b.Tx
		}
		return a.Out - b.Out
	})
	return slices.Compact(out)
}

// OutputsToCredential are the outputs whose payment credential is cred.
func (s *Snapshot) OutputsToCredential(cred []byte) []OutputRef { return s.byCred[string(cred)] }

// Has reports whether the transaction with this id (64 lower-case hex) is
// in the snapshot.
func (s *Snapshot) Has(hash string) bool {
	_, ok := s.byHash[hash]
	return ok
}

// Tx returns the snapshot's transaction with this id.
func (s *Snapshot) Tx(hash string) (MempoolTx, bool) {
	i, ok := s.byHash[hash]
	if !ok {
		return MempoolTx{}, false
	}
	return s.Txs[i], true
}

// SpentBy returns the id of the mempool transaction spending in, if any.
func (s *Snapshot) SpentBy(in Input) (string, bool) {
	h, ok := s.spent[in]
	return h, ok
}

func newSnapshot(network string, slot uint64, sizes localtxmonitor.MsgReplyGetSizesResult, at time.Time, txs []MempoolTx) *Snapshot {
	s := &Snapshot{Network: network, Slot: slot, TxCount: sizes.NumberOfTxs, Bytes: sizes.Size,
		CapacityBytes: sizes.Capacity, TakenAt: at, Txs: txs,
		byHash: make(map[string]int, len(txs)), spent: map[Input]string{},
		byAddress: map[string][]OutputRef{}, byStake: map[string][]OutputRef{}, byCred: map[string][]OutputRef{}}
	for i, tx := range txs {
		s.byHash[tx.Hash] = i
		for _, in := range tx.Inputs {
			s.spent[in] = tx.Hash
		}
		for j, o := range tx.Outputs {
			r := OutputRef{Tx: i, Out: j}
			s.byAddress[o.Address] = append(s.byAddress[o.Address], r)
			if o.StakeRaw != nil {
				s.byStake[string(o.StakeRaw)] = append(s.byStake[string(o.StakeRaw)], r)
			}
			if o.PaymentCred != nil {
				s.byCred[string(o.PaymentCred)] = append(s.byCred[string(o.PaymentCred)], r)
			}
		}
	}
	return s
}

// Mempool reading defaults.
const (
	// DefaultMempoolMaxAge: a snapshot is shared for this long after its
	// read ended before the next request starts a new one.
	DefaultMempoolMaxAge = time.Second
	// DefaultMempoolMaxStale: while a newer snapshot is being taken, a
	// request is answered at once from one at most this old.
	DefaultMempoolMaxStale = 5 * time.Second
	// DefaultMempoolReadTimeout bounds one whole snapshot (dial, handshake,
	// acquire, listing), whoever waits for it.
	DefaultMempoolReadTimeout = 10 * time.Second
)

// MempoolOptions tunes a Mempool; zero values mean the defaults.
type MempoolOptions struct {
	DialTimeout      time.Duration
	HandshakeTimeout time.Duration
	ReadTimeout      time.Duration
	MaxAge           time.Duration
	MaxStale         time.Duration
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Mempool reads each network's node mempool over node-to-client
// LocalTxMonitor. One snapshot is shared by every request until MaxAge
// after its read ended (not after it began: a 1,000-transaction mempool
// takes about a second to list, and reads back to back would keep the node
// and the server busy without pause); at most one read per network runs at
// a time (single flight),
// and a request waits for it no longer than its own deadline. A failed
// read is remembered for MaxAge too, so a dead node costs one dial a
// second, not one per request. Safe for concurrent use.
type Mempool struct {
	sockets map[string]string
	opts    MempoolOptions
	mu      sync.Mutex
	nets    map[string]*mempoolState
}

type mempoolState struct {
	cur      *Snapshot
	curAt    time.Time // when cur's read ended
	err      error
	errAt    time.Time
	inflight chan struct{} // closed when the running read ends; nil: none
	gen      uint64
	// changedAt is when this instance last had a transaction accepted
	// (Changed): a snapshot acquired before it is not shared any more.
	changedAt time.Time
	// decoded are cur's transactions by era and CBOR: the next read
	// decodes only the ones it has not seen (a transaction stays in the
	// mempool for many reads).
	decoded map[string]MempoolTx
}

// NewMempool returns a Mempool over the given node sockets (network name →
// unix path or host:port, as for NewSubmitter).
func NewMempool(sockets map[string]string, opts MempoolOptions) *Mempool {
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = DefaultDialTimeout
	}
	if opts.HandshakeTimeout <= 0 {
		opts.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = DefaultMempoolReadTimeout
	}
	if opts.MaxAge <= 0 {
		opts.MaxAge = DefaultMempoolMaxAge
	}
	if opts.MaxStale < opts.MaxAge {
		opts.MaxStale = max(DefaultMempoolMaxStale, opts.MaxAge)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	m := &Mempool{sockets: map[string]string{}, opts: opts, nets: map[string]*mempoolState{}}
	for name, addr := range NewSubmitter(sockets, Options{}).sockets {
		m.sockets[name] = addr
	}
	return m
}

// Snapshot returns network's current mempool snapshot: the shared one when
// its read ended less than MaxAge ago, else a new one (an older one up to MaxStale
// while the new one is being taken). Errors wrap ErrNotConfigured,
// ErrUnavailable or ErrTimeout; a ctx ending first returns its cause.
func (m *Mempool) Snapshot(ctx context.Context, network cardano.Network) (*Snapshot, error) {
	if m == nil || m.sockets[network.Name] == "" {
		return nil, fmt.Errorf("%w for %s", ErrNotConfigured, network.Name)
	}
	m.mu.Lock()
	st := m.nets[network.Name]
	if st == nil {
		st = &mempoolState{}
		m.nets[network.Name] = st
	}
	for again := true; ; again = false {
		s, wait, err := m.shared(network, st)
		if s != nil || err != nil {
			m.mu.Unlock()
			return s, err
		}
		m.mu.Unlock()
		select {
		case <-wait:
			// The read waited for is the answer, however old it is by
			// now: asking again could wait for ever when reads take
			// longer than MaxAge. Only a read acquired before a change
			// this instance made is read once more.
			m.mu.Lock()
			s, err := st.cur, st.err
			if err == nil && again && s.TakenAt.Before(st.changedAt) {
				continue
			}
			m.mu.Unlock()
			if err != nil {
				return nil, err
			}
			return s, nil
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.Canceled) {
				return nil, fmt.Errorf("node: %s mempool: %w", network.Name, context.Canceled)
			}
			return nil, fmt.Errorf("%w: %s mempool", ErrTimeout, network.Name)
		}
	}
}

// shared is the snapshot (or the error) a request may take now, or the
// read to wait for (started here when none runs). Called with m.mu held.
func (m *Mempool) shared(network cardano.Network, st *mempoolState) (*Snapshot, chan struct{}, error) {
	now := m.opts.Now()
	current := st.cur != nil && !st.cur.TakenAt.Before(st.changedAt)
	if current && now.Sub(st.curAt) < m.opts.MaxAge {
		return st.cur, nil, nil
	}
	if st.err != nil && now.Sub(st.errAt) < m.opts.MaxAge {
		return nil, nil, st.err
	}
	if st.inflight == nil {
		st.inflight = make(chan struct{})
		go m.refresh(network, st, st.inflight)
	}
	if current && now.Sub(st.cur.TakenAt) < m.opts.MaxStale {
		return st.cur, nil, nil
	}
	return nil, st.inflight, nil
}

// Changed says that the node took a transaction from this instance just
// now (a submission it accepted): the snapshot shared so far lacks it, so
// the next request waits for one acquired after this (a client that
// submits and then asks the mempool sees its transaction there).
func (m *Mempool) Changed(network cardano.Network) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if st := m.nets[network.Name]; st != nil {
		st.changedAt = m.opts.Now()
	}
}

// Has reports whether the transaction with this id (64 lower-case hex) is
// in network's current snapshot (Snapshot's sharing and errors).
func (m *Mempool) Has(ctx context.Context, network cardano.Network, hash string) (bool, error) {
	s, err := m.Snapshot(ctx, network)
	if err != nil {
		return false, err
	}
	return s.Has(hash), nil
}

// refresh takes a new snapshot for everyone waiting on done. It runs on
// its own context: the request that started it may leave, the others
// still want the answer.
func (m *Mempool) refresh(network cardano.Network, st *mempoolState, done chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), m.opts.ReadTimeout)
	defer cancel()
	m.mu.Lock()
	known := st.decoded
	m.mu.Unlock()
	s, decoded, err := m.read(ctx, network, known)
	m.mu.Lock()
	if err != nil {
		st.err, st.errAt = err, m.opts.Now()
	} else {
		st.gen++
		s.Gen = st.gen
		st.cur, st.curAt, st.err, st.decoded = s, m.opts.Now(), nil, decoded
	}
	st.inflight = nil
	m.mu.Unlock()
	close(done)
}

// read connects to the node, acquires a snapshot, reads its sizes and
// every transaction, releases it and says goodbye. Transactions in known
// (by era and CBOR) are taken from there, not decoded again; decoded is
// the new snapshot's transactions so keyed.
func (m *Mempool) read(ctx context.Context, network cardano.Network, known map[string]MempoolTx) (*Snapshot, map[string]MempoolTx, error) {
	addr := m.sockets[network.Name]
	conn, err := dialNode(ctx, network, addr, m.opts.DialTimeout, "mempool dial")
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	// Closing the socket is what bounds the handshake and every exchange.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	errCh := make(chan error, 10)
	hsCtx, hsCancel := context.WithTimeout(ctx, m.opts.HandshakeTimeout)
	stopHs := context.AfterFunc(hsCtx, func() { conn.Close() })
	o, err := ouroboros.NewConnection(
		ouroboros.WithConnection(conn),
		ouroboros.WithNetworkMagic(network.Magic),
		ouroboros.WithErrorChan(errCh),
		// Only LocalTxMonitor runs on this connection, with our own client
		// (monitorClient): gouroboros' client keeps the acquired slot to
		// itself.
		ouroboros.WithDelayProtocolStart(true),
	)
	hsExpired := !stopHs()
	hsCancel()
	if err != nil || hsExpired {
		if o != nil {
			o.Close()
		}
		if hsExpired {
			return nil, nil, expired(hsCtx, network, "mempool handshake")
		}
		return nil, nil, fmt.Errorf("%w: %s node %s: handshake: %v", ErrUnavailable, network.Name, addr, err)
	}
	defer o.Close()

	c := newMonitorClient(o, errCh)
	fail := func(phase string, err error) (*Snapshot, map[string]MempoolTx, error) {
		if ctx.Err() != nil {
			return nil, nil, expired(ctx, network, "mempool "+phase)
		}
		return nil, nil, fmt.Errorf("%w: %s node %s: mempool %s: %v", ErrUnavailable, network.Name, addr, phase, err)
	}
	reply, err := c.request(ctx, localtxmonitor.NewMsgAcquire())
	if err != nil {
		return fail("acquire", err)
	}
	at := m.opts.Now()
	acquired, ok := reply.(*localtxmonitor.MsgAcquired)
	if !ok {
		return fail("acquire", fmt.Errorf("unexpected %T", reply))
	}
	if reply, err = c.request(ctx, localtxmonitor.NewMsgGetSizes()); err != nil {
		return fail("sizes", err)
	}
	sizes, ok := reply.(*localtxmonitor.MsgReplyGetSizes)
	if !ok {
		return fail("sizes", fmt.Errorf("unexpected %T", reply))
	}
	// Transactions are decoded on another goroutine while the next one is
	// asked for: a listing is one round trip per transaction, and decoding
	// them in turn doubled a 1,000-transaction read.
	raws := make(chan localtxmonitor.MsgReplyNextTxTransaction, 64)
	decoded := make(chan decodedTxs, 1)
	go decodeAll(raws, int(sizes.Result.NumberOfTxs), known, decoded)
	for {
		reply, err = c.request(ctx, localtxmonitor.NewMsgNextTx())
		if err != nil {
			close(raws)
			return fail("next tx", err)
		}
		next, ok := reply.(*localtxmonitor.MsgReplyNextTx)
		if !ok {
			close(raws)
			return fail("next tx", fmt.Errorf("unexpected %T", reply))
		}
		if next.Transaction.Tx == nil {
			break
		}
		raws <- next.Transaction
	}
	close(raws)
	d := <-decoded
	if d.err != nil {
		return fail("decode", d.err)
	}
	txs := d.txs
	// Release then Done: the node frees the snapshot at once, as
	// cardano-cli's query tx-mempool does.
	_ = c.proto.SendMessage(localtxmonitor.NewMsgRelease())
	_ = c.proto.SendMessage(localtxmonitor.NewMsgDone())
	return newSnapshot(network.Name, acquired.SlotNo, sizes.Result, at, txs), d.byRaw, nil
}

type decodedTxs struct {
	txs   []MempoolTx
	byRaw map[string]MempoolTx
	err   error
}

// decodeAll decodes the listed transactions in order until raws closes,
// taking the ones in known (by era and CBOR) from there; after a failure
// it only drains raws.
func decodeAll(raws <-chan localtxmonitor.MsgReplyNextTxTransaction, n int, known map[string]MempoolTx, out chan<- decodedTxs) {
	d := decodedTxs{txs: make([]MempoolTx, 0, n), byRaw: make(map[string]MempoolTx, n)}
	for r := range raws {
		if d.err != nil {
			continue
		}
		key := string([]byte{r.EraId}) + string(r.Tx)
		tx, ok := known[key]
		if !ok {
			var err error
			if tx, err = decodeMempoolTx(r.EraId, r.Tx); err != nil {
				d.err = err
				continue
			}
		}
		d.txs = append(d.txs, tx)
		d.byRaw[key] = tx
	}
	out <- d
}

// monitorClient is a LocalTxMonitor client built from gouroboros' own
// protocol machinery, state map and messages: one request, one reply.
type monitorClient struct {
	proto   *protocol.Protocol
	replies chan protocol.Message
	errCh   chan error
}

func newMonitorClient(o *ouroboros.Connection, errCh chan error) *monitorClient {
	c := &monitorClient{replies: make(chan protocol.Message, 1), errCh: errCh}
	c.proto = protocol.New(protocol.ProtocolConfig{
		Name:       localtxmonitor.ProtocolName,
		ProtocolId: localtxmonitor.ProtocolId,
		Muxer:      o.Muxer(),
		ErrorChan:  errCh,
		Mode:       protocol.ProtocolModeNodeToClient,
		Role:       protocol.ProtocolRoleClient,
		MessageHandlerFunc: func(msg protocol.Message) error {
			select {
			case c.replies <- msg:
				return nil
			case <-c.proto.DoneChan():
				return protocol.ErrProtocolShuttingDown
			}
		},
		MessageFromCborFunc: localtxmonitor.NewMsgFromCbor,
		StateMap:            localtxmonitor.StateMap,
		InitialState:        protocol.NewState(1, "Idle"),
	})
	c.proto.Start()
	return c
}

// request sends msg and waits for the node's reply.
func (c *monitorClient) request(ctx context.Context, msg protocol.Message) (protocol.Message, error) {
	if err := c.proto.SendMessage(msg); err != nil {
		return nil, err
	}
	select {
	case r := <-c.replies:
		return r, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case err, ok := <-c.errCh:
		if !ok || err == nil {
			err = errors.New("connection closed")
		}
		return nil, err
	case <-c.proto.DoneChan():
		return nil, protocol.ErrProtocolShuttingDown
	}
}
