package demonode

import (
	"context"
	"fmt"
	"math/big"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/fxamacker/cbor/v2"
)

// checkParams applies the current protocol parameters: size, validity
// interval at the mempool's slot, minimum fee, minimum coin per output.
func (n *Node) checkParams(ctx context.Context, tx *Tx, slot uint64) (*Rejection, error) {
	tip, err := n.opts.Ledger.Tip(ctx)
	if err != nil {
		return nil, fmt.Errorf("demo node: tip: %w", err)
	}
	var epoch int64
	if tip.EpochNo != nil {
		epoch = *tip.EpochNo
	}
	p, err := n.opts.Ledger.EpochParamsAtOrBefore(ctx, epoch)
	if err != nil {
		return nil, fmt.Errorf("demo node: protocol parameters: %w", err)
	}
	var rej *Rejection
	size := uint64(len(tx.Raw))
	if p.MaxTxSize > 0 && size > uint64(p.MaxTxSize) {
		rej = rej.add(maxTxSize(size, uint64(p.MaxTxSize)))
	}
	if (tx.InvalidBefore != nil && slot < *tx.InvalidBefore) || (tx.InvalidHereafter != nil && slot >= *tx.InvalidHereafter) {
		rej = rej.add(outsideValidity(tx.InvalidBefore, tx.InvalidHereafter, slot))
	}
	if minFee := uint64(p.MinFeeA)*size + uint64(p.MinFeeB); tx.Fee < minFee {
		rej = rej.add(feeTooSmall(tx.Fee, minFee))
	}
	var perByte uint64
	if p.CoinsPerUTxOSize != nil {
		if v, ok := new(big.Int).SetString(*p.CoinsPerUTxOSize, 10); ok && v.IsUint64() {
			perByte = v.Uint64()
		}
	}
	var small []cbor.RawMessage
	var need []uint64
	for i, o := range tx.Outputs {
		// Babbage's rule: 160 bytes of overhead plus the output's size.
		if min := perByte * (160 + uint64(o.Size)); o.Lovelace < min {
			small, need = append(small, tx.Outputs[i].cbor), append(need, min)
		}
	}
	if len(small) > 0 {
		rej = rej.add(outputsTooSmall(small, need))
	}
	return rej, nil
}

// checkNetwork: every output pays an address of the node's network, and
// the body's network id, when given, is the node's.
func (n *Node) checkNetwork(tx *Tx) *Rejection {
	want := uint64(common.AddressNetworkTestnet)
	if n.opts.Network.Mainnet {
		want = common.AddressNetworkMainnet
	}
	var wrong [][]byte
	for _, o := range tx.Outputs {
		if uint64(o.Address.NetworkId()) != want {
			b, _ := o.Address.Bytes()
			wrong = append(wrong, b)
		}
	}
	var rej *Rejection
	if len(wrong) > 0 {
		rej = rej.add(wrongNetwork(want, wrong))
	}
	if tx.NetworkID != nil && *tx.NetworkID != want {
		rej = rej.add(wrongNetworkInBody(*tx.NetworkID, want))
	}
	return rej
}
