package chaingen

// fanOut pays n random wallets of set from a genesis holder (Byron
// distribution, the move to Shelley addresses).
func (g *gen) fanOut(from int32, set []int32, n int, lo, hi float64) bool {
	outs := make([]output, 0, n)
	for i := 0; i < n; i++ {
		outs = append(outs, output{w: set[g.intn(len(set))], value: uint64(g.logUniform(lo, hi)) * ada})
	}
	_, ok := g.pay(payReq{from: from, outs: outs})
	return ok
}

func (g *gen) fundSpecials() bool {
	var outs []output
	add := func(w int32, big uint64, small int, sv uint64) {
		outs = append(outs, output{w: w, value: big})
		for i := 0; i < small; i++ {
			outs = append(outs, output{w: w, value: sv})
		}
	}
	add(g.batcher, 200_000*ada, 12, 6*ada)
	add(g.credBase, 2_000*ada, 1, 25*ada)
	for _, w := range []int32{g.issuer68, g.hoskyIss, g.burnIss, g.maxIss, g.nftMinter} {
		add(w, 60_000*ada, 3, 10*ada)
	}
	_, ok := g.pay(payReq{from: g.genesisHolders[0], outs: outs})
	return ok
}

func (g *gen) fundPools(from int) bool {
	var outs []output
	for p := from; p < len(g.pools) && p < from+60; p++ {
		outs = append(outs, output{w: g.pools[p].wallet, value: g.pools[p].pledge + 5000*ada})
	}
	_, ok := g.pay(payReq{from: g.genesisHolders[1%len(g.genesisHolders)], outs: outs})
	return ok
}

// consolidate merges up to n UTxOs of a wallet into one payment to the
// whale (the busy donation address sweeping its takings).
func (g *gen) consolidate(w int32, n int) func() bool {
	return func() bool {
		wl := &g.wallets[w]
		var pre []input
		var total uint64
		for len(pre) < n && len(wl.utxos) > 0 {
			u := g.take(w, len(wl.utxos)-1)
			pre = append(pre, input{w: w, u: u, redeemer: -1})
			total += u.value
		}
		if total < 10*ada {
			g.restore(pre)
			return false
		}
		_, ok := g.pay(payReq{from: w, pre: pre, outs: []output{{w: g.whale, value: total - 5*ada}}})
		if !ok {
			g.restore(pre)
		}
		return ok
	}
}

func (g *gen) hasFunds(w int32) bool { return len(g.wallets[w].utxos) > 0 }

func (g *gen) pickSender() int32 {
	for i := 0; i < 6; i++ {
		w := g.shelleyOrd[g.zipf.Uint64()]
		if g.hasFunds(w) && g.wallets[w].balance >= 4*ada {
			return w
		}
	}
	for i := 0; i < 40; i++ {
		w := g.funded[g.intn(len(g.funded))]
		if !g.wallets[w].special && g.wallets[w].balance >= 4*ada {
			return w
		}
	}
	return -1
}

func (g *gen) pickRecipient(not int32) int32 {
	for {
		var w int32
		if g.chance(0.02) {
			w = g.byronOrd[g.zipfByron.Uint64()]
		} else {
			w = g.shelleyOrd[g.zipf.Uint64()]
		}
		if w != not {
			return w
		}
	}
}

// whaleBehind is true while the whale appears in fewer than 12.5 % of all
// transactions so far.
func (g *gen) whaleBehind() bool {
	return float64(g.wallets[g.whale].txCount) < 0.125*float64(g.mainTxs()+1)
}

func (g *gen) ordinaryTx() {
	if g.epoch < firstShelley {
		for i := 0; i < 20; i++ {
			if g.byronTx() {
				return
			}
		}
		panic("chaingen: no Byron transaction could be built")
	}
	for i := 0; i < 20; i++ {
		if g.tryOrdinary() {
			return
		}
	}
	if g.whalePay() {
		return
	}
	panic("chaingen: no transaction could be built")
}

func (g *gen) tryOrdinary() bool {
	toWhale := false
	if g.wallets[g.whale].balance > 0 && g.whaleBehind() {
		if len(g.wallets[g.whale].utxos) > 3 && g.chance(0.45) {
			return g.whalePay()
		}
		toWhale = true
	}
	s := g.pickSender()
	if s < 0 {
		return false
	}
	sw := &g.wallets[s]
	k := 1
	if g.chance(0.04) {
		k = 2 + g.intn(7)
	}
	total, ok := g.paymentTotal(sw.balance, k, 0.002, 0.7)
	if !ok {
		return false
	}
	var outs []output
	for i := 0; i < k; i++ {
		r := g.pickRecipient(s)
		if i == 0 && toWhale {
			r = g.whale
		}
		outs = append(outs, output{w: r, value: total / uint64(k)})
	}
	var pre []input
	// Sometimes a native asset goes along to the first recipient (not to
	// the exchange, which takes ADA only).
	if g.chance(0.5) && !toWhale {
		pre = g.assetAlong(s, 3, outs)
	}
	q := payReq{from: s, pre: pre, outs: outs}
	if st := sw.stake; st >= 0 && g.stakes[st].registered && g.stakes[st].rewardBal >= ada && g.chance(0.12) {
		q.wdls = []wdl{{stake: st, amount: g.stakes[st].rewardBal}}
		if g.stakes[st].script {
			q.scripts = append(q.scripts, nativeSpec(g.stakes[st].native))
		}
	}
	if g.chance(0.01) {
		q.meta = []metaEntry{{label: 674, v: mdMap{{"msg", []md{g.message()}}}}}
	}
	txID, ok := g.pay(q)
	if !ok {
		g.restore(pre)
		return false
	}
	if g.stats.ordinaryTx == 0 && g.epoch == busyEpoch-1 && len(q.meta) == 0 && len(q.wdls) == 0 {
		g.stats.ordinaryTx, g.stats.ordinaryHash = txID, g.curTxHash
	}
	return true
}

