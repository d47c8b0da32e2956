package bf

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/txs"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// A transaction's answers never change while the block holding it stays
// on the chain (its outputs' consumed_by_tx aside: /utxos watches their
// addresses), so they are kept across tips (answer.Service.DialectTx): a
// client polling /txs/{hash} (Lucid's awaitTx, Mesh's onTxConfirmed) or
// reading /txs/{hash}/utxos costs a statement once, not once a block.

// tx answers route about the transaction hash: read builds the value,
// encoded as JSON; watch, when set, names the addresses whose movement
// could change an answer (DialectTx).
func tx[T any](ctx context.Context, a *Answers, db *dbsync.DB, route string, hash cardano.TxHash, watch func([]byte) ([]string, bool), read func(context.Context, *dbsync.DB) (T, error)) ([]byte, error) {
	return a.svc.DialectTx(ctx, db, []string{"bf", route, hash.String()}, watch, func(ctx context.Context, db *dbsync.DB) ([]byte, error) {
		v, err := read(ctx, db)
		if err != nil {
			return nil, notFound(err)
		}
		return encode(v)
	})
}

// Tx is Blockfrost's tx_content.
type Tx struct {
	Hash                 string   `json:"hash"`
	Block                string   `json:"block"`
	BlockHeight          int64    `json:"block_height"`
	BlockTime            int64    `json:"block_time"`
	Slot                 int64    `json:"slot"`
	Index                int64    `json:"index"`
	OutputAmount         []Amount `json:"output_amount"`
	Fees                 string   `json:"fees"`
	Deposit              string   `json:"deposit"`
	Size                 int64    `json:"size"`
	InvalidBefore        *string  `json:"invalid_before"`
	InvalidHereafter     *string  `json:"invalid_hereafter"`
	UTxOCount            int64    `json:"utxo_count"`
	WithdrawalCount      int64    `json:"withdrawal_count"`
	MIRCertCount         int64    `json:"mir_cert_count"`
	DelegationCount      int64    `json:"delegation_count"`
	StakeCertCount       int64    `json:"stake_cert_count"`
	PoolUpdateCount      int64    `json:"pool_update_count"`
	PoolRetireCount      int64    `json:"pool_retire_count"`
	AssetMintOrBurnCount int64    `json:"asset_mint_or_burn_count"`
	RedeemerCount        int64    `json:"redeemer_count"`
	ValidContract        bool     `json:"valid_contract"`
	TreasuryDonation     string   `json:"treasury_donation"`
}

// Tx answers /txs/{hash}.
func (a *Answers) Tx(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "tx", hash, nil, func(ctx context.Context, db *dbsync.DB) (Tx, error) {
		c, err := txs.ContentOf(ctx, db, hash)
		if err != nil {
			return Tx{}, err
		}
		n := c.Counts
		return Tx{Hash: c.Hash, Block: c.Block, BlockHeight: c.BlockHeight, BlockTime: c.BlockTime.Unix(), Slot: c.Slot,
			Index: c.Index, OutputAmount: amounts(c.Output), Fees: c.Fee, Deposit: c.Deposit, Size: c.Size,
			InvalidBefore: c.InvalidBefore, InvalidHereafter: c.InvalidHereafter, UTxOCount: n.UTxOs,
			WithdrawalCount: n.Withdrawals, MIRCertCount: n.MIRCerts, DelegationCount: n.Delegations,
			StakeCertCount: n.StakeCerts, PoolUpdateCount: n.PoolUpdates, PoolRetireCount: n.PoolRetires,
			AssetMintOrBurnCount: n.Mints, RedeemerCount: n.Redeemers, ValidContract: c.ValidContract,
			TreasuryDonation: c.TreasuryDonation}, nil
	})
}

// TxUTxOs is Blockfrost's tx_content_utxo.
type TxUTxOs struct {
	Hash    string     `json:"hash"`
	Inputs  []TxInput  `json:"inputs"`
	Outputs []TxOutput `json:"outputs"`
}

