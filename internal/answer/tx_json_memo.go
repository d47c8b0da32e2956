package answer

import (
	"slices"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/platform/bounded"
)

// txJSONMemoBytes bounds the memo of written transactions (per process).
const txJSONMemoBytes = 12 << 20

// txJSONKey names a transaction as written: the same transaction in the
// same block always writes the same bytes (its inputs and outputs never
// change), so a detailed history page copies the transactions it has
// written before instead of writing them again. Writing is most of a
// detailed page's server time once its rows come from the history memo
// (a busy slot's page of hundreds of transactions: most of the request's CPU).
type txJSONKey struct {
	hash, blockHash string
	grouped         bool
}

// txJSONMemo is the server's written-transaction memo.
type txJSONMemo struct {
	m *bounded.Map[txJSONKey, []byte]
}

func newTxJSONMemo() txJSONMemo {
	return txJSONMemo{m: bounded.New[txJSONKey, []byte](txJSONMemoBytes, nil)}
}

// written returns t as wire.AppendTx writes it, from the memo when it can.
// The bytes are shared: callers copy them, never change them.
func (m txJSONMemo) written(t dbsync.Tx, grouped bool) []byte {
	k := txJSONKey{hash: t.Hash, blockHash: t.BlockHash, grouped: grouped}
	if w, ok := m.m.Get(k); ok {
		return w
	}
	w := wire.AppendTx(nil, t, grouped)
	m.m.Set(k, w, len(w)+len(k.hash)+len(k.blockHash)+64)
	return w
}

// envelopeTail is room for what the envelope writes after the data
// (pagination, last_updated), so the buffer is not copied once more.
const envelopeTail = 512

// appendTxs appends txs as a JSON array. The transactions are written (or
// found) first, so the answer's buffer is allocated once at its size: grown
// by appending, a busy slot's page spent much of its CPU copying.
func (m txJSONMemo) appendTxs(b []byte, txs []dbsync.Tx, grouped bool) []byte {
	parts := make([][]byte, len(txs))
	n := len(b) + len(txs) + 2
	for i, t := range txs {
		parts[i] = m.written(t, grouped)
		n += len(parts[i])
	}
	b = slices.Grow(b, n-len(b)+envelopeTail)
	b = append(b, '[')
	for i, p := range parts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, p...)
	}
	return append(b, ']')
}
