package demonode

import (
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/blinklabs-io/gouroboros/ledger"
	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/fxamacker/cbor/v2"
)

// Tx is a submitted transaction as the demo node checks it and as the
// chain follower writes it: only what a payment, a native-token transfer
// and metadata carry (Decode refuses the rest).
type Tx struct {
	Hash    [32]byte // blake2b-256 of the body bytes as received
	EraID   uint16
	Raw     []byte
	Inputs  []Input
	Outputs []Output
	Fee     uint64
	// InvalidBefore and InvalidHereafter are the validity interval's
	// bounds (body fields 8 and 3), nil when absent.
	InvalidBefore, InvalidHereafter *uint64
	RequiredSigners                 [][28]byte
	Metadata                        []Metadatum
	Witnesses                       []Witness
	// NetworkID is body field 15, nil when absent.
	NetworkID *uint64

	auxHash *[32]byte // body field 7
	auxRaw  []byte    // the auxiliary data as received (nil: none)
}

// HashHex is the transaction id, 64 lower-case hex characters.
func (t *Tx) HashHex() string { return hex.EncodeToString(t.Hash[:]) }

// Input is an output reference a transaction spends.
type Input struct {
	TxHash [32]byte
	Index  uint32
}

func (in Input) String() string {
	return hex.EncodeToString(in.TxHash[:]) + "#" + strconv.FormatUint(uint64(in.Index), 10)
}

// Output is an output a transaction creates.
type Output struct {
	Address  common.Address
	Lovelace uint64
	Assets   []Asset
	// Size is the output's CBOR size (the min-UTxO rule counts it).
	Size int
	cbor []byte
}

// Asset is a native asset quantity.
type Asset struct {
	Policy   [28]byte
	Name     []byte
	Quantity uint64
}

// Witness is a vkey witness: an ed25519 key and its signature of the body
// hash.
type Witness struct {
	VKey      []byte
	Signature []byte
}

// Body fields and witness-set fields the demo node accepts; the names of
// the others, for its refusals.
var (
	supportedBody = []uint64{0, 1, 2, 3, 7, 8, 14, 15}
	bodyFields    = map[uint64]string{4: "certificates", 5: "withdrawals", 6: "protocol parameter updates",
		9: "minting", 11: "a script data hash", 13: "collateral inputs", 16: "a collateral return",
		17: "total collateral", 18: "reference inputs", 19: "votes", 20: "governance proposals",
		21: "the current treasury value", 22: "a treasury donation"}
	witnessFields = map[uint64]string{1: "native scripts", 2: "bootstrap (Byron) witnesses",
		3: "Plutus V1 scripts", 4: "Plutus data", 5: "redeemers", 6: "Plutus V2 scripts", 7: "Plutus V3 scripts"}
)

