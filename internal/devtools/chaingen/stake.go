package chaingen

import (
	"github.com/blinklabs-io/gouroboros/ledger/common"
)

type stakeKey struct {
	cred       []byte
	script     bool
	native     *nativeScript
	id         int64
	wallets    []int32
	registered bool
	pool       int32
	utxoBal    uint64
	rewardBal  uint64
	utxos      int64
	regEpoch   int
	owner      bool  // a pool's reward/owner account
	drep       int32 // current vote delegation (index into gen.dreps), -1 for none

	// history, for the manifest's account examples
	regs, deregs, rewards, withdrawals, voteDelegs int32
}

type snapEntry struct {
	stake  int32
	pool   int32
	amount uint64
}

type pendingReward struct {
	stake     int32
	pool      int32
	typ       string
	amount    uint64
	spendable int
}

// stakeAddress renders a stake key: its bech32 view and its 29-byte
// reward-account bytes (header e1 for a key, f1 for a script, mainnet).
// Computed when needed rather than kept for every key.
func (k *stakeKey) stakeAddress() (view string, raw []byte) {
	typ := uint8(common.AddressTypeNoneKey)
	if k.script {
		typ = common.AddressTypeNoneScript
	}
	a, err := common.NewAddressFromParts(typ, common.AddressNetworkMainnet, nil, k.cred)
	if err != nil {
		panic(err)
	}
	raw, err = a.Bytes()
	if err != nil {
		panic(err)
	}
	return a.String(), raw
}

func (k *stakeKey) view() string {
	v, _ := k.stakeAddress()
	return v
}

func (g *gen) newStake(script bool) int32 {
	k := stakeKey{script: script, pool: -1, regEpoch: -1, drep: -1}
	if script {
		ns := &nativeScript{keyHash: g.bytes(28)}
		k.native = ns
		k.cred = ns.hash()
	} else {
		k.cred = g.bytes(28)
	}
	g.stakes = append(g.stakes, k)
	return int32(len(g.stakes) - 1)
}

func (g *gen) snapshot(e int) {
	var entries []snapEntry
	for i := range g.stakes {
		k := &g.stakes[i]
		if !k.registered || k.pool < 0 || !g.pools[k.pool].registered {
			continue
		}
		amt := k.utxoBal + k.rewardBal
		if amt == 0 {
			continue
		}
		entries = append(entries, snapEntry{stake: int32(i), pool: k.pool, amount: amt})
		g.ids.epochStake++
		g.t.epochStake.int(g.ids.epochStake).int(g.ensureStake(int32(i))).int(g.ensurePoolHash(k.pool)).
			uint(amt).int(int64(e) + 1).end()
	}
	g.snaps[e+1] = entries
	g.ids.epochStakeProgress++
	g.t.epochStakeProgress.int(g.ids.epochStakeProgress).int(int64(e) + 1).bool(true).end()
}

// credit pays rewards and MIR rewards that become spendable at e, and
// applies the pot transfers taking effect at e.
func (g *gen) credit(e int) {
	keep := g.pendingRew[:0]
	for _, r := range g.pendingRew {
		if r.spendable == e {
			if g.stakes[r.stake].registered {
				g.payReward(r)
			}
		} else {
			keep = append(keep, r)
		}
	}
	g.pendingRew = keep
	keepRest := g.pendingRest[:0]
	for _, r := range g.pendingRest {
		if r.spendable != e {
			keepRest = append(keepRest, r)
			continue
		}
		if r.typ == "proposal_refund" && g.gov != nil {
			g.gov.depProp -= r.amount
			if !g.stakes[r.stake].registered {
				g.treasury += r.amount // an unregistered return account: the deposit goes to the treasury
			}
		}
		if !g.stakes[r.stake].registered {
			continue
		}
		g.t.rewardRest.int(g.ensureStake(r.stake)).text(r.typ).uint(r.amount).int(int64(r.spendable)).end()
		g.stakes[r.stake].rewardBal += r.amount
		g.rewardTotal += r.amount
		if r.typ == "treasury" {
			g.treasury -= r.amount
		}
		g.stats.rewardRest++
	}
	g.pendingRest = keepRest
	keepPot := g.pendingPot[:0]
	for _, p := range g.pendingPot {
		if p.epoch == e {
			g.treasury += p.toTreasury // the reserves, the remainder, shrink by as much
		} else {
			keepPot = append(keepPot, p)
		}
	}
	g.pendingPot = keepPot
}

