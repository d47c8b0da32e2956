package chaingen

import (
	"math/rand/v2"

	"github.com/blinklabs-io/gouroboros/ledger/common"
)

// setup creates the population: genesis holders, Byron and Shelley
// wallets, stake keys, special-role wallets, pools, the tx quota per epoch
// and the stake-registration schedule.
func (g *gen) setup() {
	n := g.opts.Txs
	nGenesis := clamp(n/20000, 8, 100)
	nWallets := clamp(n/8, 400, 4_000_000)
	nByron := max(20, nWallets/20)
	nPools := clamp(n/20000+10, 12, 300)

	for i := 0; i < 7; i++ {
		g.byronDelegates = append(g.byronDelegates, g.bytes(28))
		g.genesisDelegates = append(g.genesisDelegates, g.bytes(28))
	}
	for i := 0; i < nGenesis; i++ {
		w := g.newWallet(wByron, -1)
		g.wallets[w].special = true
		g.genesisHolders = append(g.genesisHolders, w)
	}
	for i := 0; i < nByron; i++ {
		g.byronOrd = append(g.byronOrd, g.newWallet(wByron, -1))
	}

	special := func() int32 {
		w := g.newWallet(wBase, g.newStake(false))
		g.wallets[w].special = true
		return w
	}
	g.whale = special()
	g.batcher = special()
	g.issuer68 = special()
	g.hoskyIss = special()
	g.burnIss = special()
	g.maxIss = special()
	g.nftMinter = special()
	g.busy = special()
	g.dexScript = g.bytes(1800)
	g.dexScriptHash = scriptHash(1, g.dexScript)
	g.dex = g.newScriptWallet(g.dexScriptHash, g.newStake(false))
	g.lockScript = g.bytes(900)
	g.lockHash = scriptHash(2, g.lockScript)
	g.lock = g.newScriptWallet(g.lockHash, -1)
	g.refHolder = g.newWallet(wEnterpriseScript, -1)
	g.wallets[g.refHolder].special = true
	g.stakes[g.wallets[g.whale].stake].regEpoch = firstShelley
	g.stakes[g.wallets[g.batcher].stake].regEpoch = firstShelley

	tickers := []string{"SGBIG", "TINY", "RTRD", "RTNG", "RREG", "CNCL"}
	roles := []string{"biggest", "small", "retired", "retiring", "re-registered", "cancelled-retirement"}
	for i := 0; i < nPools; i++ {
		s := g.newStake(false)
		g.stakes[s].owner = true
		w := g.newWallet(wBase, s)
		g.wallets[w].special = true
		p := pool{
			owner: s, wallet: w, hash: g.bytes(28), vrfHash: g.bytes(32),
			retiring: -1, retiredAt: -1, regEpoch: firstShelley, opCert: g.bytes(32),
			opCounter: int64(g.intn(6)),
			cost:      minPoolCost, margin: float64(g.intn(50)) / 1000,
			pledge: uint64(g.logUniform(1e3, 5e6)) * ada,
		}
		p.vrfKey = bech32Of("vrf_vk", g.bytes(32))
		p.view = common.PoolId(p.hash).String()
		if i < len(tickers) {
			p.ticker, p.role = tickers[i], roles[i]
		} else {
			p.ticker, p.role = "SG"+itoa3(i), "ordinary"
			if g.chance(0.25) {
				p.regEpoch = firstShelley + 1 + g.intn(4)
			}
			if g.chance(0.2) {
				p.cost = 500 * ada
			}
		}
		if i == poolBig {
			p.pledge, p.margin = 2_000_000*ada, 0.015
		}
		g.pools = append(g.pools, p)
	}

	g.setupCredentials()
	g.setupDReps(clamp(n/100000+6, 6, 60))

	nShelley := nWallets - nByron
	var recent []int32
	for i := 0; i < nShelley; i++ {
		x := g.r.Float64()
		var kind uint8
		switch {
		case x < 0.08:
			kind = wEnterprise
		case x < 0.09:
			kind = wEnterpriseScript
		case x < 0.11:
			kind = wBaseScript
		case x < 0.115:
			kind = wBaseKeyScript
		default:
			kind = wBase
		}
		stake := int32(-1)
		switch kind {
		case wBaseKeyScript:
			stake = g.newStake(true)
		case wBase, wBaseScript:
			if len(recent) > 0 && g.chance(0.35) {
				stake = recent[g.intn(len(recent))]
			} else {
				stake = g.newStake(false)
				recent = append(recent, stake)
				if len(recent) > 5 {
					recent = recent[1:]
				}
			}
		}
		g.shelleyOrd = append(g.shelleyOrd, g.newWallet(kind, stake))
	}
	g.r.Shuffle(len(g.shelleyOrd), func(i, j int) { g.shelleyOrd[i], g.shelleyOrd[j] = g.shelleyOrd[j], g.shelleyOrd[i] })
	g.zipf = rand.NewZipf(g.r, 1.07, 2, uint64(len(g.shelleyOrd)-1))
	g.zipfByron = rand.NewZipf(g.r, 1.2, 1, uint64(len(g.byronOrd)-1))

	// When each user stake key is first registered (and delegated).
	sched := []struct {
		p float64
		e int
	}{{0.30, 2}, {0.45, 3}, {0.55, 4}, {0.62, 5}, {0.69, 6}, {0.75, 7}, {0.80, 8}, {0.83, 9}, {0.86, 10}, {0.88, 11}}
	for i := range g.stakes {
		k := &g.stakes[i]
		if k.owner || k.regEpoch >= 0 || len(k.wallets) == 0 || g.wallets[k.wallets[0]].special {
			continue
		}
		x := g.r.Float64()
		for _, s := range sched {
			if x < s.p {
				k.regEpoch = s.e
				break
			}
		}
	}
	g.regQueue = make([][]int32, numEpochs+1)
	g.forcedPool = map[int32]int32{}
	for i := range g.stakes {
		if e := g.stakes[i].regEpoch; e >= 0 {
			g.regQueue[e] = append(g.regQueue[e], int32(i))
		}
	}
	// The small pool's only delegators (besides its owner): two early keys.
	for _, s := range g.regQueue[firstShelley] {
		if len(g.forcedPool) == 2 {
			break
		}
		if s != g.wallets[g.whale].stake && s != g.wallets[g.batcher].stake {
			g.forcedPool[s] = poolSmall
		}
	}

	// Transactions per epoch: genesis first, 2 % Byron, the rest over the
	// Shelley-era epochs with growing activity (the tip epoch is 70 % done).
	rem := n - nGenesis
	byronQ := max(50, rem*2/100)
	g.quota[0] = byronQ / 2
	g.quota[1] = byronQ - g.quota[0]
	weights := []int{8, 7, 7, 8, 10, 11, 12, 12, 13, 9}
	shelleyRem := rem - byronQ - busyTxs
	sum := 0
	for _, w := range weights {
		sum += w
	}
	used := 0
	for i, w := range weights {
		e := firstShelley + i
		g.quota[e] = shelleyRem * w / sum
		used += g.quota[e]
	}
	g.quota[tipEpoch] += shelleyRem - used
	g.quota[busyEpoch] += busyTxs
	g.nGenesis = nGenesis
	g.txPerBlock = clamp(n/50000, 3, 20)
}
