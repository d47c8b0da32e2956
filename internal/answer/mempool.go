package answer

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/platform/bounded"
	"github.com/syncgate/syncgate/node"
)

// ErrMempoolTxNotFound: the transaction is not in the node's mempool.
var ErrMempoolTxNotFound = errors.New("answer: transaction not in the mempool")

// Mempool is GET /v1/mempool's data.
type Mempool struct {
	TxCount       uint32     `json:"tx_count"`
	Bytes         uint32     `json:"bytes"`
	CapacityBytes uint32     `json:"capacity_bytes"`
	Tip           MempoolTip `json:"tip"`
	TakenAt       string     `json:"taken_at"`
}

// MempoolTip is the node's tip the snapshot's transactions were validated
// against. LocalTxMonitor reports only the slot after it (the slot of the
// block they would go in next: cardano-node ticks its tip's ledger state
// one slot on), so Slot is that slot minus one and Hash is db-sync's block
// at Slot, null when db-sync holds no block there (it has not written the
// node's tip yet) or cannot say in time.
type MempoolTip struct {
	Slot uint64  `json:"slot"`
	Hash *string `json:"hash"`
}

// MempoolTx is GET /v1/mempool/:hash's data.
type MempoolTx struct {
	Hash    string            `json:"tx_hash"`
	Size    int               `json:"size"`
	Inputs  []MempoolTxInput  `json:"inputs"`
	Outputs []MempoolTxOutput `json:"outputs"`
	TakenAt string            `json:"taken_at"`
}

// MempoolTxInput is a spent output reference.
type MempoolTxInput struct {
	TxHash      string `json:"tx_hash"`
	OutputIndex uint32 `json:"output_index"`
}

// MempoolTxOutput is an output the transaction creates.
type MempoolTxOutput struct {
	OutputIndex uint32     `json:"output_index"`
	Address     string     `json:"address"`
	Value       wire.Value `json:"value"`
	DatumHash   *string    `json:"datum_hash"`
}

// mempoolSnapshot is the network's shared snapshot; without a reader
// configured it is node.ErrNotConfigured.
func (s *Service) mempoolSnapshot(ctx context.Context, network cardano.Network) (*node.Snapshot, error) {
	return s.opts.Mempool.Snapshot(ctx, network)
}

// MempoolSnapshot is the network's shared mempool snapshot, for the
// dialects' mempool routes (errors as node.Mempool.Snapshot's).
func (s *Service) MempoolSnapshot(ctx context.Context, network cardano.Network) (*node.Snapshot, error) {
	return s.mempoolSnapshot(ctx, network)
}

