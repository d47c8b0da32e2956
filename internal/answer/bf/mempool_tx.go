package bf

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strconv"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/node"
)

// MempoolTx is Blockfrost's mempool_tx_content.
type MempoolTx struct {
	Tx        MempoolTxBody     `json:"tx"`
	Inputs    []MempoolTxInput  `json:"inputs"`
	Outputs   []MempoolTxOutput `json:"outputs"`
	Redeemers []MempoolRedeemer `json:"redeemers"`
}

// MempoolTxBody is mempool_tx_content's tx: what /txs/{hash} says of a
// transaction in a block, less the block.
type MempoolTxBody struct {
	Hash                 string   `json:"hash"`
	OutputAmount         []Amount `json:"output_amount"`
	Fees                 string   `json:"fees"`
	Deposit              string   `json:"deposit"`
	Size                 int      `json:"size"`
	InvalidBefore        *string  `json:"invalid_before"`
	InvalidHereafter     *string  `json:"invalid_hereafter"`
	UTxOCount            int      `json:"utxo_count"`
	WithdrawalCount      int      `json:"withdrawal_count"`
	MIRCertCount         int      `json:"mir_cert_count"`
	DelegationCount      int      `json:"delegation_count"`
	StakeCertCount       int      `json:"stake_cert_count"`
	PoolUpdateCount      int      `json:"pool_update_count"`
	PoolRetireCount      int      `json:"pool_retire_count"`
	AssetMintOrBurnCount int      `json:"asset_mint_or_burn_count"`
	RedeemerCount        int      `json:"redeemer_count"`
	ValidContract        bool     `json:"valid_contract"`
}

// MempoolTxInput is an input: regular, collateral or reference. Address is
// the spent output's, left out when neither db-sync nor the mempool holds
// that output (Blockfrost's schema does not require it).
type MempoolTxInput struct {
	Address     string `json:"address,omitempty"`
	TxHash      string `json:"tx_hash"`
	OutputIndex uint32 `json:"output_index"`
	Collateral  bool   `json:"collateral"`
	Reference   bool   `json:"reference"`
}

// MempoolTxOutput is an output, the collateral return last.
type MempoolTxOutput struct {
	Address             string   `json:"address"`
	Amount              []Amount `json:"amount"`
	OutputIndex         uint32   `json:"output_index"`
	DataHash            *string  `json:"data_hash"`
	InlineDatum         *string  `json:"inline_datum"`
	Collateral          bool     `json:"collateral"`
	ReferenceScriptHash *string  `json:"reference_script_hash"`
}

// MempoolRedeemer is one redeemer with its budget.
type MempoolRedeemer struct {
	TxIndex   uint32 `json:"tx_index"`
	Purpose   string `json:"purpose"`
	UnitMem   string `json:"unit_mem"`
	UnitSteps string `json:"unit_steps"`
}

// redeemerPurposes are Blockfrost's names of the redeemer tags.
var redeemerPurposes = []string{"spend", "mint", "cert", "reward", "vote", "propose"}

// errNoFacts: gouroboros could not read the transaction's certificates,
// witnesses or validity interval (node.MempoolTx.Facts).
var errNoFacts = errors.New("bf: the mempool transaction's facts could not be read")

