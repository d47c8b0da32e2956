package demonode

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/blinklabs-io/gouroboros/ledger/common"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Ledger is the chain the demo node validates against: the db-sync
// database the chain follower writes (*dbsync.DB).
type Ledger interface {
	// UnspentInputs is the check /v1 submit runs: the position of the
	// first input that is not an unspent output, or -1.
	UnspentInputs(ctx context.Context, inputs []dbsync.OutputRef) (int, error)
	// TxByHash gives the outputs (address, value) an input spends.
	TxByHash(ctx context.Context, hash cardano.TxHash) (dbsync.Tx, error)
	Tip(ctx context.Context) (dbsync.Tip, error)
	// EpochParamsAtOrBefore gives the fee and min-UTxO parameters.
	EpochParamsAtOrBefore(ctx context.Context, epoch int64) (dbsync.EpochParams, error)
}

// ErrMempoolFull: the transaction does not fit in the mempool now.
var ErrMempoolFull = errors.New("the mempool is full")

// spent is an input's output as the ledger rules need it.
type spent struct {
	addr  common.Address
	value value
}

// admit checks tx against the chain and the mempool, as a node applies a
// transaction to its mempool's ledger state, and adds it when it passes.
// The mempool stays locked throughout: two submissions spending one
// output cannot both pass.
func (n *Node) admit(ctx context.Context, tx *Tx) error {
	m := n.mempool
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bytes+len(tx.Raw) > m.capacity {
		return ErrMempoolFull
	}
	var rej *Rejection
	if len(tx.Inputs) == 0 {
		rej = rej.add(inputSetEmpty())
	}
	resolved, bad, err := n.resolve(ctx, tx.Inputs)
	if err != nil {
		return err
	}
	if len(bad) > 0 {
		rej = rej.add(badInputs(bad))
	}
	wrej, err := n.checkWitnesses(tx, resolved)
	if err != nil {
		return err
	}
	rej = rej.add(wrej).add(checkAuxHash(tx))
	prej, err := n.checkParams(ctx, tx, m.slot())
	if err != nil {
		return err
	}
	rej = rej.add(prej).add(n.checkNetwork(tx))
	if len(bad) == 0 {
		consumed, produced := newValue(), newValue()
		for _, in := range tx.Inputs {
			s := resolved[in]
			consumed.addCoin(s.value.coin)
			for k, q := range s.value.assets {
				consumed.addAsset(k, q)
			}
		}
		produced.addCoin(new(big.Int).SetUint64(tx.Fee))
		for _, o := range tx.Outputs {
			produced.addOutput(o)
		}
		if !consumed.equal(produced) {
			rej = rej.add(valueNotConserved(consumed, produced))
		}
	}
	if rej != nil {
		return rej
	}
	m.add(tx)
	return nil
}

// resolve finds what each input spends: an output of a waiting
// transaction (chaining on it), else an unspent output in db-sync. bad
// lists, in the transaction's order, the inputs that are neither (unknown,
// spent on chain, or spent by a waiting transaction: a double spend).
func (n *Node) resolve(ctx context.Context, ins []Input) (map[Input]spent, []Input, error) {
	out := map[Input]spent{}
	var bad, onChain []Input
	for _, in := range ins {
		switch o, mine := n.mempool.produced(in); {
		case n.mempool.spentBy(in) != nil:
			bad = append(bad, in)
		case mine:
			v := newValue()
			v.addOutput(o)
			out[in] = spent{addr: o.Address, value: v}
		default:
			onChain = append(onChain, in)
		}
	}
	refs := func(ins []Input) []dbsync.OutputRef {
		r := make([]dbsync.OutputRef, len(ins))
		for i, in := range ins {
			r[i] = dbsync.OutputRef{TxHash: hex.EncodeToString(in.TxHash[:]), Index: in.Index}
		}
		return r
	}
	first, err := n.opts.Ledger.UnspentInputs(ctx, refs(onChain))
	if err != nil {
		return nil, nil, fmt.Errorf("demo node: inputs: %w", err)
	}
	good := onChain
	if first >= 0 { // name every bad input, as the ledger does
		good = nil
		for _, in := range onChain {
			p, err := n.opts.Ledger.UnspentInputs(ctx, refs([]Input{in}))
			if err != nil {
				return nil, nil, fmt.Errorf("demo node: inputs: %w", err)
			}
			if p >= 0 {
				bad = append(bad, in)
			} else {
				good = append(good, in)
			}
		}
	}
	txs := map[[32]byte]dbsync.Tx{}
	for _, in := range good {
		t, ok := txs[in.TxHash]
		if !ok {
			if t, err = n.opts.Ledger.TxByHash(ctx, cardano.TxHash(in.TxHash)); err != nil {
				return nil, nil, fmt.Errorf("demo node: input %s: %w", in, err)
			}
			txs[in.TxHash] = t
		}
		i := slices.IndexFunc(t.Outputs, func(o dbsync.TxOutput) bool { return o.OutputIndex == int(in.Index) })
		if i < 0 {
			return nil, nil, fmt.Errorf("demo node: input %s: output not in db-sync", in)
		}
		s, err := spentOf(t.Outputs[i])
		if err != nil {
			return nil, nil, fmt.Errorf("demo node: input %s: %w", in, err)
		}
		out[in] = s
	}
	return out, bad, nil
}