// Decode decodes a signed Babbage or Conway transaction (era as
// LocalTxSubmission names it). What the demo node cannot take is an
// *UnsupportedError; bytes that are no such transaction are a
// deserialisation refusal (a *Rejection).
func Decode(era uint16, raw []byte) (tx *Tx, err error) {
	defer func() {
		if r := recover(); r != nil {
			tx, err = nil, undecodable(fmt.Sprint(r))
		}
	}()
	if era != ledger.TxTypeBabbage && era != ledger.TxTypeConway {
		return nil, eraMismatch(era)
	}
	lt, err := ledger.NewTransactionFromCbor(uint(era), raw)
	if err != nil {
		return nil, undecodable(err.Error())
	}
	var parts []cbor.RawMessage
	if err := cbor.Unmarshal(raw, &parts); err != nil || len(parts) != 4 {
		return nil, undecodable("not a four-part transaction")
	}
	var body, wits map[uint64]cbor.RawMessage
	if cbor.Unmarshal(parts[0], &body) != nil || cbor.Unmarshal(parts[1], &wits) != nil {
		return nil, undecodable("body or witness set is not a map")
	}
	for _, k := range slices.Sorted(maps.Keys(body)) {
		if !slices.Contains(supportedBody, k) {
			return nil, unsupported("transactions with %s (body field %d)", nameOr(bodyFields, k), k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(wits)) {
		if k != 0 {
			return nil, unsupported("transactions with %s (witness field %d)", nameOr(witnessFields, k), k)
		}
	}
	if !lt.IsValid() {
		return nil, unsupported("transactions marked as failing phase-2 validation")
	}
	tx = &Tx{Hash: lt.Hash(), EraID: era, Raw: raw, Fee: lt.Fee().Uint64()}
	for _, in := range lt.Inputs() {
		tx.Inputs = append(tx.Inputs, Input{TxHash: in.Id(), Index: in.Index()})
	}
	for i, o := range lt.Outputs() {
		out, err := outputOf(o)
		if err != nil {
			return nil, unsupported("output %d: %v", i, err)
		}
		tx.Outputs = append(tx.Outputs, out)
	}
	if err := readBodyExtras(tx, body); err != nil {
		return nil, err
	}
	for _, w := range lt.Witnesses().Vkey() {
		tx.Witnesses = append(tx.Witnesses, Witness{VKey: w.Vkey, Signature: w.Signature})
	}
	if aux := parts[3]; len(aux) > 0 && aux[0] != 0xf6 { // 0xf6: null
		tx.auxRaw = aux
		if tx.Metadata, err = auxMetadata(aux); err != nil {
			return nil, err
		}
	}
	return tx, nil
}

// readBodyExtras reads the optional body fields gouroboros reports without
// telling absent from zero: the validity bounds, the network id, the
// auxiliary data hash and the required signers.
func readBodyExtras(tx *Tx, body map[uint64]cbor.RawMessage) error {
	opt := func(k uint64) (*uint64, error) {
		raw, ok := body[k]
		if !ok {
			return nil, nil
		}
		var v uint64
		if err := cbor.Unmarshal(raw, &v); err != nil {
			return nil, undecodable(fmt.Sprintf("body field %d: %v", k, err))
		}
		return &v, nil
	}
	var err error
	if tx.InvalidHereafter, err = opt(3); err != nil {
		return err
	}
	if tx.InvalidBefore, err = opt(8); err != nil {
		return err
	}
	if tx.NetworkID, err = opt(15); err != nil {
		return err
	}
	if raw, ok := body[7]; ok {
		var h []byte
		if cbor.Unmarshal(raw, &h) != nil || len(h) != 32 {
			return undecodable("body field 7 is not a 32-byte hash")
		}
		tx.auxHash = (*[32]byte)(h)
	}
	if raw, ok := body[14]; ok {
		var signers []cbor.RawMessage
		if err := unmarshalSet(raw, &signers); err != nil {
			return undecodable("required signers: " + err.Error())
		}
		for _, s := range signers {
			var h []byte
			if cbor.Unmarshal(s, &h) != nil || len(h) != 28 {
				return undecodable("a required signer is not a 28-byte key hash")
			}
			tx.RequiredSigners = append(tx.RequiredSigners, [28]byte(h))
		}
	}
	return nil
}

// unmarshalSet reads a CBOR array, bare or under the set tag 258.
func unmarshalSet(raw []byte, dst *[]cbor.RawMessage) error {
	var tag cbor.RawTag
	if cbor.Unmarshal(raw, &tag) == nil {
		if tag.Number != 258 {
			return fmt.Errorf("unexpected tag %d", tag.Number)
		}
		raw = tag.Content
	}
	return cbor.Unmarshal(raw, dst)
}

func outputOf(o common.TransactionOutput) (Output, error) {
	if o.DatumHash() != nil || o.Datum() != nil {
		return Output{}, fmt.Errorf("outputs with a datum")
	}
	if o.ScriptRef() != nil {
		return Output{}, fmt.Errorf("outputs with a reference script")
	}
	amount := o.Amount()
	if amount == nil || !amount.IsUint64() {
		return Output{}, fmt.Errorf("an output amount out of range")
	}
	out := Output{Address: o.Address(), Lovelace: amount.Uint64(), Size: len(o.Cbor()), cbor: o.Cbor()}
	if ma := o.Assets(); ma != nil {
		for _, p := range ma.Policies() {
			for _, name := range ma.Assets(p) {
				q := ma.Asset(p, name)
				if q == nil || q.Sign() <= 0 || !q.IsUint64() {
					return Output{}, fmt.Errorf("an asset quantity out of range")
				}
				out.Assets = append(out.Assets, Asset{Policy: p, Name: slices.Clone(name), Quantity: q.Uint64()})
			}
		}
	}
	return out, nil
}

// auxMetadata reads the metadata of the auxiliary data: a bare metadata
// map (Shelley), [metadata, scripts] (Allegra) or tag 259 {0: metadata,
// …} (Alonzo on). Scripts in it are refused.
func auxMetadata(aux []byte) ([]Metadatum, error) {
	switch aux[0] >> 5 {
	case 5:
		return metadataOrRefusal(aux)
	case 4:
		var pair []cbor.RawMessage
		if cbor.Unmarshal(aux, &pair) != nil || len(pair) != 2 {
			return nil, undecodable("auxiliary data")
		}
		var scripts []cbor.RawMessage
		if cbor.Unmarshal(pair[1], &scripts) != nil || len(scripts) > 0 {
			return nil, unsupported("scripts in the auxiliary data")
		}
		return metadataOrRefusal(pair[0])
	}
	var tag cbor.RawTag
	var m map[uint64]cbor.RawMessage
	if cbor.Unmarshal(aux, &tag) != nil || tag.Number != 259 || cbor.Unmarshal(tag.Content, &m) != nil {
		return nil, undecodable("auxiliary data")
	}
	for k := range m {
		if k != 0 {
			return nil, unsupported("scripts in the auxiliary data")
		}
	}
	if md, ok := m[0]; ok {
		return metadataOrRefusal(md)
	}
	return nil, nil
}

func metadataOrRefusal(raw []byte) ([]Metadatum, error) {
	md, err := parseMetadata(raw)
	switch err {
	case nil:
		return md, nil
	case errInvalidMetadata:
		return nil, utxowFailure(tagInvalidMetadata)
	}
	return nil, undecodable(err.Error())
}

func nameOr(names map[uint64]string, k uint64) string {
	if n, ok := names[k]; ok {
		return n
	}
	return "field " + strconv.FormatUint(k, 10)
}
