package chaingen

import (
	"bytes"
	"slices"
)

// Transaction CBOR, as db-sync's tx_cbor option stores it: from the Conway
// era on (as if the option had been switched on then), every transaction
// the generator writes is also encoded as a Conway transaction (body,
// witness set, validity flag, auxiliary data), and its tx.hash is the
// blake2b-256 of that body, as on a real chain. The body carries what the
// generator knows of the transaction: inputs (with their transactions'
// hashes), outputs (address, value, datum), fee, validity interval,
// withdrawals, auxiliary data hash, mint, collateral inputs and return,
// required signers and reference inputs. Certificates, redeemers, scripts
// and datum witnesses are left out (the witness set is empty): the bytes
// decode as a Conway transaction whose id is tx.hash, not as one a node
// would accept.

// cborFrom is the first epoch whose transactions get their CBOR.
const cborFrom = firstConway

// recordTxHash remembers a transaction's hash for the transactions that
// spend or reference its outputs later.
func (g *gen) recordTxHash(txID int64, hash []byte) {
	if g.txHashByID != nil {
		g.txHashByID[txID] = hash
		return
	}
	if int64(len(g.txHashes)) != (txID-1)*32 {
		panic("chaingen: transaction hashes out of order")
	}
	g.txHashes = append(g.txHashes, hash...)
}

// txHashOf is transaction txID's hash (zeros when unknown).
func (g *gen) txHashOf(txID int64) []byte {
	if g.txHashByID != nil {
		if h, ok := g.txHashByID[txID]; ok {
			return h
		}
		return make([]byte, 32)
	}
	if txID < 1 || txID*32 > int64(len(g.txHashes)) {
		return make([]byte, 32)
	}
	return g.txHashes[(txID-1)*32 : txID*32]
}

// rawAddr is a wallet's address in binary form.
func (g *gen) rawAddr(w int32) []byte {
	wl := &g.wallets[w]
	if wl.raw == nil {
		wl.raw = rawAddress(wl.addr)
	}
	return wl.raw
}

// txCBOR encodes transaction b: its body and the whole transaction.
// validFrom is 0 for none.
func (g *gen) txCBOR(b *txb, validFrom, ttl uint64) (body, tx []byte) {
	w := &cborW{}
	n := 3
	opt := []bool{ttl > 0, len(b.wdls) > 0, len(b.meta) > 0, validFrom > 0, len(b.mints) > 0, len(b.collIns) > 0,
		len(b.signers) > 0, b.collRet != nil, b.collRet != nil, len(b.refIns) > 0}
	for _, o := range opt {
		if o {
			n++
		}
	}
	w.mapHead(n)
	w.int(0)
	g.cborInputs(w, b.ins)
	w.int(1)
	w.array(len(b.outs))
	for i := range b.outs {
		g.cborOutput(w, &b.outs[i])
	}
	w.int(2)
	w.int(int64(b.fee))
	if ttl > 0 {
		w.int(3)
		w.int(int64(ttl))
	}
	if len(b.wdls) > 0 {
		w.int(5)
		w.mapHead(len(b.wdls))
		for _, d := range b.wdls {
			_, raw := g.stakes[d.stake].stakeAddress()
			w.bytes(raw)
			w.int(int64(d.amount))
		}
	}
	var aux []byte
	if len(b.meta) > 0 {
		a := &cborW{}
		a.mapHead(len(b.meta))
		for _, m := range b.meta {
			_, cb := metadataRow(m.label, m.v)
			a.head(0, m.label)
			a.b = append(a.b, cb...)
		}
		aux = a.b
		w.int(7)
		w.bytes(hashOf(aux))
	}
	if validFrom > 0 {
		w.int(8)
		w.int(int64(validFrom))
	}
	if len(b.mints) > 0 {
		w.int(9)
		g.cborMint(w, b.mints)
	}
	if len(b.collIns) > 0 {
		w.int(13)
		g.cborInputs(w, b.collIns)
	}
	if len(b.signers) > 0 {
		w.int(14)
		w.array(len(b.signers))
		for _, s := range b.signers {
			w.bytes(s)
		}
	}
	if b.collRet != nil {
		w.int(16)
		g.cborOutput(w, b.collRet)
		var in uint64
		for _, c := range b.collIns {
			in += c.u.value
		}
		w.int(17)
		w.int(int64(in - min(in, b.collRet.value)))
	}
	if len(b.refIns) > 0 {
		w.int(18)
		w.array(len(b.refIns))
		for _, r := range b.refIns {
			w.array(2)
			w.bytes(g.txHashOf(r.txID))
			w.int(int64(r.index))
		}
	}
	body = w.b
	t := &cborW{b: make([]byte, 0, len(body)+len(aux)+8)}
	t.array(4)
	t.b = append(t.b, body...)
	t.mapHead(0) // witness set
	if b.invalid {
		t.b = append(t.b, 0xf4)
	} else {
		t.b = append(t.b, 0xf5)
	}
	if aux != nil {
		t.b = append(t.b, aux...)
	} else {
		t.b = append(t.b, 0xf6)
	}
	return body, t.b
}

