package demonode_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"slices"
	"testing"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/fxamacker/cbor/v2"
	"golang.org/x/crypto/blake2b"

	"github.com/syncgate/syncgate/node/demonode"
)

// testTx is a Conway transaction the tests build by hand, field by field,
// as a wallet library does: the CDDL's body map, a vkey witness set and
// auxiliary data with metadata.
type testTx struct {
	ins      []demonode.Input
	outs     []testOut
	fee      uint64
	ttl      uint64         // 0: none
	meta     map[uint64]any // label → metadatum (nil: no auxiliary data)
	signers  [][]byte       // required signers (body field 14)
	extra    map[uint64]any // more body fields (unsupported content)
	badHash  bool           // body field 7 not the auxiliary data's hash
	signWith []ed25519.PrivateKey
	forgeSig bool // the first witness carries a signature of other bytes
}

type testOut struct {
	addr   string
	coin   uint64
	assets map[[28]byte]map[string]uint64 // policy → name → quantity
}

var det = func() cbor.EncMode {
	em, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		panic(err)
	}
	return em
}()

func mustCBOR(t testing.TB, v any) []byte {
	t.Helper()
	b, err := det.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func addrBytes(t testing.TB, s string) []byte {
	t.Helper()
	a, err := common.NewAddress(s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// body is the body's CBOR (its hash is the transaction id).
func (b testTx) body(t testing.TB) []byte {
	t.Helper()
	ins := make([]any, len(b.ins))
	for i, in := range b.ins {
		ins[i] = []any{in.TxHash[:], in.Index}
	}
	outs := make([]any, len(b.outs))
	for i, o := range b.outs {
		var val any = o.coin
		if len(o.assets) > 0 {
			ma := map[[28]byte]map[cbor.ByteString]uint64{}
			for p, names := range o.assets {
				ma[p] = map[cbor.ByteString]uint64{}
				for n, q := range names {
					ma[p][cbor.ByteString(n)] = q
				}
			}
			val = []any{o.coin, ma}
		}
		outs[i] = map[uint64]any{0: addrBytes(t, o.addr), 1: val}
	}
	m := map[uint64]any{0: cbor.Tag{Number: 258, Content: ins}, 1: outs, 2: b.fee}
	if b.ttl > 0 {
		m[3] = b.ttl
	}
	if aux := b.aux(t); aux != nil {
		h := blake2b.Sum256(aux)
		if b.badHash {
			h[0] ^= 0xff
		}
		m[7] = h[:]
	}
	if len(b.signers) > 0 {
		s := make([]any, len(b.signers))
		for i, x := range b.signers {
			s[i] = x
		}
		m[14] = cbor.Tag{Number: 258, Content: s}
	}
	for k, v := range b.extra {
		m[k] = v
	}
	return mustCBOR(t, m)
}

// aux is the auxiliary data (Alonzo's tag-259 form), nil without metadata.
func (b testTx) aux(t testing.TB) []byte {
	if b.meta == nil {
		return nil
	}
	return mustCBOR(t, cbor.Tag{Number: 259, Content: map[uint64]any{0: b.meta}})
}

// build signs the body with every key and returns the transaction's CBOR
// and id.
func (b testTx) build(t testing.TB) ([]byte, string) {
	t.Helper()
	body := b.body(t)
	hash := blake2b.Sum256(body)
	var wits []any
	for i, k := range b.signWith {
		msg := hash[:]
		if b.forgeSig && i == 0 {
			msg = []byte("something else")
		}
		wits = append(wits, []any{[]byte(k.Public().(ed25519.PublicKey)), ed25519.Sign(k, msg)})
	}
	ws := map[uint64]any{}
	if len(wits) > 0 {
		ws[0] = cbor.Tag{Number: 258, Content: wits}
	}
	var aux any
	if a := b.aux(t); a != nil {
		aux = cbor.RawMessage(a)
	}
	return mustCBOR(t, []any{cbor.RawMessage(body), ws, true, aux}), hex.EncodeToString(hash[:])
}

// withFee sets the fee to the chain's minimum for the built size (44 per
// byte plus 155381) plus margin, and takes it from the change output,
// which holds all the rest before the fee.
func (b testTx) withFee(t testing.TB, change int, margin uint64) testTx {
	t.Helper()
	b.outs = slices.Clone(b.outs)
	all := b.outs[change].coin
	b.fee = 200_000 // the fee's own size barely changes: same CBOR head
	b.outs[change].coin = all - b.fee
	raw, _ := b.build(t)
	b.fee = 44*uint64(len(raw)) + 155381 + margin
	b.outs[change].coin = all - b.fee
	return b
}
