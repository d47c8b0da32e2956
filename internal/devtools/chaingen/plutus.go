package chaingen

func (g *gen) dexSpec() *scriptSpec {
	return &scriptSpec{hash: g.dexScriptHash, typ: "plutusV1", bytes: g.dexScript}
}

func (g *gen) deployDexScript() bool {
	txID, ok := g.pay(payReq{from: g.batcher, outs: []output{{w: g.refHolder, value: 25 * ada, refScript: g.dexSpec()}}})
	if ok {
		g.dexRefOut = &outRef{txID: txID, index: 0}
	}
	return ok
}

func (g *gen) dexPlutus(n int) *plutusReq {
	pr := &plutusReq{}
	for i := 0; i < n; i++ {
		pr.redeemers = append(pr.redeemers, redeemerSpec{purpose: "spend", index: i, scriptHash: g.dexScriptHash,
			data: pdConstr{n: 0, fields: []pd{pdInt(int64(i))}}, mem: 600_000 + uint64(g.intn(400_000)), steps: 200_000_000 + uint64(g.intn(150_000_000))})
	}
	if g.dexRefOut != nil {
		pr.refIns = []outRef{*g.dexRefOut}
	} else {
		pr.scriptSize = len(g.dexScript)
	}
	return pr
}

// batch: the DEX batcher settles up to four open orders, paying each
// order's owner (less a 2 ADA batcher fee).
func (g *gen) batch() bool {
	dw := &g.wallets[g.dex]
	if len(dw.utxos) == 0 {
		return false
	}
	k := 1 + g.intn(min(4, len(dw.utxos)))
	var pre []input
	var outs []output
	for i := 0; i < k; i++ {
		u := g.take(g.dex, g.intn(len(g.wallets[g.dex].utxos)))
		pre = append(pre, input{w: g.dex, u: u, redeemer: i})
		owner, ok := g.dexOrders[u.outID]
		if !ok {
			owner = g.pickRecipient(g.dex)
		}
		v := u.value - 2*ada
		if u.value < 3*ada {
			v = u.value
		}
		outs = append(outs, output{w: owner, value: v, assets: u.assets})
	}
	pr := g.dexPlutus(k)
	var scripts []*scriptSpec
	if pr.scriptSize > 0 {
		scripts = []*scriptSpec{g.dexSpec()}
	}
	q := payReq{from: g.batcher, pre: pre, outs: outs, plutus: pr, scripts: scripts}
	// The batcher withdraws its whole reward balance (often zero) with
	// every fourth batch, as mainnet's busiest reward accounts do.
	g.stats.batches++
	if st := g.wallets[g.batcher].stake; g.stakes[st].registered && g.stats.batches%4 == 1 {
		q.wdls = []wdl{{stake: st, amount: g.stakes[st].rewardBal}}
	}
	_, ok := g.pay(q)
	if !ok {
		g.restore(pre)
	}
	return ok
}

// failedBatch is a batch that fails phase-2 validation: only its
// collateral is consumed; from Babbage on the collateral return comes back
// at the index after the (unrecorded) regular outputs.
func (g *gen) failedBatch() bool {
	c, ok := g.pickCollateral(g.batcher)
	if !ok {
		return false
	}
	k := 1 + g.intn(3)
	b := &txb{invalid: true, nBodyOuts: k + 1}
	pr := g.dexPlutus(k)
	b.redeemers = pr.redeemers
	b.refIns = pr.refIns
	b.scriptSize = pr.scriptSize
	if pr.scriptSize > 0 {
		b.scripts = []*scriptSpec{g.dexSpec()}
	}
	i := g.findUTxO(g.batcher, c.u.outID)
	u := g.take(g.batcher, i)
	in := input{w: g.batcher, u: u, redeemer: -1}
	b.ins = []input{in}
	b.collIns = []input{in}
	if eraOf(g.epoch) >= eraBabbage {
		total := b.minFee() * 3 / 2
		if u.value < total+ada {
			g.restore(b.ins)
			return false
		}
		b.collRet = &output{w: g.batcher, value: u.value - total}
		b.fee = total
	} else {
		b.fee = u.value
	}
	txID := g.commit(b)
	g.stats.failed++
	if b.collRet != nil && g.stats.failedTx == 0 {
		g.stats.failedTx, g.stats.failedHash, g.stats.failedIndex = txID, g.curTxHash, b.nBodyOuts
	}
	return true
}

