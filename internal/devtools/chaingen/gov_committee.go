package chaingen

import "fmt"

// ccMember is a constitutional committee member: its cold credential
// (committee_hash), the hot key it authorised last, its term.
type ccMember struct {
	cold, hot       []byte
	script          bool // the cold credential is a script hash
	coldID, hotID   int64
	expiration      int
	resigned        bool
	hotAuthorized   bool
	previousHotKeys int
}

// ensureCommitteeHash writes a committee_hash row for a credential.
func (g *gen) ensureCommitteeHash(raw []byte, script bool) int64 {
	g.ids.committeeHash++
	g.t.committeeHash.int(g.ids.committeeHash).bytea(raw).bool(script).end()
	return g.ids.committeeHash
}

// genesisCommittee records the Conway genesis committee, as db-sync does
// at the first Conway epoch: a committee row without proposal, quorum 2/3,
// seven members (one a script credential) with their terms.
func (g *gen) genesisCommittee() {
	for i := 0; i < 7; i++ {
		m := &ccMember{cold: g.gbytes(28), script: i == 3, expiration: firstConway + 60 + 10*i}
		m.coldID = g.ensureCommitteeHash(m.cold, m.script)
		g.gov.members = append(g.gov.members, m)
	}
	g.gov.committeeID = g.writeCommittee(0, 2, 3, g.gov.members)
}

// writeCommittee writes a committee (committee and committee_member rows)
// and returns its id; proposal is the NewCommittee action's row, 0 for the
// genesis committee.
func (g *gen) writeCommittee(proposal int64, num, den int64, members []*ccMember) int64 {
	g.ids.committee++
	id := g.ids.committee
	g.t.committee.int(id).ref(proposal).int(num).int(den).end()
	for _, m := range members {
		g.ids.committeeMember++
		g.t.committeeMember.int(g.ids.committeeMember).int(id).int(m.coldID).int(int64(m.expiration)).end()
	}
	return id
}

// authorizeHotKeys authorises a hot key for members [from, to) in one
// transaction (committee_registration, one certificate each).
func (g *gen) authorizeHotKeys(from, to int) {
	ms := g.gov.members[from:min(to, len(g.gov.members))]
	g.govPay(0, len(ms), func(txID int64) {
		for i, m := range ms {
			g.hotKey(txID, i, m)
		}
	})
}

func (g *gen) hotKey(txID int64, idx int, m *ccMember) {
	if m.hotAuthorized {
		m.previousHotKeys++
	}
	m.hot = g.gbytes(28)
	m.hotID = g.ensureCommitteeHash(m.hot, false)
	m.hotAuthorized = true
	g.ids.committeeRegistration++
	g.t.committeeRegistration.int(g.ids.committeeRegistration).int(txID).int(int64(idx)).int(m.coldID).int(m.hotID).end()
}

// rotateHotKey authorises a new hot key for member i.
func (g *gen) rotateHotKey(i int) {
	m := g.gov.members[i]
	g.govPay(0, 1, func(txID int64) { g.hotKey(txID, 0, m) })
}

// resign sends member i's resignation, with its anchor
// (committee_de_registration, voting_anchor type committee_dereg).
func (g *gen) resign(i int) {
	m := g.gov.members[i]
	g.govPay(0, 1, func(txID int64) {
		url := fmt.Sprintf("https://committee.example.com/resignations/member-%d.jsonld", i)
		doc := mustJSON(map[string]any{"@context": cip100Context, "hashAlgorithm": "blake2b-256", "authors": []any{},
			"body": map[string]any{"comment": fmt.Sprintf("Member %d steps down.", i)}})
		anchor := g.votingAnchor(url, hashOf(doc), "committee_dereg")
		g.offChainVoteData(anchor, doc, fmt.Sprintf("Member %d steps down.", i))
		g.ids.committeeDeRegistration++
		g.t.committeeDeRegistration.int(g.ids.committeeDeRegistration).int(txID).int(0).int(anchor).int(m.coldID).end()
		m.resigned = true
		g.gov.stats.resigned = i
	})
}

// voters returns the members that can vote now: authorised, not resigned.
func (g *gen) ccVoters() []*ccMember {
	var out []*ccMember
	for _, m := range g.gov.members {
		if m.hotAuthorized && !m.resigned {
			out = append(out, m)
		}
	}
	return out
}
