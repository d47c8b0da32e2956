package chaingen

import "fmt"

// drepLife is a key-hash DRep's registration history (gov_dreps.go).
type drepLife struct {
	registered, retired bool
	regEpoch            int
	lastActive          int // the epoch of its latest registration, update or vote
	anchorID            int64
	givenName           string
	metadataURL         string
}

// drepNames are the given names of the DReps' CIP-119 documents.
var drepNames = []string{"Ada Lovelace Collective", "Blue Harbor", "Catalyst Circle", "Delta Commons",
	"Equinox Guild", "Fjord Stewards", "Granite Civic", "Harvest Forum"}

// registerDReps registers every key-hash DRep, one transaction each with
// its deposit: all but two with a CIP-119 document, one whose document
// does not match the anchor's hash (db-sync records a fetch error), one
// without anchor.
func (g *gen) registerDReps() {
	keys := len(g.dreps) - firstKeyDRep
	for i := 0; i < keys; i++ {
		d := int32(firstKeyDRep + i)
		g.gov.stats.badMetaDRep = int32(firstKeyDRep + keys - 2)
		g.govPay(drepDeposit, 1, func(txID int64) {
			l := g.drepLife(d)
			var anchor int64
			if i != keys-1 {
				anchor = g.drepAnchor(d, 0, d == g.gov.stats.badMetaDRep)
			}
			g.ids.drepRegistration++
			g.t.drepRegistration.int(g.ids.drepRegistration).int(txID).int(0).int(drepDeposit).int(g.ensureDRep(d)).
				ref(anchor).end()
			g.moveDeposit(drepDeposit, &g.gov.depDRep)
			l.registered, l.regEpoch, l.lastActive, l.anchorID = true, g.epoch, g.epoch, anchor
		})
	}
}

// drepLife is DRep d's history, created on first use.
func (g *gen) drepLife(d int32) *drepLife {
	dr := &g.dreps[d]
	if dr.life == nil {
		dr.life = &drepLife{}
	}
	return dr.life
}

// drepAnchor writes a DRep's anchor (voting_anchor type drep) and the
// document db-sync fetched from it: off_chain_vote_data with its
// off_chain_vote_drep_data and references, or, when bad, a fetch error
// (the served document's hash differs from the anchor's).
func (g *gen) drepAnchor(d int32, rev int, bad bool) int64 {
	i := int(d) - firstKeyDRep
	name := drepNames[i%len(drepNames)]
	if i >= len(drepNames) {
		name = fmt.Sprintf("%s %d", name, i/len(drepNames)+1)
	}
	url := fmt.Sprintf("https://dreps.example.com/%s/drep-%d.jsonld", g.dreps[d].view[:16], rev)
	doc := cip119Doc(name, rev, g.wallets[g.gov.desk].addr)
	hash := hashOf(doc)
	if bad {
		hash = g.gbytes(32)
	}
	id := g.votingAnchor(url, hash, "drep")
	l := g.drepLife(d)
	l.givenName, l.metadataURL = name, url
	if bad {
		g.fetchError(id, fmt.Sprintf("Hash mismatch when fetching metadata from %s. Expected %x but got %x.", url, hash, hashOf(doc)))
		return id
	}
	data := g.offChainVoteData(id, doc, "")
	body := cip119Body(name, rev, g.wallets[g.gov.desk].addr)
	g.ids.offChainVoteDrepData++
	g.t.offChainVoteDrepData.int(g.ids.offChainVoteDrepData).int(data).text(body.PaymentAddress).text(body.GivenName).
		text(body.Objectives).text(body.Motivations).text(body.Qualifications).text(body.Image.ContentURL).
		text(body.Image.SHA256).end()
	for _, r := range body.References {
		g.voteReference(data, r.Label, r.URI)
	}
	return id
}

