package chaingen

// planTasks lists the non-ordinary transactions of epoch e (funding,
// certificates, mints, scripts, the pool scenarios), each at a relative
// position in the epoch. Whatever the quota leaves is ordinary traffic.
func (g *gen) planTasks(e int) []task {
	var core, extra []task
	add := func(at float64, fn func() bool) { core = append(core, task{at, fn}) }
	opt := func(at float64, fn func() bool) { extra = append(extra, task{at, fn}) }
	rnd := func() float64 { return 0.02 + 0.96*g.r.Float64() }

	switch e {
	case 0:
		n := (len(g.byronOrd) + 24) / 25
		for i := 0; i < n; i++ {
			h := g.genesisHolders[i%len(g.genesisHolders)]
			add(0.3*float64(i)/float64(n), func() bool { return g.fanOut(h, g.byronOrd, 25, 50, 1_000_000) })
		}
	case firstShelley:
		add(0, g.fundSpecials)
		for i := 0; i*60 < len(g.pools); i++ {
			i := i
			add(0.001, func() bool { return g.fundPools(i * 60) })
		}
		for i := 0; i < 3; i++ {
			h := g.genesisHolders[(2+i)%len(g.genesisHolders)]
			add(0.002, func() bool {
				_, ok := g.pay(payReq{from: h, outs: []output{{w: g.whale, value: 1_000_000_000 * ada}}})
				return ok
			})
		}
		n := (len(g.shelleyOrd)*3/4 + 39) / 40
		for i := 0; i < n; i++ {
			h := g.genesisHolders[i%len(g.genesisHolders)]
			add(0.003+0.25*float64(i)/float64(n), func() bool { return g.fanOut(h, g.shelleyOrd, 40, 10, 200_000) })
		}
	}

	if g.mir != nil {
		add(0.5, g.mirTx)
	}
	if e >= firstShelley+1 && e < firstConway {
		add(0.6, g.proposeUpdate(e))
	}

	// Pool registrations, updates and retirements.
	for p := range g.pools {
		if g.pools[p].regEpoch == e {
			add(0.26+0.14*float64(p)/float64(len(g.pools)), g.poolRegister(int32(p)))
		}
	}
	S := firstShelley
	switch e {
	case S + 3: // Mary
		add(0.30, g.poolRetire(poolReRegistered, e+1))
		add(0.50, g.poolRegister(poolFirstOrdinary))
		add(0.10, g.mintHosky)
		add(0.12, g.mintSimple(g.maxIss, "SGMAX", ^uint64(0)))
		add(0.14, g.mintSimple(g.burnIss, "SGBURN", 1_000_000_000))
		add(0.20, g.mintSpaceBud(false))
	case S + 4: // Alonzo
		add(0.20, g.burnToken(g.nftMinter, g.spaceBud(), 1))
		add(0.30, g.burnToken(g.burnIss, g.sgAsset("SGBURN"), 200_000_000))
		add(0.25, g.mintTestBudz)
		add(0.40, g.poolRetire(poolCancelled, e+3))
	case S + 5: // Babbage
		add(0.02, g.deployDexScript)
		for i, tok := range g.cip68Tokens() {
			add(0.05+0.02*float64(i), g.mintCIP68(tok))
		}
		add(0.20, g.mintSpaceBud(true))
		add(0.25, g.mintCIP25v2)
		add(0.27, g.mintChunkedArt)
		add(0.30, g.mintSimple(g.burnIss, "SGBURN", 500_000_000))
		add(0.35, g.poolRegister(poolCancelled))
		add(0.40, g.poolRetire(poolRetired, e+2))
		add(0.60, g.sendToken(g.nftMinter, g.spaceBud(), 1, 1))
		add(0.62, g.sendToken(g.nftMinter, g.berrySand(), 1, 1))
		for i := range g.cip68 {
			add(0.5+0.04*float64(i), g.distributeCIP68(i))
		}
	case S + 6:
		add(0.20, g.poolRegister(poolReRegistered))
		add(0.30, g.updateCIP68Datum)
		add(0.40, g.sendToken(g.burnIss, g.sgAsset("SGBURN"), 300_000_000, 3))
		for i := range g.cip68 {
			add(0.5+0.04*float64(i), g.distributeCIP68(i))
		}
	case S + 7:
		add(0.20, g.consolidate(g.busy, 40))
		add(0.30, g.burnToken(g.burnIss, g.sgAsset("SGBURN"), 100_000_000))
		add(0.40, g.sendToken(g.maxIss, g.sgAsset("SGMAX"), 1<<63, 1))
		add(0.50, g.poolRegister(poolFirstOrdinary+1))
		for i, s := range g.retiredDelegators {
			if i%5 < 3 {
				add(rnd(), g.redelegate(s))
			}
		}
	case S + 8:
		add(0.20, g.consolidate(g.busy, 40))
		add(0.30, g.poolRetire(poolRetiring, e+2))
		add(0.45, g.poolRegister(poolBig))
	}

	q := g.quota[e]
	if e == busyEpoch {
		q -= busyTxs
	}
	// Recurring activity of the later eras, scaled by the epoch's quota.
	if e >= S+3 {
		for i := 0; i < max(1, q/2500); i++ {
			opt(rnd(), g.mintRandom)
		}
		if e <= S+8 {
			for i := 0; i < max(1, q/4000); i++ {
				opt(0.15+0.8*g.r.Float64(), g.airdropHosky)
			}
		}
	}
	if e >= S+4 {
		for i := 0; i < max(3, q/150); i++ {
			opt(rnd(), g.placeOrder)
		}
		for i := 0; i < max(2, q/300); i++ {
			opt(rnd(), g.batch)
		}
		for i := 0; i < max(1, q/2000); i++ {
			opt(rnd(), g.failedBatch)
		}
	}
	if e >= S+3 && e < tipEpoch {
		for _, s := range g.pickRegistered(max(1, g.countRegistered()/66)) {
			opt(rnd(), g.deregister(s))
			if g.chance(0.5) {
				next := e + 1 + g.intn(2)
				if next <= tipEpoch {
					g.regQueue[next] = append(g.regQueue[next], s)
				}
			}
		}
	}
	if e >= S+2 {
		for _, s := range g.pickRegistered(max(1, g.countRegistered()/66)) {
			opt(rnd(), g.redelegate(s))
		}
	}
	if e >= firstConway {
		g.voteTasks(e, opt, rnd)
	}
	g.credentialTasks(e, add)

	// Stake registrations (with delegation) scheduled for this epoch; what
	// does not fit in the quota moves to the next epoch.
	regs := g.regQueue[e]
	g.regQueue[e] = nil
	room := q*85/100 - len(core) - len(extra)
	for i, s := range regs {
		if i >= room && e < tipEpoch {
			g.regQueue[e+1] = append(g.regQueue[e+1], s)
			continue
		}
		at := rnd()
		if e == firstShelley {
			at = 0.40 + 0.59*float64(i)/float64(len(regs))
		}
		extra = append(extra, task{at, g.registerAndDelegate(s)})
	}
	room = q*9/10 - len(core)
	if len(extra) > room {
		extra = extra[:max(room, 0)]
	}
	return append(core, extra...)
}
