package handlers

import (
	"testing"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/fxamacker/cbor/v2"

	"github.com/syncgate/syncgate/node"
)

// synthTx is a Conway transaction made for a test: it spends what the test
// names (outputs of the seeded chain, of another test transaction, or of
// nothing known) with the fields the mempool routes report. The fake node
// checks nothing, so neither does this: the fields only have to decode.
type synthTx struct {
	ins, collateral, refs []node.Input
	outs                  []synthOut
	collateralReturn      *synthOut
	fee, donation         uint64
	ttl, start            *uint64
	withdrawals           map[string]uint64 // reward account (29 bytes, hex) → lovelace
	certs                 []any             // each a certificate as CBOR-ready values
	redeemers             [][2]uint64       // (tag, index), each with a budget
	invalid               bool
}

// synthOut is an output: an address (bech32), lovelace, assets (policy
// hex → name hex → quantity), an inline datum and a reference script.
type synthOut struct {
	addr        string
	lovelace    uint64
	assets      map[string]map[string]uint64
	inlineDatum []byte // CBOR
	scriptRef   []byte // CBOR of [language, script]
}

// synthCBOR encodes maps in a fixed order, so a transaction's bytes, and
// its hash, are the same every time.
var synthCBOR = func() cbor.EncMode {
	em, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		panic(err)
	}
	return em
}()

// raw is the transaction's CBOR.
func (s synthTx) raw(t *testing.T) []byte {
	t.Helper()
	body := map[int]any{0: synthInputs(t, s.ins), 1: synthOutputs(t, s.outs), 2: s.fee}
	if s.ttl != nil {
		body[3] = *s.ttl
	}
	if s.start != nil {
		body[8] = *s.start
	}
	if len(s.certs) > 0 {
		body[4] = s.certs
	}
	if len(s.withdrawals) > 0 {
		w := map[string]uint64{}
		for acct, q := range s.withdrawals {
			w[string(mustHex(t, acct))] = q
		}
		body[5] = cborBytesMap(w)
	}
	if len(s.collateral) > 0 {
		body[13] = synthInputs(t, s.collateral)
	}
	if s.collateralReturn != nil {
		body[16] = synthOutputs(t, []synthOut{*s.collateralReturn})[0]
		body[17] = s.collateralReturn.lovelace
	}
	if len(s.refs) > 0 {
		body[18] = synthInputs(t, s.refs)
	}
	if s.donation > 0 {
		body[22] = s.donation
	}
	witnesses := map[int]any{}
	if len(s.redeemers) > 0 {
		var rs []any
		for i, r := range s.redeemers {
			rs = append(rs, []any{r[0], r[1], 0, []any{1000 + i, 200_000 + i}})
		}
		witnesses[5] = rs
	}
	b, err := synthCBOR.Marshal([]any{body, witnesses, !s.invalid, nil})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tx is the transaction as the submit path decodes it (hash, CBOR).
func (s synthTx) tx(t *testing.T) *node.Tx {
	t.Helper()
	tx, err := node.DecodeTx(s.raw(t))
	if err != nil {
		t.Fatalf("a test transaction does not decode: %v", err)
	}
	return tx
}

// cborBytesMap is a map keyed by byte strings (Go strings encode as text).
type cborBytesMap map[string]uint64

func (m cborBytesMap) MarshalCBOR() ([]byte, error) {
	out := map[cbor.ByteString]uint64{}
	for k, v := range m {
		out[cbor.ByteString(k)] = v
	}
	return synthCBOR.Marshal(out)
}

// cborRational is a unit interval (tag 30).
type cborRational [2]uint64

func (r cborRational) MarshalCBOR() ([]byte, error) {
	return synthCBOR.Marshal(cbor.Tag{Number: 30, Content: []uint64{r[0], r[1]}})
}

func synthInputs(t *testing.T, ins []node.Input) []any {
	t.Helper()
	out := []any{}
	for _, in := range ins {
		out = append(out, []any{mustHex(t, in.TxHash), in.Index})
	}
	return out
}

func synthOutputs(t *testing.T, outs []synthOut) []any {
	t.Helper()
	var list []any
	for _, o := range outs {
		addr, err := common.NewAddress(o.addr)
		if err != nil {
			t.Fatalf("address %s: %v", o.addr, err)
		}
		raw, err := addr.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		m := map[int]any{0: raw, 1: o.lovelace}
		if len(o.assets) > 0 {
			ma := map[cbor.ByteString]map[cbor.ByteString]uint64{}
			for p, names := range o.assets {
				inner := map[cbor.ByteString]uint64{}
				for n, q := range names {
					inner[cbor.ByteString(mustHex(t, n))] = q
				}
				ma[cbor.ByteString(mustHex(t, p))] = inner
			}
			m[1] = []any{o.lovelace, ma}
		}
		if o.inlineDatum != nil {
			m[2] = []any{1, cbor.Tag{Number: 24, Content: o.inlineDatum}}
		}
		if o.scriptRef != nil {
			m[3] = cbor.Tag{Number: 24, Content: o.scriptRef}
		}
		list = append(list, m)
	}
	return list
}