func (g *gen) cborInputs(w *cborW, ins []input) {
	w.array(len(ins))
	for _, in := range ins {
		w.array(2)
		w.bytes(g.txHashOf(in.u.txID))
		w.int(int64(in.u.index))
	}
}

// cborOutput: a post-Alonzo output (map): address, value, datum option.
func (g *gen) cborOutput(w *cborW, o *output) {
	n := 2
	if o.datum != nil {
		n++
	}
	w.mapHead(n)
	w.int(0)
	w.bytes(g.rawAddr(o.w))
	w.int(1)
	if len(o.assets) == 0 {
		w.int(int64(o.value))
	} else {
		w.array(2)
		w.int(int64(o.value))
		qty := make([]int64, len(o.assets))
		ids := make([]int32, len(o.assets))
		for i, a := range o.assets {
			ids[i], qty[i] = a.asset, int64(a.qty)
		}
		g.cborMultiAsset(w, ids, qty)
	}
	if o.datum != nil {
		w.int(2)
		w.array(2)
		if o.inline {
			w.int(1)
			w.tag(24)
			w.bytes(o.datum.cbor)
		} else {
			w.int(0)
			w.bytes(o.datum.hash)
		}
	}
}

func (g *gen) cborMint(w *cborW, mints []mintEntry) {
	ids := make([]int32, 0, len(mints))
	qty := make([]int64, 0, len(mints))
	for _, m := range mints {
		q := int64(m.qty)
		if m.burn {
			q = -q
		}
		if i := slices.Index(ids, m.asset); i >= 0 {
			qty[i] += q
			continue
		}
		ids, qty = append(ids, m.asset), append(qty, q)
	}
	g.cborMultiAsset(w, ids, qty)
}

// cborMultiAsset writes {policy: {name: quantity}} in CBOR's canonical key
// order (shorter keys first, then bytewise).
func (g *gen) cborMultiAsset(w *cborW, ids []int32, qty []int64) {
	type entry struct {
		policy, name []byte
		qty          int64
	}
	es := make([]entry, len(ids))
	for i, id := range ids {
		a := &g.assets[id]
		es[i] = entry{a.policy, a.name, qty[i]}
	}
	canon := func(a, b []byte) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return bytes.Compare(a, b)
	}
	slices.SortFunc(es, func(a, b entry) int {
		if c := canon(a.policy, b.policy); c != 0 {
			return c
		}
		return canon(a.name, b.name)
	})
	policies := 0
	for i := range es {
		if i == 0 || !bytes.Equal(es[i].policy, es[i-1].policy) {
			policies++
		}
	}
	w.mapHead(policies)
	for i := 0; i < len(es); {
		j := i
		for j < len(es) && bytes.Equal(es[j].policy, es[i].policy) {
			j++
		}
		w.bytes(es[i].policy)
		w.mapHead(j - i)
		for _, e := range es[i:j] {
			w.bytes(e.name)
			w.int(e.qty)
		}
		i = j
	}
}

// requiredSigners are a transaction's required signers: its payer's key
// (when a key locks its coins) and up to two other keys.
func (g *gen) requiredSigners(from int32) [][]byte {
	n := 1 + g.intn(3)
	out := make([][]byte, 0, n)
	if wl := &g.wallets[from]; !wl.script && len(wl.payCred) == 28 {
		out = append(out, wl.payCred)
	}
	for len(out) < n {
		out = append(out, g.bytes(28))
	}
	return out
}