// takenAt is when the snapshot was taken, to the millisecond: snapshots
// are a second apart, so seconds alone would not tell two apart.
func takenAt(snap *node.Snapshot) string {
	return snap.TakenAt.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// MempoolStatus answers GET /v1/mempool for db's network: the envelope as
// sent, encoded once per snapshot.
func (s *Service) MempoolStatus(ctx context.Context, db *dbsync.DB) ([]byte, error) {
	snap, err := s.mempoolSnapshot(ctx, db.Network)
	if err != nil {
		return nil, err
	}
	if m, ok := s.mempoolTips.Load(db.Network.Name); ok && m.(mempoolTipMemo).snap == snap && m.(mempoolTipMemo).body != nil {
		return m.(mempoolTipMemo).body, nil
	}
	tip := s.mempoolTip(ctx, db, snap)
	body, err := wire.Encode(ok(Mempool{TxCount: snap.TxCount, Bytes: snap.Bytes, CapacityBytes: snap.CapacityBytes,
		Tip: tip, TakenAt: takenAt(snap)}))
	if err != nil {
		return nil, err
	}
	s.mempoolTips.Store(db.Network.Name, mempoolTipMemo{snap: snap, tip: tip, body: body})
	return body, nil
}

// mempoolTipTimeout bounds the tip's db-sync lookup: the mempool answers
// without the hash rather than wait for a slow database.
const mempoolTipTimeout = time.Second

// mempoolTip is the node's tip of snap, its hash from db, looked up once
// per snapshot (the answer is as old as the snapshot, never older; a
// db-sync that cannot say leaves it null until the next snapshot, so a
// slow database costs one lookup a snapshot, not one a request).
func (s *Service) mempoolTip(ctx context.Context, db *dbsync.DB, snap *node.Snapshot) MempoolTip {
	if m, ok := s.mempoolTips.Load(db.Network.Name); ok && m.(mempoolTipMemo).snap == snap {
		return m.(mempoolTipMemo).tip
	}
	var tip MempoolTip
	if snap.Slot > 0 { // 0: the node is at the chain's origin
		tip.Slot = snap.Slot - 1
		ctx, cancel := context.WithTimeout(ctx, mempoolTipTimeout)
		defer cancel()
		if hash, err := db.BlockHashAt(ctx, int64(tip.Slot)); err == nil {
			tip.Hash = &hash
		}
	}
	s.mempoolTips.Store(db.Network.Name, mempoolTipMemo{snap: snap, tip: tip})
	return tip
}

type mempoolTipMemo struct {
	snap *node.Snapshot
	tip  MempoolTip
	body []byte // the GET /v1/mempool answer, once encoded
}

// MempoolTransaction answers GET /v1/mempool/:hash, or ErrMempoolTxNotFound.
func (s *Service) MempoolTransaction(ctx context.Context, network cardano.Network, hash cardano.TxHash) (MempoolTx, error) {
	snap, err := s.mempoolSnapshot(ctx, network)
	if err != nil {
		return MempoolTx{}, err
	}
	tx, ok := snap.Tx(hash.String())
	if !ok {
		return MempoolTx{}, ErrMempoolTxNotFound
	}
	out := MempoolTx{Hash: tx.Hash, Size: tx.Size, Inputs: make([]MempoolTxInput, len(tx.Inputs)),
		Outputs: make([]MempoolTxOutput, len(tx.Outputs)), TakenAt: takenAt(snap)}
	for i, in := range tx.Inputs {
		out.Inputs[i] = MempoolTxInput{TxHash: in.TxHash, OutputIndex: in.Index}
	}
	for i, o := range tx.Outputs {
		out.Outputs[i] = MempoolTxOutput{OutputIndex: o.Index, Address: o.Address,
			Value: wire.ValueOf(valueOf(o), false), DatumHash: o.DatumHash}
	}
	return out, nil
}

// PendingMode is the ?pending= of the UTxO and balance routes.
type PendingMode int

const (
	// PendingOff: the confirmed answer, exactly as without the parameter.
	PendingOff PendingMode = iota
	// PendingMark (pending=true): outputs a mempool transaction spends are
	// marked pending_spent; outputs mempool transactions create are added,
	// marked pending. A balance is the one after the mempool.
	PendingMark
	// PendingExclude (pending=exclude): outputs a mempool transaction
	// spends are left out, nothing is added.
	PendingExclude
)

// pendingOutputs are the outputs of a snapshot's transactions that belong
// to the address, stake key or credential asked about (the snapshot's
// indexes: a map lookup, not a scan of the mempool).
type pendingOutputs func(*node.Snapshot) []node.OutputRef

func toAddress(addr cardano.Address) pendingOutputs {
	return func(s *node.Snapshot) []node.OutputRef { return s.OutputsToAddress(addr.String()) }
}

func toStake(key cardano.StakeKey) pendingOutputs {
	return func(s *node.Snapshot) []node.OutputRef { return s.OutputsToStake(key.Candidates()...) }
}

func toCredential(cred cardano.PaymentCredential) pendingOutputs {
	return func(s *node.Snapshot) []node.OutputRef { return s.OutputsToCredential(cred[:]) }
}

// PendingUTxOsByAddress answers GET /v1/utxos/address/:address?pending=…
func (s *Service) PendingUTxOsByAddress(r Request, db *dbsync.DB, addr cardano.Address, mode PendingMode) error {
	return s.pendingUTxOs(r, db, mode, "address", addr.String(), toAddress(addr), func(ctx context.Context, db *dbsync.DB, fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByAddress(ctx, addr, fn)
	})
}

// PendingUTxOsByStake answers GET /v1/utxos/stake/:stakeKey?pending=…
func (s *Service) PendingUTxOsByStake(r Request, db *dbsync.DB, key cardano.StakeKey, mode PendingMode) error {
	return s.pendingUTxOs(r, db, mode, "stake", stakeKeyID(key), toStake(key), func(ctx context.Context, db *dbsync.DB, fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByStake(ctx, key, fn)
	})
}

// PendingUTxOsByCredential answers GET /v1/utxos/credential/:credential?pending=…
func (s *Service) PendingUTxOsByCredential(r Request, db *dbsync.DB, cred cardano.PaymentCredential, mode PendingMode) error {
	return s.pendingUTxOs(r, db, mode, "credential", cred.Hex(), toCredential(cred), func(ctx context.Context, db *dbsync.DB, fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByCredential(ctx, cred, fn)
	})
}

// Pending UTxO answers kept by each instance (pendingUTxOs).
const (
	// pendingLocalBytes bounds them all; an answer over a quarter of it
	// is not kept.
	pendingLocalBytes = 16 << 20
	// pendingAnswerTTL: a kept answer is dropped this long after it was
	// made even when its snapshot is still the current one.
	pendingAnswerTTL = 10 * time.Second
)

// pendingAnswer is a ?pending= UTxO answer as sent, made from snap.
type pendingAnswer struct {
	snap    *node.Snapshot
	body    []byte
	expires time.Time
}

func newPendingAnswers() *bounded.Map[string, pendingAnswer] {
	return bounded.New[string](pendingLocalBytes, func(a pendingAnswer) bool { return !time.Now().Before(a.expires) })
}

// pendingUTxOs streams the confirmed list read from the database with the
// snapshot's marks, then the outputs the mempool creates. The answer is a
// function of the tip and the snapshot, so it is kept under both (in
// process only: snapshots are this instance's) and a request for the same
// list within the same snapshot and tip is answered from it; the mempool
// moves within a block, so the tip-keyed list cache alone cannot answer.
// The snapshot is taken first, so a node that cannot answer fails the
// request before any byte is written.
func (s *Service) pendingUTxOs(c Request, db *dbsync.DB, mode PendingMode, kind, id string, outputs pendingOutputs,
	each func(context.Context, *dbsync.DB, func([]dbsync.UTxO) error) error) error {
	snap, err := s.mempoolSnapshot(c.Ctx, db.Network)
	if err != nil {
		return err
	}
	ctx := c.Ctx
	// Read at the request's tip (readAt): its min_slot is waited for and
	// its headers name the tip the confirmed outputs were read at.
	db, tip, err := s.readAt(ctx, db)
	if waitFailed(ctx, err) {
		return err
	}
	key := ""
	if err == nil {
		key = db.Network.Name + ":" + tip.BlockHash + ":" + strconv.FormatUint(snap.Gen, 10) + ":" +
			strconv.Itoa(int(mode)) + ":" + kind + ":" + id
		if a, ok := s.pendingAnswers.Get(key); ok && a.snap == snap {
			c.W.Header().Set("Content-Type", wire.ContentType)
			c.W.WriteHeader(http.StatusOK)
			_, err := c.W.Write(a.body)
			return err
		}
	}
	// kept is the answer so far while it may still be kept.
	var kept []byte
	keep := key != ""
	var buf []byte
	n := 0
	started := false
	start := func() {
		started = true
		c.W.Header().Set("Content-Type", wire.ContentType)
		c.W.WriteHeader(http.StatusOK)
		buf = append(buf, `{"success":true,"data":[`...)
	}
	write := func() error {
		if keep {
			if kept = append(kept, buf...); len(kept) > pendingLocalBytes/4 {
				keep, kept = false, nil
			}
		}
		_, err := c.W.Write(buf)
		buf = buf[:0]
		return err
	}
	sep := func() {
		if n > 0 {
			buf = append(buf, ',')
		}
		n++
	}
	err = each(ctx, db, func(chunk []dbsync.UTxO) error {
		if !started {
			start()
		}
		for _, u := range chunk {
			_, spent := snap.SpentBy(node.Input{TxHash: u.TxHash, Index: uint32(u.OutputIndex)})
			if spent && mode == PendingExclude {
				continue
			}
			sep()
			buf = wire.AppendUTxO(buf, u)
			if spent {
				buf = markLast(buf, "pending_spent")
			}
		}
		return write()
	})
	if err != nil {
		if !started {
			return err
		}
		c.CutShort("pending UTxO list cut short", err)
		panic(http.ErrAbortHandler)
	}
	if !started {
		start()
	}
	if mode == PendingMark {
		for _, r := range outputs(snap) {
			h, o := snap.Output(r)
			sep()
			buf = appendPendingOutput(buf, h, o)
			if _, spent := snap.SpentBy(node.Input{TxHash: h, Index: o.Index}); spent {
				buf = markLast(buf, "pending_spent")
			}
		}
	}
	buf = append(buf, "]}\n"...)
	if err := write(); err != nil {
		return err
	}
	if keep {
		s.pendingAnswers.Set(key, pendingAnswer{snap: snap, body: kept, expires: time.Now().Add(pendingAnswerTTL)}, len(key)+len(kept)+64)
	}
	return nil
}

// markLast adds "<field>":true to the object just appended to b.
func markLast(b []byte, field string) []byte {
	b = append(b[:len(b)-1], `,"`...)
	b = append(b, field...)
	return append(b, `":true}`...)
}

// appendPendingOutput writes an output a mempool transaction creates in the
// UTxO shape: no block yet, so created_at is null, and pending is true.
func appendPendingOutput(b []byte, txHash string, o node.Output) []byte {
	b = append(b, `{"transaction_id":"`...)
	b = append(b, txHash...)
	b = append(b, `","output_index":`...)
	b = strconv.AppendUint(b, uint64(o.Index), 10)
	b = append(b, `,"address":`...)
	addr, _ := json.Marshal(o.Address)
	b = append(b, addr...)
	b = append(b, `,"value":`...)
	b = wire.AppendValue(b, valueOf(o), false)
	b = append(b, `,"datum_hash":`...)
	if o.DatumHash != nil {
		b = append(b, '"')
		b = append(b, *o.DatumHash...)
		b = append(b, '"')
	} else {
		b = append(b, "null"...)
	}
	return append(b, `,"script_hash":null,"created_at":null,"pending":true}`...)
}

// valueOf is a mempool output's value in the database's form (assets
// merged by policy and name, ordered).
func valueOf(o node.Output) dbsync.Value {
	v := dbsync.Value{Lovelace: new(big.Int).Set(o.Lovelace)}
	for _, a := range o.Assets {
		v.Assets = append(v.Assets, dbsync.AssetQuantity{Policy: a.Policy, Name: a.Name, Quantity: a.Quantity})
	}
	return normalized(v)
}

// normalized merges duplicate assets and orders them by policy, then name.
func normalized(v dbsync.Value) dbsync.Value {
	sort.SliceStable(v.Assets, func(i, j int) bool {
		if v.Assets[i].Policy != v.Assets[j].Policy {
			return v.Assets[i].Policy < v.Assets[j].Policy
		}
		return v.Assets[i].Name < v.Assets[j].Name
	})
	out := v.Assets[:0:0]
	for _, a := range v.Assets {
		if k := len(out) - 1; k >= 0 && out[k].Policy == a.Policy && out[k].Name == a.Name {
			out[k].Quantity = new(big.Int).Add(out[k].Quantity, a.Quantity)
			continue
		}
		out = append(out, dbsync.AssetQuantity{Policy: a.Policy, Name: a.Name, Quantity: new(big.Int).Set(a.Quantity)})
	}
	v.Assets = out
	return v
}

// addValue adds w to the running sum v.
func addValue(v *dbsync.Value, w dbsync.Value) {
	if v.Lovelace == nil {
		v.Lovelace = new(big.Int)
	}
	if w.Lovelace != nil {
		v.Lovelace.Add(v.Lovelace, w.Lovelace)
	}
	v.Assets = append(v.Assets, w.Assets...)
}

// PendingBalanceByAddress answers GET /v1/assets/balance/address/:address?pending=…
func (s *Service) PendingBalanceByAddress(ctx context.Context, db *dbsync.DB, addr cardano.Address, grouped bool, mode PendingMode) ([]byte, error) {
	return s.pendingBalance(ctx, db, grouped, mode, toAddress(addr), func(ctx context.Context, db *dbsync.DB, fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByAddress(ctx, addr, fn)
	})
}

// PendingBalanceByStake answers GET /v1/assets/balance/stake/:stakeKey?pending=…
func (s *Service) PendingBalanceByStake(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, grouped bool, mode PendingMode) ([]byte, error) {
	return s.pendingBalance(ctx, db, grouped, mode, toStake(key), func(ctx context.Context, db *dbsync.DB, fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByStake(ctx, key, fn)
	})
}

// PendingBalanceByCredential answers GET /v1/assets/balance/credential/:credential?pending=…
func (s *Service) PendingBalanceByCredential(ctx context.Context, db *dbsync.DB, cred cardano.PaymentCredential, grouped bool, mode PendingMode) ([]byte, error) {
	return s.pendingBalance(ctx, db, grouped, mode, toCredential(cred), func(ctx context.Context, db *dbsync.DB, fn func([]dbsync.UTxO) error) error {
		return db.EachUTxOByCredential(ctx, cred, fn)
	})
}

// pendingBalance sums the confirmed outputs no mempool transaction spends
// and, with PendingMark, the outputs the mempool creates that no other
// mempool transaction spends: the balance once the mempool is in a block.
// It is summed from the UTxO list rather than the balance statement (whose
// sums cannot leave single outputs out) and not cached.
func (s *Service) pendingBalance(ctx context.Context, db *dbsync.DB, grouped bool, mode PendingMode, outputs pendingOutputs,
	each func(context.Context, *dbsync.DB, func([]dbsync.UTxO) error) error) ([]byte, error) {
	snap, err := s.mempoolSnapshot(ctx, db.Network)
	if err != nil {
		return nil, err
	}
	db, _, err = s.readAt(ctx, db)
	if waitFailed(ctx, err) {
		return nil, err
	}
	sum := dbsync.Value{Lovelace: new(big.Int)}
	err = each(ctx, db, func(chunk []dbsync.UTxO) error {
		for _, u := range chunk {
			if _, spent := snap.SpentBy(node.Input{TxHash: u.TxHash, Index: uint32(u.OutputIndex)}); !spent {
				addValue(&sum, u.Value)
			}
		}
		sum = normalized(sum)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if mode == PendingMark {
		for _, r := range outputs(snap) {
			h, o := snap.Output(r)
			if _, spent := snap.SpentBy(node.Input{TxHash: h, Index: o.Index}); !spent {
				addValue(&sum, valueOf(o))
			}
		}
	}
	return wire.Encode(ok(wire.ValueOf(normalized(sum), grouped)))
}