func (g *gen) payReward(r pendingReward) {
	g.t.reward.int(g.ensureStake(r.stake)).text(r.typ).uint(r.amount).int(int64(r.spendable)).
		int(g.ensurePoolHash(r.pool)).end()
	g.stakes[r.stake].rewardBal += r.amount
	g.stakes[r.stake].rewards++
	g.rewardTotal += r.amount
	g.stats.rewards++
}

// computeRewards: rewards earned in epoch x by the stake of epoch_stake(x),
// for pools that produced blocks in x; spendable at x+2.
func (g *gen) computeRewards(x int) {
	entries := g.snaps[x]
	totals := map[int32]uint64{}
	for _, s := range entries {
		totals[s.pool] += s.amount
	}
	for p := range g.pools {
		pl := &g.pools[p]
		total := totals[int32(p)]
		if pl.blocks[x] == 0 || total == 0 {
			continue
		}
		pot := uint64(float64(total) * memberRate)
		lead := min(pot, pl.cost)
		lead += uint64(pl.margin * float64(pot-lead))
		if lead > 0 {
			g.pendingRew = append(g.pendingRew, pendingReward{stake: pl.owner, pool: int32(p), typ: "leader", amount: lead, spendable: x + 2})
		}
		members := pot - lead
		for _, s := range entries {
			if s.pool != int32(p) || s.stake == pl.owner {
				continue
			}
			amt := uint64(float64(members) * float64(s.amount) / float64(total))
			if amt > 0 {
				g.pendingRew = append(g.pendingRew, pendingReward{stake: s.stake, pool: s.pool, typ: "member", amount: amt, spendable: x + 2})
			}
		}
	}
}

func (g *gen) stakeWallet(s int32) int32 {
	for _, w := range g.stakes[s].wallets {
		wl := &g.wallets[w]
		if wl.balance >= 6*ada && wl.kind != wPlutusBase && wl.kind != wPlutusEnterprise {
			return w
		}
	}
	return -1
}

func (g *gen) certReg(txID int64, s int32, idx int) {
	g.ids.stakeReg++
	g.t.stakeRegistration.int(g.ids.stakeReg).int(g.ensureStake(s)).int(int64(idx)).int(int64(g.epoch)).
		int(txID).uint(keyDeposit).end()
	g.stakes[s].registered = true
	g.stakes[s].regs++
}

func (g *gen) certDeleg(txID int64, s, p int32, idx int) {
	g.ids.delegation++
	g.t.delegation.int(g.ids.delegation).int(g.ensureStake(s)).int(int64(idx)).int(g.ensurePoolHash(p)).
		int(int64(g.epoch) + 2).int(txID).uint(g.slot).null().end()
	g.stakes[s].pool = p
}

func (g *gen) choosePool(s int32) int32 {
	if p, ok := g.forcedPool[s]; ok && g.pools[p].registered {
		return p
	}
	if g.chance(0.36) && g.pools[poolBig].registered {
		return poolBig
	}
	for i := 0; i < 20; i++ {
		p := int32(poolRetired + g.intn(len(g.pools)-poolRetired))
		if g.pools[p].registered {
			return p
		}
	}
	return poolBig
}

