package node

import (
	"encoding/hex"
	"fmt"
	"math/big"

	"github.com/blinklabs-io/gouroboros/ledger"
	"github.com/blinklabs-io/gouroboros/ledger/common"
)

// MempoolTx is one transaction of a mempool snapshot, decoded.
type MempoolTx struct {
	// Hash is the transaction id, 64 lower-case hex characters.
	Hash string
	// EraID is the era the node reported the transaction in.
	EraID uint16
	// Size is the transaction's CBOR size in bytes.
	Size    int
	Inputs  []Input
	Outputs []Output
	// Facts is the rest of what the transaction says (Blockfrost's
	// mempool routes); nil when it could not be read.
	Facts *TxFacts
}

// Output is one output a transaction creates.
type Output struct {
	// Index is the output's position in the transaction.
	Index uint32
	// Address is bech32 for Shelley addresses, base58 for Byron ones, as
	// db-sync writes tx_out.address.
	Address  string
	Lovelace *big.Int
	// Assets are the native assets, hex policy and hex name, in the
	// order the transaction lists them.
	Assets []Asset
	// DatumHash is the hash of the output's datum, inline or by hash
	// (hex); nil when it has none.
	DatumHash *string
	// InlineDatum is the inline datum's CBOR; nil when it has none.
	InlineDatum []byte
	// ScriptRef is the hash of the reference script the output carries
	// (hex); nil when it carries none.
	ScriptRef *string
	// StakeRaw is the 29-byte stake address (header and credential, as
	// db-sync's stake_address.hash_raw) the output is delegated to; nil
	// for Byron, enterprise and pointer addresses.
	StakeRaw []byte
	// PaymentCred is the 28-byte payment credential; nil for Byron.
	PaymentCred []byte
}

// Asset is a native asset quantity of an output.
type Asset struct {
	Policy   string // 56 hex characters
	Name     string // hex, 0 to 64 characters
	Quantity *big.Int
}

// decodeMempoolTx decodes a transaction the node listed under era. The
// bytes come from the node, but a panic in gouroboros must still not take
// the whole snapshot (and every request waiting on it) down.
func decodeMempoolTx(era uint8, raw []byte) (tx MempoolTx, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("node: undecodable mempool transaction: %v", r)
		}
	}()
	lt, err := ledger.NewTransactionFromCbor(uint(era), raw)
	if err != nil {
		// The era a node reports is authoritative, but a fake or older node
		// may send the wire form gouroboros files under another era.
		t, derr := ledger.DetermineTransactionType(raw)
		if derr != nil {
			return MempoolTx{}, fmt.Errorf("node: mempool transaction (era %d): %w", era, err)
		}
		if lt, err = ledger.NewTransactionFromCbor(t, raw); err != nil {
			return MempoolTx{}, fmt.Errorf("node: mempool transaction (era %d): %w", era, err)
		}
	}
	tx = MempoolTx{Hash: lt.Hash().String(), EraID: uint16(era), Size: len(raw), Inputs: inputsOf(lt)}
	for i, o := range lt.Outputs() {
		tx.Outputs = append(tx.Outputs, outputOf(uint32(i), o))
	}
	tx.Facts = readFacts(lt, raw)
	return tx, nil
}

// readFacts is factsOf, or nil when gouroboros panics on the way: the
// transaction's inputs and outputs still serve the routes that need no
// more.
func readFacts(lt ledger.Transaction, raw []byte) (f *TxFacts) {
	defer func() {
		if recover() != nil {
			f = nil
		}
	}()
	facts := factsOf(lt, raw)
	return &facts
}

func outputOf(index uint32, o common.TransactionOutput) Output {
	addr := o.Address()
	out := Output{Index: index, Address: addr.String(), Lovelace: o.Amount()}
	if out.Lovelace == nil {
		out.Lovelace = new(big.Int)
	}
	if ma := o.Assets(); ma != nil {
		for _, p := range ma.Policies() {
			for _, name := range ma.Assets(p) {
				q := ma.Asset(p, name)
				if q == nil {
					q = new(big.Int)
				}
				out.Assets = append(out.Assets, Asset{Policy: p.String(), Name: hex.EncodeToString(name), Quantity: q})
			}
		}
	}
	if d := o.DatumHash(); d != nil {
		s := d.String()
		out.DatumHash = &s
	}
	if d := o.Datum(); d != nil && len(d.Cbor()) > 0 {
		out.InlineDatum = append([]byte(nil), d.Cbor()...)
	}
	if s := o.ScriptRef(); s != nil {
		h := s.Hash().String()
		out.ScriptRef = &h
	}
	if addr.Type() == common.AddressTypeByron {
		return out
	}
	pay := addr.PaymentKeyHash()
	out.PaymentCred = append([]byte(nil), pay[:]...)
	if cred, ok := addr.StakeCredential(); ok && len(cred.Credential) == 28 {
		header := byte(0xe0) | byte(addr.NetworkId()&0x0f)
		if cred.CredType == 1 {
			header |= 0x10 // script credential: stake address type 15
		}
		out.StakeRaw = append([]byte{header}, cred.Credential[:]...)
	}
	return out
}