// updateDRep sends a DRep update certificate with a new anchor (deposit
// NULL, as db-sync writes updates).
func (g *gen) updateDRep(d int32) {
	if int(d) >= len(g.dreps) || !g.drepLife(d).registered {
		return
	}
	g.govPay(0, 1, func(txID int64) {
		l := g.drepLife(d)
		anchor := g.drepAnchor(d, 1, false)
		g.ids.drepRegistration++
		g.t.drepRegistration.int(g.ids.drepRegistration).int(txID).int(0).null().int(g.ensureDRep(d)).int(anchor).end()
		l.anchorID, l.lastActive = anchor, g.epoch
		g.gov.stats.updatedDRep = d
	})
}

// mostDelegated is the registered key-hash DRep with the most delegators
// now (the first one on a tie).
func (g *gen) mostDelegated() int32 {
	best, n := int32(firstKeyDRep), -1
	for d := firstKeyDRep; d < len(g.dreps); d++ {
		if l := g.dreps[d].life; l != nil && l.registered && l.anchorID != 0 && int32(d) != g.gov.stats.badMetaDRep {
			if c := g.delegatorsOf(int32(d)); c > n {
				best, n = int32(d), c
			}
		}
	}
	return best
}

// retireDRep retires the last key-hash DRep: a deregistration certificate
// refunding its deposit (db-sync's negative deposit). Its delegators'
// stake no longer counts (drep_distr); later vote delegations pick
// another DRep.
func (g *gen) retireDRep() {
	d := int32(len(g.dreps) - 1)
	if d < firstKeyDRep+2 || !g.drepLife(d).registered {
		return
	}
	g.govPay(-drepDeposit, 1, func(txID int64) {
		g.ids.drepRegistration++
		g.t.drepRegistration.int(g.ids.drepRegistration).int(txID).int(0).int(-drepDeposit).int(g.ensureDRep(d)).null().end()
		g.gov.depDRep -= drepDeposit
		g.depositTotal += drepDeposit
		l := g.drepLife(d)
		l.registered, l.retired = false, true
		g.gov.stats.retiredDRep = d
	})
}

// moveDeposit moves a deposit a governance transaction paid out of the
// stake deposits into the governance pot it belongs to.
func (g *gen) moveDeposit(amount uint64, pot *uint64) {
	g.depositTotal -= amount
	*pot += amount
}

// activeDRep is whether a vote delegation may name DRep d now: the
// predefined ones always, a key-hash one unless retired.
func (g *gen) activeDRep(d int32) bool {
	if d < firstKeyDRep || g.gov == nil {
		return true
	}
	l := g.dreps[d].life
	return l == nil || !l.retired
}

// writeDRepDistr writes drep_distr for epoch e at its boundary: each
// DRep's voting stake (the registered delegators' UTxO and reward
// balances), for the predefined DReps and the registered key-hash ones
// with delegators; active_until is the last activity plus drep_activity.
func (g *gen) writeDRepDistr(e int) {
	if eraOf(e) < eraConway || g.gov == nil {
		return
	}
	amount := make([]uint64, len(g.dreps))
	has := make([]bool, len(g.dreps))
	for i := range g.stakes {
		k := &g.stakes[i]
		if !k.registered || k.drep < 0 {
			continue
		}
		if k.drep >= firstKeyDRep {
			if l := g.dreps[k.drep].life; l == nil || !l.registered {
				continue
			}
		}
		amount[k.drep] += k.utxoBal + k.rewardBal
		has[k.drep] = true
	}
	for d := range g.dreps {
		if !has[d] {
			continue
		}
		g.ids.drepDistr++
		t := g.t.drepDistr.int(g.ids.drepDistr).int(g.ensureDRep(int32(d))).uint(amount[d]).int(int64(e))
		if d < firstKeyDRep {
			t.null()
		} else {
			t.int(int64(g.dreps[d].life.lastActive + drepActivity))
		}
		t.end()
	}
}

// delegatorsOf counts the registered keys delegating their votes to d.
func (g *gen) delegatorsOf(d int32) int {
	n := 0
	for i := range g.stakes {
		if g.stakes[i].registered && g.stakes[i].drep == d {
			n++
		}
	}
	return n
}
