package dbsync

import "testing"

// A remembered transaction's details are used only for the same hash in
// the same block: a rollback that gives the id to another transaction, or
// puts the transaction in another block, reads them again.
func TestMemoDetailNeedsSameHashAndBlock(t *testing.T) {
	m := newDetailMemo(1 << 20)
	tx := Tx{TxRef: TxRef{ID: 7, Hash: "aa", BlockHash: "b1"}, Inputs: []TxInput{{TxHash: "cc"}}}
	m.rememberDetail(tx)
	if d, ok := m.detail(tx.TxRef); !ok || len(d.inputs) != 1 {
		t.Fatal("the remembered transaction was not found")
	}
	for _, ref := range []TxRef{{ID: 7, Hash: "ab", BlockHash: "b1"}, {ID: 7, Hash: "aa", BlockHash: "b2"}, {ID: 8, Hash: "aa", BlockHash: "b1"}} {
		if _, ok := m.detail(ref); ok {
			t.Errorf("details of %+v served from another transaction's", ref)
		}
	}
	if _, ok := newDetailMemo(-1).detail(tx.TxRef); ok {
		t.Error("a memo that is off found something")
	}
}