type datumSpec struct {
	hash  []byte
	value string
	cbor  []byte
}

type scriptSpec struct {
	hash  []byte
	typ   string
	json  string
	bytes []byte
}

type redeemerSpec struct {
	purpose    string
	index      int
	scriptHash []byte
	data       pd
	mem, steps uint64
}

func redeemerFee(r redeemerSpec) uint64 {
	return uint64(float64(r.mem)*0.0577+float64(r.steps)*0.0000721) + 1
}

func (g *gen) ensureScript(s *scriptSpec, txID int64) int64 {
	key := string(s.hash)
	if id, ok := g.knownScripts[key]; ok {
		return id
	}
	g.ids.script++
	id := g.ids.script
	g.knownScripts[key] = id
	t := g.t.script.int(id).int(txID).bytea(s.hash).text(s.typ)
	if s.json != "" {
		t.text(s.json)
	} else {
		t.null()
	}
	if s.bytes != nil {
		t.bytea(s.bytes).int(int64(len(s.bytes)))
	} else {
		t.null().null()
	}
	t.end()
	return id
}

func (g *gen) ensureDatum(d *datumSpec, txID int64) int64 {
	key := string(d.hash)
	if id, ok := g.knownDatums[key]; ok {
		return id
	}
	g.ids.datum++
	id := g.ids.datum
	g.knownDatums[key] = id
	g.t.datum.int(id).bytea(d.hash).int(txID).text(d.value).bytea(d.cbor).end()
	return id
}

func (g *gen) ensureRedeemerData(v pd, txID int64) int64 {
	hash, js, cb := plutusData(v)
	key := string(hash)
	if id, ok := g.knownRedeemerData[key]; ok {
		return id
	}
	g.ids.redeemerData++
	id := g.ids.redeemerData
	g.knownRedeemerData[key] = id
	g.t.redeemerData.int(id).bytea(hash).int(txID).text(js).bytea(cb).end()
	return id
}

func nativeSpec(ns *nativeScript) *scriptSpec {
	return &scriptSpec{hash: ns.hash(), typ: "timelock", json: ns.json()}
}

func (g *gen) orderDatum(owner int32) *datumSpec {
	w := &g.wallets[owner]
	cred := w.payCred
	if cred == nil {
		cred = make([]byte, 28)
	}
	h, js, cb := plutusData(pdConstr{n: 0, fields: []pd{cred, pdInt(g.r.Int64N(1 << 40)), pdInt(g.mainTxs())}})
	return &datumSpec{hash: h, value: js, cbor: cb}
}

// placeOrder pays a DEX order to the script address: an inline datum from
// Babbage on, a datum hash (with the datum in the witness set) before.
func (g *gen) placeOrder() bool {
	s := g.pickSender()
	if s < 0 {
		return false
	}
	v := uint64(g.logUniform(5, 2000)) * ada
	if v+4*ada > g.wallets[s].balance {
		v = 5 * ada
		if v+4*ada > g.wallets[s].balance {
			return false
		}
	}
	d := g.orderDatum(s)
	o := output{w: g.dex, value: v, datum: d}
	q := payReq{from: s, outs: []output{o}}
	if eraOf(g.epoch) >= eraBabbage {
		q.outs[0].inline = true
	} else {
		q.datums = []*datumSpec{d}
	}
	g.pendingOrderOwner = s
	_, ok := g.pay(q)
	return ok
}