// paymentTotal is what a payment to k recipients sends from a wallet
// holding balance: a log-uniform share in [lo, hi) of it, at least 1 ADA a
// recipient; false when less than 3 ADA would be left for fee and change.
func (g *gen) paymentTotal(balance uint64, k int, lo, hi float64) (uint64, bool) {
	total := uint64(float64(balance) * g.logUniform(lo, hi))
	if total < uint64(k)*ada {
		total = uint64(k) * ada
	}
	return total, total+3*ada <= balance
}

// assetAlong sends a native asset along with outs[0]: it takes one of
// wallet s's outputs that carries assets (tries random picks at most) and
// puts some of one of its assets, at least one, on outs[0], which then
// holds at least minAda(1). It returns the output taken as a pre-chosen
// input (none when no pick carried assets).
func (g *gen) assetAlong(s int32, tries int, outs []output) []input {
	sw := &g.wallets[s]
	for try := 0; try < tries && len(sw.utxos) > 0; try++ {
		i := g.intn(len(sw.utxos))
		if len(sw.utxos[i].assets) == 0 {
			continue
		}
		u := g.take(s, i)
		a := u.assets[g.intn(len(u.assets))]
		q := a.qty
		if q > 1 {
			q = 1 + g.r.Uint64N(q)
		}
		outs[0].assets = []assetQty{{asset: a.asset, qty: q}}
		outs[0].value = max(outs[0].value, minAda(1))
		return []input{{w: s, u: u, redeemer: -1}}
	}
	return nil
}

var messageWords = []string{"thanks", "for", "the", "coffee", "rent", "invoice", "gift", "payout",
	"refund", "order", "staking", "airdrop", "swap", "deposit", "happy", "birthday", "#", "ok"}

func (g *gen) message() string {
	n := 2 + g.intn(5)
	var b []byte
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, messageWords[g.intn(len(messageWords))]...)
	}
	return string(b)
}

// whalePay: the exchange hot wallet pays out to several users.
func (g *gen) whalePay() bool {
	w := &g.wallets[g.whale]
	if len(w.utxos) == 0 {
		return false
	}
	k := 1 + g.intn(8)
	var outs []output
	var total uint64
	for i := 0; i < k; i++ {
		v := uint64(g.logUniform(20, 100_000)) * ada
		total += v
		outs = append(outs, output{w: g.pickRecipient(g.whale), value: v})
	}
	if total+10*ada > w.balance {
		return false
	}
	_, ok := g.pay(payReq{from: g.whale, outs: outs, maxIns: 60})
	return ok
}

func (g *gen) byronTx() bool {
	var s int32 = -1
	for i := 0; i < 4; i++ {
		w := g.byronOrd[g.zipfByron.Uint64()]
		if g.hasFunds(w) && g.wallets[w].balance >= 4*ada {
			s = w
			break
		}
	}
	if s < 0 {
		s = g.funded[g.intn(len(g.funded))]
	}
	sw := &g.wallets[s]
	if sw.balance < 4*ada {
		return false
	}
	k := 1
	if g.chance(0.1) {
		k = 2 + g.intn(3)
	}
	total, ok := g.paymentTotal(sw.balance, k, 0.001, 0.6)
	if !ok {
		return false
	}
	var outs []output
	for i := 0; i < k; i++ {
		r := g.byronOrd[g.zipfByron.Uint64()]
		if r == s {
			r = g.byronOrd[g.intn(len(g.byronOrd))]
		}
		outs = append(outs, output{w: r, value: total / uint64(k)})
	}
	_, ok = g.pay(payReq{from: s, outs: outs})
	return ok
}

// busyTx: one of the payments of the busy slot, all to one donation
// address. They are plain one-input payments, so the block stays within
// mainnet's 90112-byte limit.
func (g *gen) busyTx() {
	for i := 0; i < 30; i++ {
		s := g.pickSender()
		if s < 0 {
			continue
		}
		v := uint64(g.logUniform(2, 500)) * ada
		if v+3*ada > g.wallets[s].balance {
			continue
		}
		before := g.wallets[g.busy].txCount
		if _, ok := g.pay(payReq{from: s, outs: []output{{w: g.busy, value: v}}, maxIns: 1, plain: true}); ok {
			if g.wallets[g.busy].txCount > before {
				g.stats.busyCount++
			}
			g.stats.busySlot = g.slot
			g.stats.busyBlock = g.blockID
			return
		}
	}
	panic("chaingen: could not build a busy-slot payment")
}
