package chaingen

import "fmt"

// Votes (voting_procedure): one transaction per voter and occasion, one
// row per proposal voted on (index: its position in the voter's list). A
// voter voting again on a proposal gets a second row in a later
// transaction; db-sync keeps both and leaves invalid NULL, so the latest
// row is the vote that counts.

type ballot struct {
	key  string // proposal plan key
	vote string // Yes, No, Abstain
}

type voter struct {
	role   string // DRep, SPO, ConstitutionalCommittee
	drep   int32
	pool   int32
	member *ccMember
	name   string // for anchor URLs
}

// castVotes sends one voter's ballots (skipping proposals not on chain);
// with anchored, each vote carries a rationale anchor.
func (g *gen) castVotes(v voter, bs []ballot, anchored bool) {
	var ps []*proposal
	var votes []string
	for _, b := range bs {
		if p := g.gov.byKey[b.key]; p != nil && p.id != 0 {
			ps = append(ps, p)
			votes = append(votes, b.vote)
		}
	}
	if len(ps) == 0 {
		return
	}
	switch v.role {
	case "DRep":
		if l := g.dreps[v.drep].life; l == nil || !l.registered {
			return
		}
	case "SPO":
		if !g.pools[v.pool].registered {
			return
		}
	case "ConstitutionalCommittee":
		if !v.member.hotAuthorized || v.member.resigned {
			return
		}
	}
	g.govPay(0, len(ps), func(txID int64) {
		for i, p := range ps {
			var anchor int64
			if anchored {
				anchor = g.voteAnchor(v.name, p, int(txID))
			}
			g.ids.votingProcedure++
			t := g.t.votingProcedure.int(g.ids.votingProcedure).int(txID).int(int64(i)).int(p.id).text(v.role)
			switch v.role {
			case "DRep":
				t.int(g.ensureDRep(v.drep)).null()
			case "SPO":
				t.null().int(g.ensurePoolHash(v.pool))
			default:
				t.null().null()
			}
			t.text(votes[i]).ref(anchor)
			if v.role == "ConstitutionalCommittee" {
				t.int(v.member.hotID)
			} else {
				t.null()
			}
			t.null().end()
			if votes[i] == "Yes" {
				p.yes++
			}
		}
		if v.role == "DRep" {
			g.dreps[v.drep].life.lastActive = g.epoch
		}
	})
}

func (g *gen) drepVoter(d int32) voter {
	return voter{role: "DRep", drep: d, name: g.dreps[d].view[:16]}
}

func (g *gen) spoVoter(p int32) voter {
	return voter{role: "SPO", pool: p, name: g.pools[p].ticker}
}

func ccVoter(i int, m *ccMember) voter {
	return voter{role: "ConstitutionalCommittee", member: m, name: fmt.Sprintf("cc-member-%d", i)}
}

var cycle = []string{"Yes", "No", "Abstain"}

// planVotes schedules epoch e's votes: in the first Conway epoch, the
// winners get Yes majorities from DReps, pools (where they may vote) and
// the committee, the rival constitution No, the info poll mixed; the most
// popular DRep first votes No on the parameter change and later changes
// its vote to Yes. Later epochs vote on their new proposals in part.
func (g *gen) planVotes(e int) {
	keys := len(g.dreps) - firstKeyDRep
	spos := []int32{poolBig, poolSmall, poolFirstOrdinary, poolFirstOrdinary + 1, poolFirstOrdinary + 2}
	switch e {
	case firstConway:
		for i := 0; i < keys; i++ {
			d := int32(firstKeyDRep + i)
			bs := []ballot{{"param", "Yes"}, {"treasury", "Yes"}, {"committee", "Yes"}, {"constitution", "Yes"},
				{"constitution-rival", cycle[1+i%2]}, {"noconfidence", "No"}, {"info", cycle[i%3]}}
			if i == 0 {
				bs[0].vote = "No"
				g.gov.stats.changedVoteDRep = d
				g.govAt(e, 0.80, func() {
					g.castVotes(g.drepVoter(d), []ballot{{"param", "Yes"}}, true)
					g.gov.stats.changedVoteProp = g.gov.byKey["param"]
				})
			}
			if i == keys-1 {
				bs[1].vote = "No"
			}
			g.govAt(e, 0.40+0.02*float64(i), func() { g.castVotes(g.drepVoter(d), bs, i < 2) })
		}
		for i, p := range spos {
			bs := []ballot{{"committee", "Yes"}, {"param", "Yes"}, {"noconfidence", "No"}, {"info", cycle[(i+2)%3]}}
			g.govAt(e, 0.55+0.01*float64(i), func() { g.castVotes(g.spoVoter(p), bs, i == 0) })
		}
		g.govAt(e, 0.65, func() {
			for i, m := range g.ccVoters() {
				bs := []ballot{{"param", "Yes"}, {"treasury", "Yes"}, {"constitution", "Yes"},
					{"constitution-rival", "No"}, {"info", cycle[i%2*2]}}
				if i == 5 {
					bs[1].vote = "No"
				}
				g.castVotes(ccVoter(i, m), bs, i == 0)
			}
		})
	case firstConway + 1:
		for i := 0; i < keys; i++ {
			d := int32(firstKeyDRep + i)
			bs := []ballot{{"hardfork", "Yes"}, {"param2", cycle[i%3]}, {"info2", cycle[(i+1)%3]}}
			g.govAt(e, 0.40+0.03*float64(i), func() { g.castVotes(g.drepVoter(d), bs, i == 1) })
		}
		for i, p := range spos[:3] {
			bs := []ballot{{"hardfork", "Yes"}, {"info2", cycle[i%3]}}
			g.govAt(e, 0.60+0.01*float64(i), func() { g.castVotes(g.spoVoter(p), bs, false) })
		}
		g.govAt(e, 0.70, func() {
			for i, m := range g.ccVoters() {
				if i < 3 {
					g.castVotes(ccVoter(i, m), []ballot{{"hardfork", "Yes"}, {"param2", "Yes"}}, false)
				}
			}
		})
	case firstConway + 2:
		for i := 0; i < min(2, keys); i++ {
			d := int32(firstKeyDRep + i)
			g.govAt(e, 0.30+0.05*float64(i), func() {
				g.castVotes(g.drepVoter(d), []ballot{{"treasury2", cycle[i]}, {"hardfork", "Yes"}}, false)
			})
		}
		g.govAt(e, 0.45, func() {
			if ms := g.ccVoters(); len(ms) > 0 {
				g.castVotes(ccVoter(0, ms[0]), []ballot{{"treasury2", "Yes"}}, false)
			}
		})
	}
}