func (g *gen) registerAndDelegate(s int32) func() bool {
	return func() bool {
		k := &g.stakes[s]
		if k.registered {
			return false
		}
		w := g.stakeWallet(s)
		if w < 0 {
			if g.epoch < tipEpoch {
				g.regQueue[g.epoch+1] = append(g.regQueue[g.epoch+1], s)
			}
			return false
		}
		p := g.choosePool(s)
		return g.payByKey(k, payReq{from: w, deposit: keyDeposit, nCerts: 2, certs: func(txID int64) {
			g.certReg(txID, s, 0)
			g.certDeleg(txID, s, p, 1)
		}})
	}
}

func (g *gen) deregister(s int32) func() bool {
	return g.keyAction(s, func(k *stakeKey, w int32) (payReq, bool) {
		q := payReq{from: w, deposit: -keyDeposit, nCerts: 1, certs: func(txID int64) {
			g.ids.stakeDereg++
			g.t.stakeDeregistration.int(g.ids.stakeDereg).int(g.ensureStake(s)).int(0).int(int64(g.epoch)).
				int(txID).null().end()
			k.registered, k.pool, k.drep = false, -1, -1
			k.deregs++
			g.stats.deregistrations++
		}}
		if k.rewardBal > 0 {
			q.wdls = []wdl{{stake: s, amount: k.rewardBal}}
		}
		return q, true
	})
}

func (g *gen) redelegate(s int32) func() bool {
	return g.keyAction(s, func(k *stakeKey, w int32) (payReq, bool) {
		p := g.choosePool(s)
		if p == k.pool {
			return payReq{}, false
		}
		return payReq{from: w, nCerts: 1, certs: func(txID int64) { g.certDeleg(txID, s, p, 0) }}, true
	})
}

// keyAction is a transaction of the registered stake key s, paid from its
// wallet: build makes it (false: nothing to do) and payByKey sends it.
func (g *gen) keyAction(s int32, build func(k *stakeKey, w int32) (payReq, bool)) func() bool {
	return func() bool {
		k := &g.stakes[s]
		if !k.registered {
			return false
		}
		w := g.stakeWallet(s)
		if w < 0 {
			return false
		}
		q, ok := build(k, w)
		return ok && g.payByKey(k, q)
	}
}

// payByKey pays q, a transaction of stake key k, witnessed by the key's
// native script when it is a script key.
func (g *gen) payByKey(k *stakeKey, q payReq) bool {
	if k.script {
		q.scripts = []*scriptSpec{nativeSpec(k.native)}
	}
	_, ok := g.pay(q)
	return ok
}

func (g *gen) countRegistered() int {
	n := 0
	for i := range g.stakes {
		if g.stakes[i].registered && !g.stakes[i].owner {
			n++
		}
	}
	return n
}

// pickRegistered picks up to n registered user keys, deterministically.
func (g *gen) pickRegistered(n int) []int32 {
	var out []int32
	if len(g.stakes) == 0 {
		return nil
	}
	i := g.intn(len(g.stakes))
	for tries := 0; tries < len(g.stakes) && len(out) < n; tries++ {
		k := &g.stakes[i]
		if k.registered && !k.owner && (len(k.wallets) == 0 || !g.wallets[k.wallets[0]].special) {
			if _, forced := g.forcedPool[int32(i)]; !forced {
				out = append(out, int32(i))
			}
		}
		i = (i + 1 + g.intn(13)) % len(g.stakes)
	}
	return out
}

func (g *gen) ensureStake(s int32) int64 {
	k := &g.stakes[s]
	if k.id == 0 {
		g.ids.stakeAddress++
		k.id = g.ids.stakeAddress
		var sh []byte
		if k.script {
			sh = k.cred
		}
		if g.t.stakeAddress.dry {
			g.t.stakeAddress.end()
		} else {
			view, raw := k.stakeAddress()
			g.t.stakeAddress.int(k.id).bytea(raw).text(view).bytea(sh).end()
		}
	}
	return k.id
}
