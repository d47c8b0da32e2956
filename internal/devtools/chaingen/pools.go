package chaingen

import (
	"encoding/json"
	"fmt"
	"strings"
)

type pool struct {
	role       string
	ticker     string
	hash       []byte
	view       string
	id         int64
	vrfHash    []byte
	vrfKey     string
	owner      int32
	wallet     int32
	pledge     uint64
	cost       uint64
	margin     float64
	registered bool
	retiring   int
	retiredAt  int
	leaderID   int64
	opCert     []byte
	opCounter  int64
	blocks     [numEpochs]int
	regEpoch   int
	updates    int
}

// Pool roles: the scenarios the tests and the bench need, then ordinary pools.
const (
	poolBig = iota
	poolSmall
	poolRetired
	poolRetiring
	poolReRegistered
	poolCancelled
	poolFirstOrdinary
)

// reap retires the pools whose retirement takes effect at e: the deposit is
// refunded to the reward account and every delegation to the pool is
// dropped (a later re-registration does not restore them).
func (g *gen) reap(e int) {
	for p := range g.pools {
		pl := &g.pools[p]
		if pl.retiring != e {
			continue
		}
		pl.registered, pl.retiring, pl.retiredAt = false, -1, e
		g.depositTotal -= poolDeposit
		if g.stakes[pl.owner].registered {
			g.payReward(pendingReward{stake: pl.owner, pool: int32(p), typ: "refund", amount: poolDeposit, spendable: e})
		} else {
			g.treasury += poolDeposit
		}
		var wiped []int32
		for i := range g.stakes {
			if g.stakes[i].pool == int32(p) {
				g.stakes[i].pool = -1
				wiped = append(wiped, int32(i))
			}
		}
		if p == poolRetired {
			g.retiredDelegators = wiped
		}
	}
}

// poolRegister registers a pool (a first registration, or again after its
// retirement took effect: deposit, active two epochs later) or updates a
// registered one (no deposit, active three epochs later; this also cancels
// a pending retirement).
func (g *gen) poolRegister(p int32) func() bool {
	return func() bool {
		if int(p) >= len(g.pools) {
			return false
		}
		pl := &g.pools[p]
		newReg := !pl.registered
		pledge, margin, cost := pl.pledge, pl.margin, pl.cost
		if !newReg || pl.retiredAt >= 0 {
			pledge = pledge/2 + uint64(g.logUniform(1e3, 2e6))*ada
			margin = float64(g.intn(60)) / 1000
			if g.chance(0.5) {
				cost = minPoolCost + uint64(g.intn(4))*50*ada
			}
		}
		owner := pl.owner
		ownerReg := !g.stakes[owner].registered
		var deposit int64
		n := 1
		if ownerReg {
			deposit += keyDeposit
			n++
		}
		if newReg {
			deposit += poolDeposit
			n++
		}
		metaHash := g.bytes(32)
		q := payReq{from: pl.wallet, deposit: deposit, nCerts: n, certs: func(txID int64) {
			idx := 0
			if ownerReg {
				g.certReg(txID, owner, idx)
				idx++
			}
			pl.pledge, pl.margin, pl.cost = pledge, margin, cost
			g.poolCert(txID, p, idx, newReg, metaHash)
			idx++
			if newReg {
				g.certDeleg(txID, owner, p, idx)
			}
		}}
		_, ok := g.pay(q)
		return ok
	}
}

