package chaingen

import (
	"math/rand/v2"
	"slices"
	"sort"
)

// Conway governance beyond vote delegation (gov*.go): DRep registrations,
// updates and retirements, the constitutional committee and its hot keys,
// proposals of every kind through their life, votes, off-chain anchor
// documents, and per-epoch DRep and pool distributions.
//
// Governance transactions come on top of each epoch's quota and draw from
// a random source of their own (govState.r), so the chain every other
// table describes is the one it was before governance was added: the same
// ordinary traffic, the same addresses, pools and assets. They are paid by
// the governance desk, an enterprise wallet outside the traffic, funded
// once from a genesis holder that has been idle since the Shelley era.

// govState is the governance the chain has made so far.
type govState struct {
	r      *rand.Rand
	desk   int32 // the paying wallet; -1 until funded
	events []govEvent
	txs    int64 // governance transactions so far (not part of the quota)

	proposals []*proposal
	byKey     map[string]*proposal // by plan key

	members     []*ccMember // every cold key the chain has seen
	committeeID int64       // committee row in force (0 before Conway)
	pendingCC   int64       // committee row a ratified NewCommittee puts in force at enactment

	// Deposits held for DReps and proposals (ada_pots.deposits_drep and
	// deposits_proposal), out of the stake deposits.
	depDRep, depProp uint64

	// Overrides of epoch_param from enacted ParameterChange actions.
	params map[string]uint64

	stats govStats

	handle      int32         // the ADA Handle's asset, once minted
	handleOwner int32         // its holder (0: not minted)
	collection  *nativeScript // the big policy's script
}

// govEvent is a governance transaction due at a slot.
type govEvent struct {
	slot uint64
	fn   func()
}

// govStats are what the manifest names.
type govStats struct {
	changedVoteDRep int32
	updatedDRep     int32
	changedVoteProp *proposal
	retiredDRep     int32
	badMetaDRep     int32
	resigned        int
}

// govLifetime is gov_action_lifetime in this chain's Conway epochs: one
// epoch (mainnet has six), so a ten-epoch chain sees proposals expire.
const govLifetime = 1

// drepDeposit and drepActivity are the Conway drep_deposit and
// drep_activity (epoch_param).
const (
	drepDeposit  = 500 * ada
	drepActivity = 20
)

func newGovState(seed int64) *govState {
	return &govState{
		r:      rand.New(rand.NewPCG(uint64(seed), 0x676f7665726e616e)),
		desk:   -1,
		byKey:  map[string]*proposal{},
		params: map[string]uint64{},
		stats:  govStats{retiredDRep: -1, badMetaDRep: -1, resigned: -1, changedVoteDRep: -1, updatedDRep: -1},
	}
}

// withGov runs fn with the governance random source in place of the
// chain's, so that what fn draws (input selection, hashes, signers) leaves
// the main stream where it was.
func (g *gen) withGov(fn func()) {
	main := g.r
	g.r, g.inGov = g.gov.r, true
	defer func() { g.r, g.inGov = main, false }()
	fn()
}

func (g *gen) gbytes(n int) []byte {
	var b []byte
	g.withGov(func() { b = g.bytes(n) })
	return b
}

func (g *gen) gintn(n int) int {
	if n <= 1 {
		return 0
	}
	return g.gov.r.IntN(n)
}

// govAt schedules fn at relative position at (0..1) of epoch e.
func (g *gen) govAt(e int, at float64, fn func()) {
	length := epochLength(e)
	if e == tipEpoch {
		length = tipEpochSlot
	}
	g.gov.events = append(g.gov.events, govEvent{slot: epochFirstSlot(e) + uint64(at*float64(length)), fn: fn})
}

// govTick runs, at the start of a block, the governance transactions due
// by its slot (every one left, in the epoch's last block).
func (g *gen) govTick(last bool) {
	if len(g.gov.events) == 0 {
		return
	}
	sort.SliceStable(g.gov.events, func(i, j int) bool { return g.gov.events[i].slot < g.gov.events[j].slot })
	n := 0
	for n < len(g.gov.events) && (last || g.gov.events[n].slot <= g.slot) {
		n++
	}
	due := slices.Clone(g.gov.events[:n])
	g.gov.events = g.gov.events[n:]
	for _, ev := range due {
		g.withGov(ev.fn)
	}
}

// govPay sends a governance transaction from the desk; deposit is what it
// pays in (negative: a refund).
func (g *gen) govPay(deposit int64, nCerts int, certs func(txID int64)) (int64, bool) {
	if g.gov.desk < 0 {
		return 0, false
	}
	txID, ok := g.pay(payReq{from: g.gov.desk, deposit: deposit, nCerts: nCerts, certs: certs, plain: true})
	if ok {
		g.gov.txs++
	}
	return txID, ok
}

// fundDesk creates the governance desk and funds it from the last genesis
// holder, leaving the funded-wallet list (which ordinary traffic draws
// from) exactly as it was.
func (g *gen) fundDesk() {
	if g.gov.desk >= 0 {
		return
	}
	w := g.newWallet(wEnterprise, -1)
	g.wallets[w].special, g.wallets[w].gov = true, true
	h := g.genesisHolders[len(g.genesisHolders)-1]
	saved := slices.Clone(g.funded)
	outs := []output{{w: w, value: 4_000_000 * ada}, {w: w, value: 2_000_000 * ada}, {w: w, value: 1_000_000 * ada}}
	if _, ok := g.pay(payReq{from: h, outs: outs, plain: true}); !ok {
		return
	}
	g.gov.txs++
	g.funded = saved
	for i, fw := range g.funded {
		g.wallets[fw].fundedPos = int32(i)
	}
	g.gov.desk = w
}

// mainTxs is the number of transactions not counting governance ones:
// what ordinary traffic paces itself on.
func (g *gen) mainTxs() int64 {
	if g.gov == nil {
		return g.ids.tx
	}
	return g.ids.tx - g.gov.txs
}

// planGov schedules epoch e's governance transactions.
func (g *gen) planGov(e int) {
	if eraOf(e) < eraConway || g.gov == nil {
		return
	}
	g.planExtras(e)
	switch e {
	case firstConway:
		g.govAt(e, 0, g.fundDesk)
		g.govAt(e, 0, g.registerDReps)
		g.govAt(e, 0.05, func() { g.authorizeHotKeys(0, 4) })
		g.govAt(e, 0.06, func() { g.authorizeHotKeys(4, 7) })
		g.planProposals(e)
		g.planVotes(e)
	case firstConway + 1:
		g.govAt(e, 0.05, func() { g.updateDRep(g.mostDelegated()) })
		g.govAt(e, 0.08, func() { g.rotateHotKey(0) })
		g.govAt(e, 0.10, func() { g.resign(6) })
		g.planProposals(e)
		g.planVotes(e)
		g.govAt(e, 0.85, g.retireDRep)
	case firstConway + 2:
		g.planProposals(e)
		g.planVotes(e)
	}
}