func spentOf(o dbsync.TxOutput) (spent, error) {
	addr, err := common.NewAddress(o.Address)
	if err != nil {
		return spent{}, err
	}
	v := newValue()
	v.addCoin(o.Value.Lovelace)
	for _, a := range o.Value.Assets {
		policy, err1 := hex.DecodeString(a.Policy)
		name, err2 := hex.DecodeString(a.Name)
		if err1 != nil || err2 != nil || len(policy) != 28 {
			return spent{}, fmt.Errorf("asset %s.%s", a.Policy, a.Name)
		}
		v.addAsset(assetKey{[28]byte(policy), string(name)}, a.Quantity)
	}
	return spent{addr: addr, value: v}, nil
}

// checkWitnesses verifies every vkey witness (an ed25519 signature of the
// body hash) and that every key whose hash locks a spent output, or that
// the body names as a required signer, signed.
func (n *Node) checkWitnesses(tx *Tx, resolved map[Input]spent) (*Rejection, error) {
	signed := map[[28]byte]bool{}
	var invalid [][]byte
	for _, w := range tx.Witnesses {
		if len(w.VKey) != ed25519.PublicKeySize || !ed25519.Verify(w.VKey, tx.Hash[:], w.Signature) {
			invalid = append(invalid, w.VKey)
			continue
		}
		signed[common.Blake2b224Hash(w.VKey)] = true
	}
	var need [][28]byte
	for _, in := range tx.Inputs {
		s, ok := resolved[in]
		if !ok {
			continue
		}
		switch s.addr.Type() {
		case common.AddressTypeByron:
			return nil, unsupported("spending Byron outputs (input %s)", in)
		case common.AddressTypeKeyKey, common.AddressTypeKeyScript, common.AddressTypeKeyPointer, common.AddressTypeKeyNone:
			need = append(need, s.addr.PaymentKeyHash())
		default:
			return nil, unsupported("spending outputs locked by a script (input %s)", in)
		}
	}
	need = append(need, tx.RequiredSigners...)
	var missing [][28]byte
	for _, h := range need {
		if !signed[h] && !slices.Contains(missing, h) {
			missing = append(missing, h)
		}
	}
	var rej *Rejection
	if len(invalid) > 0 {
		rej = rej.add(invalidWitnesses(invalid))
	}
	if len(missing) > 0 {
		rej = rej.add(missingWitnesses(missing))
	}
	return rej, nil
}

// checkAuxHash: the body's auxiliary data hash (field 7) must be the hash
// of the auxiliary data the transaction carries.
func checkAuxHash(tx *Tx) *Rejection {
	var actual [32]byte
	if tx.auxRaw != nil {
		actual = common.Blake2b256Hash(tx.auxRaw)
	}
	switch {
	case tx.auxRaw != nil && tx.auxHash == nil:
		return missingBodyMetadataHash(actual)
	case tx.auxRaw == nil && tx.auxHash != nil:
		return missingMetadata(*tx.auxHash)
	case tx.auxRaw != nil && *tx.auxHash != actual:
		return conflictingMetadataHash(*tx.auxHash, actual)
	}
	return nil
}
