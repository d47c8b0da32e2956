package demonode

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/blinklabs-io/gouroboros/ledger"
	"github.com/fxamacker/cbor/v2"
)

// Rejection is the demo node's refusal of a transaction, sent as a
// Conway-era node sends one: the CBOR of an ApplyTxErr,
// [[6, [ledger failure, …]]], which syncgate's node package renders with
// cardano-ledger's constructor names, e.g.
// ConwayUtxowFailure (UtxoFailure (BadInputsUTxO 258([[h'…', 0]]))).
type Rejection struct {
	failures []any // CONWAY LEDGER failures, each [tag, fields…]
}

// Error names the failures' outermost constructors (for logs; clients get
// the CBOR).
func (r *Rejection) Error() string {
	b, _ := r.MarshalCBOR()
	d, _ := cbor.Diagnose(b)
	return "rejected: " + d
}

// MarshalCBOR is the reason as MsgRejectTx carries it.
func (r *Rejection) MarshalCBOR() ([]byte, error) {
	return cbor.Marshal([]any{[]any{ledger.TxTypeConway, r.failures}})
}

// add joins another rejection's failures to r (several rules failing at
// once, as the ledger reports them).
func (r *Rejection) add(o *Rejection) *Rejection {
	if r == nil {
		return o
	}
	if o != nil {
		r.failures = append(r.failures, o.failures...)
	}
	return r
}

// Predicate-failure tags not in gouroboros' list (cardano-ledger
// Conway.Rules.Ledger and Conway.Rules.Utxow).
const (
	tagLedgerUtxowFailure = 1
	tagInvalidMetadata    = ledger.ConwayUtxowInvalidMetadata
)

// utxowFailure is a UTXOW failure [tag, fields…] under LEDGER.
func utxowFailure(tag uint64, fields ...any) *Rejection {
	return &Rejection{failures: []any{[]any{tagLedgerUtxowFailure, append([]any{tag}, fields...)}}}
}

// utxoFailure is a UTXO failure under UTXOW under LEDGER.
func utxoFailure(tag uint64, fields ...any) *Rejection {
	return utxowFailure(ledger.ConwayUtxowUtxoFailure, append([]any{tag}, fields...))
}

// set is a CBOR set (tag 258) of the items, in canonical order.
func set(items []any) cbor.Tag {
	enc := make([][]byte, len(items))
	for i, it := range items {
		enc[i], _ = cbor.Marshal(it)
	}
	slices.SortFunc(enc, bytes.Compare)
	out := make([]any, len(enc))
	for i, e := range enc {
		out[i] = cbor.RawMessage(e)
	}
	return cbor.Tag{Number: 258, Content: out}
}

func badInputs(ins []Input) *Rejection {
	items := make([]any, len(ins))
	for i, in := range ins {
		items[i] = []any{in.TxHash[:], in.Index}
	}
	return utxoFailure(ledger.ConwayUtxoBadInputsUTxO, set(items))
}

func missingWitnesses(hashes [][28]byte) *Rejection {
	items := make([]any, len(hashes))
	for i, h := range hashes {
		items[i] = h[:]
	}
	return utxowFailure(ledger.ConwayUtxowMissingVKeyWitnesses, set(items))
}

func invalidWitnesses(keys [][]byte) *Rejection {
	items := make([]any, len(keys))
	for i, k := range keys {
		items[i] = k
	}
	return utxowFailure(ledger.ConwayUtxowInvalidWitnesses, items)
}

// outsideValidity: the interval [before, hereafter) does not hold slot.
func outsideValidity(before, hereafter *uint64, slot uint64) *Rejection {
	bound := func(p *uint64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	return utxoFailure(ledger.ConwayUtxoOutsideValidityIntervalUTxO, []any{bound(before), bound(hereafter)}, slot)
}

// Mismatches are sent as cardano-ledger encodes them: supplied, then
// expected.
func feeTooSmall(fee, minFee uint64) *Rejection {
	return utxoFailure(ledger.ConwayUtxoFeeTooSmallUTxO, fee, minFee)
}

func valueNotConserved(consumed, produced value) *Rejection {
	return utxoFailure(ledger.ConwayUtxoValueNotConservedUTxO, consumed.cbor(), produced.cbor())
}

func wrongNetwork(expected uint64, addrs [][]byte) *Rejection {
	items := make([]any, len(addrs))
	for i, a := range addrs {
		items[i] = a
	}
	return utxoFailure(ledger.ConwayUtxoWrongNetwork, expected, set(items))
}

func wrongNetworkInBody(supplied, expected uint64) *Rejection {
	return utxoFailure(ledger.ConwayUtxoWrongNetworkInTxBody, supplied, expected)
}

func inputSetEmpty() *Rejection { return utxoFailure(ledger.ConwayUtxoInputSetEmptyUTxO) }

func maxTxSize(size, limit uint64) *Rejection {
	return utxoFailure(ledger.ConwayUtxoMaxTxSizeUTxO, size, limit)
}

// outputsTooSmall lists each too-small output (its CBOR) with the coin it
// needs (BabbageOutputTooSmallUTxO).
func outputsTooSmall(outs []cbor.RawMessage, need []uint64) *Rejection {
	items := make([]any, len(outs))
	for i := range outs {
		items[i] = []any{outs[i], need[i]}
	}
	return utxoFailure(ledger.ConwayUtxoBabbageOutputTooSmallUTxO, items)
}

// metadataHash failures: the body names no hash of the auxiliary data it
// has, names one of none, or another one.
func missingBodyMetadataHash(actual [32]byte) *Rejection {
	return utxowFailure(ledger.ConwayUtxowMissingTxBodyMetadataHash, actual[:])
}

func missingMetadata(declared [32]byte) *Rejection {
	return utxowFailure(ledger.ConwayUtxowMissingTxMetadata, declared[:])
}

func conflictingMetadataHash(declared, actual [32]byte) *Rejection {
	return utxowFailure(ledger.ConwayUtxowConflictingMetadataHash, declared[:], actual[:])
}

// UnsupportedError is what the demo node refuses because it could not
// write it to the chain as db-sync would (certificates, minting, scripts…),
// not because the ledger would: sent as the reason's text.
type UnsupportedError struct{ What string }

func (e *UnsupportedError) Error() string {
	return "the demo node does not support " + e.What + " (it takes payments, native-token transfers and metadata)"
}

func unsupported(format string, a ...any) error {
	return &UnsupportedError{What: fmt.Sprintf(format, a...)}
}

// DecodeError: the bytes are not a transaction of the era they were sent
// under (a node's deserialisation failure), sent as the reason's text.
type DecodeError struct{ Detail string }

func (e *DecodeError) Error() string { return "the transaction could not be deserialised: " + e.Detail }

func undecodable(detail string) error { return &DecodeError{Detail: detail} }

// eraMismatch: the hard-fork combinator's refusal of another era's
// transaction.
func eraMismatch(era uint16) error {
	other := ledger.EraInfo{Index: uint8(era), Name: "era " + fmt.Sprint(era)}
	if era <= 0xff {
		if e := ledger.GetEraById(uint8(era)); e.Name != ledger.EraInvalid.Name {
			other.Name = e.Name
		}
	}
	return &ledger.EraMismatch{OtherEra: other, LedgerEra: ledger.EraInfo{Index: ledger.TxTypeConway, Name: "Conway"}}
}
