package chaingen

// drep is a vote-delegation target as db-sync stores it in drep_hash: the
// two predefined DReps have no raw hash and a fixed view; a key-hash DRep's
// view is the bech32 "drep" encoding of its 28-byte hash.
type drep struct {
	raw  []byte
	view string
	id   int64
	life *drepLife // registrations (gov_dreps.go); nil for the predefined ones and until registered
}

const (
	drepAbstain      = 0
	drepNoConfidence = 1
	firstKeyDRep     = 2
)

func (g *gen) setupDReps(n int) {
	g.dreps = append(g.dreps, drep{view: "drep_always_abstain"}, drep{view: "drep_always_no_confidence"})
	for i := 0; i < n; i++ {
		raw := g.bytes(28)
		g.dreps = append(g.dreps, drep{raw: raw, view: bech32Of("drep", raw)})
	}
}

// ensureDRep writes the drep_hash row when the DRep is first seen, as
// db-sync does.
func (g *gen) ensureDRep(d int32) int64 {
	dr := &g.dreps[d]
	if dr.id == 0 {
		g.ids.drepHash++
		dr.id = g.ids.drepHash
		g.t.drepHash.int(dr.id).bytea(dr.raw).text(dr.view).bool(false).end()
	}
	return dr.id
}

func (g *gen) certVote(txID int64, s, d int32, idx int) {
	g.ids.delegationVote++
	g.t.delegationVote.int(g.ids.delegationVote).int(g.ensureStake(s)).int(int64(idx)).int(g.ensureDRep(d)).
		int(txID).null().end()
	k := &g.stakes[s]
	k.drep = d
	k.voteDelegs++
}

// pickDRep chooses a vote-delegation target other than the current one:
// one in ten delegations goes to always-abstain, one in ten to
// always-no-confidence (by position n, so small chains have both), the
// rest to key-hash DReps, the first ones more popular.
func (g *gen) pickDRep(n int, current int32) int32 {
	keys := len(g.dreps) - firstKeyDRep
	var d int32
	switch n % 10 {
	case 0:
		d = drepAbstain
	case 5:
		d = drepNoConfidence
	default:
		d = int32(firstKeyDRep + g.intn(1+g.intn(keys)))
	}
	if d == current {
		d = int32(firstKeyDRep + (int(d)-firstKeyDRep+1+keys)%keys)
	}
	// A retired DRep takes no delegations: the next active one does
	// (without a draw, so the random stream is the same).
	for i := 0; i < keys && (!g.activeDRep(d) || d == current); i++ {
		d = int32(firstKeyDRep + (int(d)-firstKeyDRep+1)%keys)
	}
	return d
}

// voteDelegate: a registered key delegates its votes (a Conway
// vote_deleg certificate, no deposit).
func (g *gen) voteDelegate(s int32, n int) func() bool {
	return g.keyAction(s, func(k *stakeKey, w int32) (payReq, bool) {
		d := g.pickDRep(n, k.drep)
		return payReq{from: w, nCerts: 1, certs: func(txID int64) { g.certVote(txID, s, d, 0) }}, true
	})
}

// voteTasks: Conway-era vote delegations, and, after the first Conway
// epoch, some keys moving their votes to another DRep.
func (g *gen) voteTasks(e int, opt func(float64, func() bool), rnd func() float64) {
	for i, s := range g.pickRegistered(max(12, g.countRegistered()/12)) {
		opt(rnd(), g.voteDelegate(s, i))
	}
	if e == firstConway {
		return
	}
	n := 0
	for i := range g.stakes {
		if k := &g.stakes[i]; k.registered && k.drep >= 0 && i%3 == e%3 {
			opt(rnd(), g.voteDelegate(int32(i), n+1))
			n++
		}
	}
}

const firstConway = firstShelley + 7

// govActionDeposit is the Conway gov_action_deposit (epoch_param).
const govActionDeposit = 100_000 * ada

// The constitution of mainnet's Conway genesis: its anchor and guardrail
// script, which db-sync records (voting_anchor, constitution) when it first
// reads the Conway governance state.
const (
	genesisConstitutionURL    = "ipfs://bafkreifnwj6zpu3ixa4siz2lndqybyc5wnnt3jkwyutci4e2tmbnj3xrdm"
	genesisConstitutionHash   = "ca41a91f399259bcefe57f9858e91f6d00e1a38d6d9c63d4052914ea7bd70cb2"
	genesisConstitutionScript = "fa24fb305126805cf2164c161d852a0e7330cf988f1fe558cf7d4a64"
)

// writeEpochState writes Conway epoch e's governance state at its first
// block, as db-sync does at each Conway epoch boundary: the constitution
// and the committee in force (the genesis ones, recorded at the first
// Conway boundary, until governance enacts others), and no no-confidence
// action (none was enacted on this chain).
func (g *gen) writeEpochState(e int, blockID int64) {
	if eraOf(e) < eraConway {
		return
	}
	if g.constitutionID == 0 {
		g.ids.votingAnchor++
		g.t.votingAnchor.int(g.ids.votingAnchor).text(genesisConstitutionURL).bytea(mustHex(genesisConstitutionHash)).
			text("constitution").int(blockID).end()
		g.ids.constitution++
		g.constitutionID = g.ids.constitution
		g.t.constitution.int(g.constitutionID).null().int(g.ids.votingAnchor).bytea(mustHex(genesisConstitutionScript)).end()
	}
	var committee int64
	if g.gov != nil {
		if g.gov.committeeID == 0 {
			g.genesisCommittee()
		}
		committee = g.gov.committeeID
	} else {
		committee = g.followCommittee
	}
	g.ids.epochState++
	g.t.epochState.int(g.ids.epochState).ref(committee).null().int(g.constitutionID).int(int64(e)).end()
}
