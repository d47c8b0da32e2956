// Package wiretest holds the reference encodings the wire encoders are
// checked against, for the tests of every package that writes answers.
package wiretest

import (
	"math/big"
	"time"

	"github.com/syncgate/syncgate/dbsync"
)

// The reference encodings are the spec's objects built the plain way,
// structs and maps of *big.Int through encoding/json (what the append
// encoders replaced); the append encoders must write the same bytes.

// ReferenceValue is the value object (OpenAPI "Value") as maps.
func ReferenceValue(v dbsync.Value, grouped bool) any {
	lovelace := v.Lovelace
	if lovelace == nil {
		lovelace = new(big.Int)
	}
	add := func(prev, q *big.Int) *big.Int {
		if prev == nil {
			return q
		}
		return new(big.Int).Add(prev, q)
	}
	if grouped {
		m := map[string]map[string]*big.Int{}
		for _, a := range v.Assets {
			if m[a.Policy] == nil {
				m[a.Policy] = map[string]*big.Int{}
			}
			m[a.Policy][a.Name] = add(m[a.Policy][a.Name], a.Quantity)
		}
		return struct {
			Lovelace *big.Int                       `json:"lovelace"`
			Assets   map[string]map[string]*big.Int `json:"assets"`
		}{lovelace, m}
	}
	m := map[string]*big.Int{}
	for _, a := range v.Assets {
		m[a.Policy+"."+a.Name] = add(m[a.Policy+"."+a.Name], a.Quantity)
	}
	return struct {
		Lovelace *big.Int            `json:"lovelace"`
		Assets   map[string]*big.Int `json:"assets"`
	}{lovelace, m}
}

type ReferenceTx struct {
	TxHash    string           `json:"tx_hash"`
	BlockHash string           `json:"block_hash"`
	SlotNo    int64            `json:"slot_no"`
	BlockNo   int64            `json:"block_no"`
	BlockTime string           `json:"block_time"`
	Fee       *big.Int         `json:"fee"`
	Size      int64            `json:"size"`
	Inputs    []ReferenceInput `json:"inputs"`
	Outputs   []ReferenceOut   `json:"outputs"`
}

type ReferenceInput struct {
	TxHash      string `json:"tx_hash"`
	OutputIndex int    `json:"output_index"`
	Address     string `json:"address"`
	Value       any    `json:"value"`
}

type ReferenceOut struct {
	OutputIndex int    `json:"output_index"`
	Address     string `json:"address"`
	Value       any    `json:"value"`
}

func ReferenceTxOf(t dbsync.Tx, grouped bool) ReferenceTx {
	out := ReferenceTx{TxHash: t.Hash, BlockHash: t.BlockHash, SlotNo: t.SlotNo, BlockNo: t.BlockNo,
		BlockTime: t.BlockTime.UTC().Format(time.RFC3339), Fee: t.Fee, Size: t.Size,
		Inputs: []ReferenceInput{}, Outputs: []ReferenceOut{}}
	for _, in := range t.Inputs {
		out.Inputs = append(out.Inputs, ReferenceInput{in.TxHash, in.OutputIndex, in.Address, ReferenceValue(in.Value, grouped)})
	}
	for _, o := range t.Outputs {
		out.Outputs = append(out.Outputs, ReferenceOut{o.OutputIndex, o.Address, ReferenceValue(o.Value, grouped)})
	}
	return out
}

type ReferenceUTxO struct {
	TransactionID string  `json:"transaction_id"`
	OutputIndex   int     `json:"output_index"`
	Address       string  `json:"address"`
	Value         any     `json:"value"`
	DatumHash     *string `json:"datum_hash"`
	ScriptHash    *string `json:"script_hash"`
	CreatedAt     struct {
		SlotNo     int64  `json:"slot_no"`
		HeaderHash string `json:"header_hash"`
	} `json:"created_at"`
}

func ReferenceUTxOOf(u dbsync.UTxO) ReferenceUTxO {
	r := ReferenceUTxO{TransactionID: u.TxHash, OutputIndex: u.OutputIndex, Address: u.Address,
		Value: ReferenceValue(u.Value, false), DatumHash: u.DatumHash, ScriptHash: u.ScriptHash}
	r.CreatedAt.SlotNo, r.CreatedAt.HeaderHash = u.SlotNo, u.BlockHash
	return r
}

// ReferenceTxRef is the transaction reference (OpenAPI "TxRef").
type ReferenceTxRef struct {
	TxHash    string `json:"tx_hash"`
	BlockHash string `json:"block_hash"`
	SlotNo    int64  `json:"slot_no"`
	BlockNo   int64  `json:"block_no"`
	BlockTime string `json:"block_time"`
}

func ReferenceTxRefOf(r dbsync.TxRef) ReferenceTxRef {
	return ReferenceTxRef{TxHash: r.Hash, BlockHash: r.BlockHash, SlotNo: r.SlotNo, BlockNo: r.BlockNo,
		BlockTime: r.BlockTime.UTC().Format(time.RFC3339)}
}