// MempoolTx answers GET /mempool/{hash}, or answer.ErrNotFound when the
// transaction is not in the node's mempool. The outputs its inputs spend
// are read from the snapshot (an unconfirmed parent) or db-sync.
func (a *Answers) MempoolTx(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	snap, err := a.svc.MempoolSnapshot(ctx, db.Network)
	if err != nil {
		return nil, err
	}
	tx, ok := snap.Tx(hash.String())
	if !ok {
		return nil, answer.ErrNotFound
	}
	f := tx.Facts
	if f == nil {
		return nil, fmt.Errorf("%w: %s", errNoFacts, tx.Hash)
	}
	ins := append(append(append([]node.Input(nil), tx.Inputs...), f.Collateral...), f.References...)
	spent, err := a.mempool.resolve(ctx, db, snap, ins)
	if err != nil {
		return nil, err
	}
	body := MempoolTxBody{Hash: tx.Hash, Size: tx.Size, UTxOCount: len(tx.Inputs) + len(tx.Outputs),
		WithdrawalCount: f.WithdrawalCount, AssetMintOrBurnCount: f.MintCount, RedeemerCount: len(f.Redeemers),
		ValidContract: f.Valid, InvalidBefore: slotText(f.InvalidBefore), InvalidHereafter: slotText(f.InvalidHereafter)}
	var sum valueSum
	out := MempoolTx{Inputs: []MempoolTxInput{}, Outputs: []MempoolTxOutput{}, Redeemers: []MempoolRedeemer{}}
	for _, o := range tx.Outputs {
		sum.add(o)
		out.Outputs = append(out.Outputs, mempoolOutput(o, false))
	}
	if f.CollateralReturn != nil {
		out.Outputs = append(out.Outputs, mempoolOutput(*f.CollateralReturn, true))
	}
	body.OutputAmount = sum.amounts()
	for i, in := range ins {
		out.Inputs = append(out.Inputs, MempoolTxInput{Address: spent[in].Address, TxHash: in.TxHash, OutputIndex: in.Index,
			Collateral: i >= len(tx.Inputs) && i < len(tx.Inputs)+len(f.Collateral), Reference: i >= len(tx.Inputs)+len(f.Collateral)})
	}
	for _, c := range f.Certificates {
		switch c.Kind {
		case 6:
			body.MIRCertCount++
		case 3:
			body.PoolUpdateCount++
		case 4:
			body.PoolRetireCount++
		}
		// db-sync's delegation and stake_registration/deregistration rows.
		switch c.Kind {
		case 2, 10, 11, 13:
			body.DelegationCount++
		}
		switch c.Kind {
		case 0, 1, 7, 8, 11, 12, 13:
			body.StakeCertCount++
		}
	}
	for _, r := range f.Redeemers {
		if int(r.Tag) < len(redeemerPurposes) {
			out.Redeemers = append(out.Redeemers, MempoolRedeemer{TxIndex: r.Index, Purpose: redeemerPurposes[r.Tag],
				UnitMem: strconv.FormatInt(r.Mem, 10), UnitSteps: strconv.FormatInt(r.Steps, 10)})
		}
	}
	fee, deposit, err := a.feeAndDeposit(ctx, db, tx, spent)
	if err != nil {
		return nil, err
	}
	body.Fees, body.Deposit = fee.String(), deposit.String()
	out.Tx = body
	return encode(out)
}

func slotText(s *uint64) *string {
	if s == nil {
		return nil
	}
	t := strconv.FormatUint(*s, 10)
	return &t
}

func mempoolOutput(o node.Output, collateral bool) MempoolTxOutput {
	var v valueSum
	v.add(o)
	out := MempoolTxOutput{Address: o.Address, Amount: v.amounts(), OutputIndex: o.Index, DataHash: o.DatumHash,
		Collateral: collateral, ReferenceScriptHash: o.ScriptRef}
	if o.InlineDatum != nil {
		d := hex.EncodeToString(o.InlineDatum)
		out.InlineDatum = &d
	}
	return out
}

// valueSum adds values up by unit.
type valueSum struct {
	lovelace big.Int
	assets   map[string]*big.Int // unit (policy and name, hex) → quantity
}

func (v *valueSum) add(o node.Output) {
	if o.Lovelace != nil {
		v.lovelace.Add(&v.lovelace, o.Lovelace)
	}
	for _, a := range o.Assets {
		if v.assets == nil {
			v.assets = map[string]*big.Int{}
		}
		u := a.Policy + a.Name
		if v.assets[u] == nil {
			v.assets[u] = new(big.Int)
		}
		v.assets[u].Add(v.assets[u], a.Quantity)
	}
}

// amounts is the sum as Blockfrost lists it: lovelace first, then each
// unit in order (policy, then name: a policy is always 56 hex digits).
func (v *valueSum) amounts() []Amount {
	out := []Amount{{Unit: "lovelace", Quantity: v.lovelace.String()}}
	units := make([]string, 0, len(v.assets))
	for u := range v.assets {
		units = append(units, u)
	}
	sort.Strings(units)
	for _, u := range units {
		out = append(out, Amount{Unit: u, Quantity: v.assets[u].String()})
	}
	return out
}