// TxInput is one of tx_content_utxo's inputs.
type TxInput struct {
	Address             string   `json:"address"`
	Amount              []Amount `json:"amount"`
	TxHash              string   `json:"tx_hash"`
	OutputIndex         int      `json:"output_index"`
	DataHash            *string  `json:"data_hash"`
	InlineDatum         *string  `json:"inline_datum"`
	ReferenceScriptHash *string  `json:"reference_script_hash"`
	Collateral          bool     `json:"collateral"`
	Reference           bool     `json:"reference"`
}

// TxOutput is one of tx_content_utxo's outputs.
type TxOutput struct {
	Address             string   `json:"address"`
	Amount              []Amount `json:"amount"`
	OutputIndex         int      `json:"output_index"`
	DataHash            *string  `json:"data_hash"`
	InlineDatum         *string  `json:"inline_datum"`
	Collateral          bool     `json:"collateral"`
	ReferenceScriptHash *string  `json:"reference_script_hash"`
	ConsumedByTx        *string  `json:"consumed_by_tx"`
}

// TxUTxOs answers /txs/{hash}/utxos. Kept across tips while no block moves
// an address one of its unspent outputs pays (a spend would fill that
// output's consumed_by_tx).
func (a *Answers) TxUTxOs(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "utxos", hash, unspentAddresses, func(ctx context.Context, db *dbsync.DB) (TxUTxOs, error) {
		u, err := txs.UTxOsOf(ctx, db, hash)
		if err != nil {
			return TxUTxOs{}, err
		}
		out := TxUTxOs{Hash: u.Hash, Inputs: make([]TxInput, len(u.Inputs)), Outputs: make([]TxOutput, len(u.Outputs))}
		for i, in := range u.Inputs {
			out.Inputs[i] = TxInput{Address: in.Address, Amount: amounts(in.Value), TxHash: in.TxHash, OutputIndex: in.OutputIndex,
				DataHash: in.DataHash, InlineDatum: in.InlineDatum, ReferenceScriptHash: in.ReferenceScriptHash,
				Collateral: in.Collateral, Reference: in.Reference}
		}
		for i, o := range u.Outputs {
			out.Outputs[i] = TxOutput{Address: o.Address, Amount: amounts(o.Value), OutputIndex: o.OutputIndex,
				DataHash: o.DataHash, InlineDatum: o.InlineDatum, Collateral: o.Collateral,
				ReferenceScriptHash: o.ReferenceScriptHash, ConsumedByTx: o.ConsumedBy}
		}
		return out, nil
	})
}

// unspentAddresses are the addresses of the outputs a /utxos answer shows
// unspent (collateral outputs never are); ok is false for an answer it
// cannot read.
func unspentAddresses(body []byte) (addrs []string, ok bool) {
	var u struct {
		Outputs []struct {
			Address    string  `json:"address"`
			Collateral bool    `json:"collateral"`
			Consumed   *string `json:"consumed_by_tx"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal(body, &u); err != nil {
		return nil, false
	}
	for _, o := range u.Outputs {
		if !o.Collateral && o.Consumed == nil {
			addrs = append(addrs, o.Address)
		}
	}
	return addrs, true
}

// TxCBOR is Blockfrost's tx_content_cbor.
type TxCBOR struct {
	CBOR string `json:"cbor"`
}

// TxCBOR answers /txs/{hash}/cbor: a 404 where db-sync did not keep the
// transaction's CBOR, as Blockfrost answers.
func (a *Answers) TxCBOR(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "cbor", hash, nil, func(ctx context.Context, db *dbsync.DB) (TxCBOR, error) {
		c, err := txs.CBOR(ctx, db, hash)
		if errors.Is(err, txs.ErrNoCBOR) {
			return TxCBOR{}, answer.ErrNotFound
		}
		return TxCBOR{CBOR: c}, err
	})
}
