package node

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/blinklabs-io/gouroboros/ledger"
	"github.com/fxamacker/cbor/v2"
)

// MaxTxSize is the largest transaction accepted, in bytes: mainnet's
// maxTxSize protocol parameter (16 KiB). A larger transaction could never be
// included in a block, so it is refused before any decoding work.
const MaxTxSize = 16384

// Tx is a decoded, signed transaction ready to submit.
type Tx struct {
	// Hash is the transaction id: blake2b-256 of the body bytes exactly as
	// received, 64 lower-case hex characters.
	Hash string
	// EraID is the era gouroboros detected (ledger.TxType*), which is also
	// the hard-fork era index LocalTxSubmission expects.
	EraID uint16
	// Inputs are the spent inputs in the transaction's own order.
	Inputs []Input
	// CBOR is the transaction as received, forwarded to the node unchanged.
	CBOR []byte
	// InvalidBefore and InvalidHereafter are the body's validity interval
	// (fields 8 and 3): the transaction can only be in a block whose slot
	// is at least InvalidBefore and below InvalidHereafter (the TTL). Zero
	// means the bound is absent (Byron transactions have neither).
	InvalidBefore    uint64
	InvalidHereafter uint64
}

// Input is one spent output reference.
type Input struct {
	TxHash string // 64 lower-case hex characters
	Index  uint32
}

// String renders the input as <tx_hash>#<index>.
func (in Input) String() string { return in.TxHash + "#" + strconv.FormatUint(uint64(in.Index), 10) }

// InvalidTxError says why bytes are not a transaction we will submit. Reason
// is meant for the client ("Invalid transaction: <reason>").
type InvalidTxError struct{ Reason string }

func (e *InvalidTxError) Error() string { return "invalid transaction: " + e.Reason }

func invalid(format string, a ...any) error {
	return &InvalidTxError{Reason: fmt.Sprintf(format, a...)}
}

// wellformed checks that the bytes are exactly one well-formed CBOR item,
// without building it: a declared length of 2^64-1 allocates nothing. The
// nesting limit is gouroboros' own (deep Plutus datums exist on chain).
var wellformed = func() cbor.DecMode {
	dm, err := cbor.DecOptions{MaxNestedLevels: 256}.DecMode()
	if err != nil {
		panic(err)
	}
	return dm
}()

// DecodeTxHex decodes a hex-encoded signed transaction (DecodeTx).
func DecodeTxHex(s string) (*Tx, error) {
	if len(s) > 2*MaxTxSize {
		return nil, invalid("larger than %d bytes", MaxTxSize)
	}
	raw, err := hex.DecodeString(s)
	if err != nil {
		return nil, invalid("not hex")
	}
	return DecodeTx(raw)
}

// DecodeTx checks that raw is one well-formed CBOR transaction of a known era,
// at most MaxTxSize bytes, with at least one input, and returns it with its
// hash. Every failure is an *InvalidTxError; arbitrary bytes never panic.
func DecodeTx(raw []byte) (tx *Tx, err error) {
	switch {
	case len(raw) == 0:
		return nil, invalid("empty")
	case len(raw) > MaxTxSize:
		return nil, invalid("larger than %d bytes", MaxTxSize)
	}
	if err := wellformed.Wellformed(raw); err != nil {
		var extra *cbor.ExtraneousDataError
		if !errors.As(err, &extra) {
			return nil, invalid("malformed CBOR: %s", strings.TrimPrefix(err.Error(), "cbor: "))
		}
		if raw[0]>>5 == 4 { // one whole array followed by more bytes
			return nil, invalid("trailing bytes after the transaction")
		}
	}
	if raw[0]>>5 != 4 {
		return nil, invalid("not a transaction: expected a CBOR array")
	}
	// gouroboros decodes attacker-controlled bytes; a panic in it must
	// become a 400, not take the request down.
	defer func() {
		if r := recover(); r != nil {
			tx, err = nil, invalid("not a transaction: undecodable")
		}
	}()
	txType, err := ledger.DetermineTransactionType(raw)
	if err != nil {
		return nil, invalid("not a transaction: %s", err.Error())
	}
	lt, err := ledger.NewTransactionFromCbor(txType, raw)
	if err != nil {
		return nil, invalid("not a transaction: %s", err.Error())
	}
	ins := inputsOf(lt)
	if len(ins) == 0 {
		return nil, invalid("transaction has no inputs")
	}
	return &Tx{Hash: lt.Hash().String(), EraID: uint16(txType), CBOR: raw, Inputs: ins,
		InvalidBefore: lt.ValidityIntervalStart(), InvalidHereafter: lt.TTL()}, nil
}

// inputsOf lists a decoded transaction's spent inputs in its own order.
func inputsOf(lt ledger.Transaction) []Input {
	ins := lt.Inputs()
	out := make([]Input, len(ins))
	for i, in := range ins {
		out[i] = Input{TxHash: in.Id().String(), Index: in.Index()}
	}
	return out
}

// EraName is the era's name for logs ("Conway"), or "era <id>".
func EraName(id uint16) string {
	if id <= 0xff {
		if e := ledger.GetEraById(uint8(id)); e.Name != ledger.EraInvalid.Name {
			return e.Name
		}
	}
	return "era " + strconv.Itoa(int(id))
}