func (g *gen) poolCert(txID int64, p int32, idx int, newReg bool, metaHash []byte) {
	pl := &g.pools[p]
	hid := g.ensurePoolHash(p)
	ticker := strings.ToLower(pl.ticker)
	var doc []byte
	if poolHasOffChain(p) {
		doc = poolMetaJSON(pl, pl.updates)
		metaHash = hashOf(doc) // fetched: the served bytes match the registered hash
	}
	g.ids.poolMetaRef++
	mref := g.ids.poolMetaRef
	g.t.poolMetaRef.int(mref).int(hid).text(fmt.Sprintf("https://pools.example.com/%s/meta-%d.json", ticker, pl.updates)).
		bytea(metaHash).int(txID).end()
	if doc != nil {
		g.ids.offChainPoolData++
		g.t.offChainPoolData.int(g.ids.offChainPoolData).int(hid).text(pl.ticker).bytea(metaHash).text(string(doc)).
			bytea(doc).int(mref).end()
	}
	active := int64(g.epoch) + 3
	if newReg {
		active = int64(g.epoch) + 2
	}
	g.ids.poolUpdate++
	pu := g.ids.poolUpdate
	t := g.t.poolUpdate.int(pu).int(hid).int(int64(idx)).bytea(pl.vrfHash).uint(pl.pledge).int(active).int(mref).
		float(pl.margin).uint(pl.cost).int(txID).int(g.ensureStake(pl.owner))
	if newReg {
		t.uint(poolDeposit)
	} else {
		t.null()
	}
	t.end()
	g.ids.poolOwner++
	g.t.poolOwner.int(g.ids.poolOwner).int(g.ensureStake(pl.owner)).int(pu).end()
	port := int64(3001)
	if p == poolRetired {
		port = 34567 // above 32767: stored correctly since 13.7.2.0
	}
	g.ids.poolRelay++
	g.t.poolRelay.int(g.ids.poolRelay).int(pu).text(fmt.Sprintf("198.51.100.%d", 1+int(p)%250)).null().null().null().int(port).end()
	g.ids.poolRelay++
	g.t.poolRelay.int(g.ids.poolRelay).int(pu).null().null().text("relays." + ticker + ".example.com").null().int(6000).end()
	if p%4 == 1 {
		// A DNS SRV relay: the name only, no port (db-sync stores it NULL).
		g.ids.poolRelay++
		g.t.poolRelay.int(g.ids.poolRelay).int(pu).null().null().null().text("_cardano._tcp." + ticker + ".example.com").null().end()
	}
	if p%3 == 0 {
		g.ids.poolRelay++
		g.t.poolRelay.int(g.ids.poolRelay).int(pu).null().text(fmt.Sprintf("2001:db8::%x", 0x100+int(p))).null().null().int(3001).end()
	}
	if newReg {
		pl.registered = true
	}
	pl.retiring = -1
	pl.updates++
}

func (g *gen) poolRetire(p int32, at int) func() bool {
	return func() bool {
		pl := &g.pools[p]
		if !pl.registered {
			return false
		}
		q := payReq{from: pl.wallet, nCerts: 1, certs: func(txID int64) {
			g.ids.poolRetire++
			g.t.poolRetire.int(g.ids.poolRetire).int(g.ensurePoolHash(p)).int(0).int(txID).int(int64(at)).end()
			pl.retiring = at
		}}
		_, ok := g.pay(q)
		return ok
	}
}

func (g *gen) ensurePoolHash(p int32) int64 {
	pl := &g.pools[p]
	if pl.id == 0 {
		g.ids.poolHash++
		pl.id = g.ids.poolHash
		g.t.poolHash.int(pl.id).bytea(pl.hash).text(pl.view).end()
	}
	return pl.id
}

// poolHasOffChain: which pools have fetched metadata (off_chain_pool_data).
// The others have none, as db-sync leaves them with fetching off (its
// default); the small and the ordinary manifest pools are among those.
func poolHasOffChain(p int32) bool {
	switch p {
	case poolBig, poolRetired, poolRetiring, poolReRegistered:
		return true
	}
	return p >= poolFirstOrdinary+2 && p%2 == 1
}

// poolMetaName is the metadata name of a pool's registration number rev;
// the biggest pool renamed itself with its update.
func poolMetaName(pl *pool, rev int) string {
	name := "SyncGate pool " + pl.ticker
	if pl.ticker == "SGBIG" && rev > 0 {
		name = "SyncGate Biggest Pool"
	}
	return name
}

// poolMetaJSON is the document a pool's metadata URL serves (CIP-6
// fields), different for every registration; only the biggest pool's
// latest one names an extended-metadata URL.
func poolMetaJSON(pl *pool, rev int) []byte {
	home := "https://" + strings.ToLower(pl.ticker) + ".example.com"
	var extended string
	if pl.ticker == "SGBIG" && rev > 0 {
		extended = home + "/extended.json"
	}
	b, err := json.Marshal(struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Ticker      string `json:"ticker"`
		Homepage    string `json:"homepage"`
		Extended    string `json:"extended,omitempty"`
	}{poolMetaName(pl, rev), fmt.Sprintf("A synthetic %s stake pool (metadata revision %d).", pl.role, rev+1),
		pl.ticker, home, extended})
	if err != nil {
		panic(err)
	}
	return b
}
