package node

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/blinklabs-io/gouroboros/ledger"
	"github.com/fxamacker/cbor/v2"

	"github.com/syncgate/syncgate/node/nodetest"
)

func mustCBOR(t *testing.T, v any) []byte {
	t.Helper()
	b, err := cbor.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDescribeReason(t *testing.T) {
	txid, _ := hex.DecodeString("279184037d249e397d97293738370756da559718fcdefae9924834840046b37b")
	set := func(items ...any) cbor.Tag { return cbor.Tag{Number: 258, Content: items} }
	conway := func(failures ...any) []byte { return mustCBOR(t, []any{[]any{6, failures}}) }
	em, _ := nodetest.EraMismatch(6, "Conway", 5, "Babbage").(*ledger.EraMismatch).MarshalCBOR()
	cases := []struct {
		name string
		raw  []byte
		want string
	}{
		{"Conway bad inputs", []byte(nodetest.ConwayBadInputs(txid, 1)),
			"ConwayUtxowFailure (UtxoFailure (BadInputsUTxO 258([[h'279184037d249e397d97293738370756da559718fcdefae9924834840046b37b', 1]])))"},
		{"Conway fee too small", conway([]any{1, []any{0, []any{5, 1000, 2000}}}),
			"ConwayUtxowFailure (UtxoFailure (FeeTooSmallUTxO 1000 2000))"},
		{"Conway missing witnesses", conway([]any{1, []any{2, set(txid[:28])}}),
			"ConwayUtxowFailure (MissingVKeyWitnessesUTXOW 258([h'279184037d249e397d97293738370756da559718fcdefae992483484']))"},
		{"Conway mempool, two failures", conway([]any{7, "All inputs are spent."}, []any{6, 300000, 200000}),
			`ConwayMempoolFailure "All inputs are spent."; ConwayTxRefScriptsSizeTooBig 300000 200000`},
		{"Conway unknown constructors", conway([]any{42, 1}, []any{1, []any{0, []any{99}}}),
			"UnknownConstructor42 1; ConwayUtxowFailure (UtxoFailure (UnknownConstructor99))"},
		{"Conway odd failure shape", conway("text"), `[[6, ["text"]]]`},
		{"era mismatch", em,
			"The era of the node and the tx do not match. The node is running in the Conway era, but the transaction is for the Babbage era."},
		{"plain text reason", mustCBOR(t, "mempool is full"), "mempool is full"},
		{"other CBOR", mustCBOR(t, map[string]int{"a": 1}), `{"a": 1}`},
		{"Babbage-era failure list", mustCBOR(t, []any{[]any{5, []any{[]any{99}}}}), `[[5, [[99]]]]`},
		{"not CBOR", []byte{0xff, 0x01}, "h'ff01'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			decoded, _ := ledger.NewTxSubmitErrorFromCbor(tc.raw)
			if got := describeReason(decoded, tc.raw); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestDescribeReasonBounded(t *testing.T) {
	raw := mustCBOR(t, strings.Repeat("x", 5000))
	decoded, _ := ledger.NewTxSubmitErrorFromCbor(raw)
	got := describeReason(decoded, raw)
	if len(got) != maxReasonLen+len("…") || !strings.HasSuffix(got, "…") {
		t.Errorf("len %d", len(got))
	}
}
