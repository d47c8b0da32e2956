package chaingen

import (
	"encoding/hex"
	"sort"
)

// GovernanceRefs name the chain's Conway governance entities.
type GovernanceRefs struct {
	// DRep: the key-hash DRep with the most current vote delegators, with a
	// fetched CIP-119 document (off_chain_vote_drep_data).
	DRep DRepRef `json:"drep"`
	// Updated: the DRep (drep_hash.view) that sent an update certificate
	// with a new document (drep_registration with NULL deposit): the most
	// delegated one when it did.
	Updated string `json:"drep_updated"`
	// DRepRetired: a DRep that registered, voted and retired (its latest
	// drep_registration has a negative deposit); absent from drep_distr
	// after its retirement.
	DRepRetired DRepRef `json:"drep_retired"`
	// DRepBadMetadata: a registered DRep whose anchor's document does not
	// hash to the anchor's data_hash: an off_chain_vote_fetch_error row, no
	// off_chain_vote_data.
	DRepBadMetadata DRepRef `json:"drep_bad_metadata"`
	// Proposals: one per governance action type (gov_action_proposal.type),
	// the first of its kind on the chain.
	Proposals map[string]ProposalRef `json:"proposals"`
	// ActiveProposal: still open at the tip (no ratified, enacted, dropped
	// or expired epoch), with votes of DReps, pools and the committee.
	ActiveProposal ProposalRef `json:"active_proposal"`
	// EnactedProposal, DroppedProposal, ExpiredProposal: one of each life
	// (enacted_epoch, dropped_epoch, expired_epoch set).
	EnactedProposal ProposalRef `json:"enacted_proposal"`
	DroppedProposal ProposalRef `json:"dropped_proposal"`
	ExpiredProposal ProposalRef `json:"expired_proposal"`
	// ChangedVote: DRep voted twice on Proposal (two voting_procedure rows,
	// the later one Yes, which counts).
	ChangedVote ChangedVoteRef `json:"changed_vote"`
	// CommitteeMember: a committee member that rotated its hot key once
	// (two committee_registration rows) and votes with the second one.
	CommitteeMember CommitteeMemberRef `json:"committee_member"`
	// CommitteeResigned: a member that resigned (committee_de_registration).
	CommitteeResigned CommitteeMemberRef `json:"committee_resigned"`
	// Constitution: the constitution in force at the tip (epoch_state of
	// the tip epoch), enacted through Proposal.
	Constitution ConstitutionRef `json:"constitution"`
}

// DRepRef is a DRep: ID its drep_hash.view (CIP-105 drep1…), CIP129 the
// CIP-129 drep1… (header byte 0x22 and the key hash), Hex the key hash.
type DRepRef struct {
	ID          string `json:"id"`
	CIP129      string `json:"cip129"`
	Hex         string `json:"hex"`
	Delegators  int    `json:"delegators"`             // registered keys whose latest vote delegation names it
	GivenName   string `json:"given_name,omitempty"`   // from its latest fetched document
	MetadataURL string `json:"metadata_url,omitempty"` // its latest anchor's URL
}

// ProposalRef is a governance action: its transaction, its index in that
// transaction (gov_action_proposal.index, the cert index Blockfrost shows)
// and its CIP-129 id (gov_action1…: bech32 of the tx hash and the index
// byte).
type ProposalRef struct {
	TxHash    string `json:"tx_hash"`
	CertIndex int    `json:"cert_index"`
	ID        string `json:"id"`
	Type      string `json:"type"`
	State     string `json:"state"` // enacted, ratified, dropped, expired or active at the tip
	Title     string `json:"title"` // its CIP-108 title (off_chain_vote_gov_action_data) when fetched
}

type ChangedVoteRef struct {
	DRep     string      `json:"drep"` // drep_hash.view
	Proposal ProposalRef `json:"proposal"`
}

// CommitteeMemberRef: cold and hot credentials (hex key hashes) and their
// CIP-129 ids (cc_cold1…, cc_hot1…, header bytes 0x12 and 0x02).
type CommitteeMemberRef struct {
	ColdHex    string `json:"cold_hex"`
	HotHex     string `json:"hot_hex"`
	ColdID     string `json:"cold_id"`
	HotID      string `json:"hot_id"`
	Expiration int    `json:"expiration_epoch"`
}

type ConstitutionRef struct {
	URL        string      `json:"url"`
	DataHash   string      `json:"data_hash"`
	ScriptHash string      `json:"script_hash"`
	Proposal   ProposalRef `json:"proposal"`
}

func cip129(header byte, raw []byte, hrp string) string {
	return bech32Of(hrp, append([]byte{header}, raw...))
}

func (g *gen) drepRef(d int32) DRepRef {
	if d < firstKeyDRep || int(d) >= len(g.dreps) {
		return DRepRef{}
	}
	dr := &g.dreps[d]
	r := DRepRef{ID: dr.view, CIP129: cip129(0x22, dr.raw, "drep"), Hex: hex.EncodeToString(dr.raw), Delegators: g.delegatorsOf(d)}
	if l := dr.life; l != nil && d != g.gov.stats.badMetaDRep {
		r.GivenName, r.MetadataURL = l.givenName, l.metadataURL
	}
	return r
}

func proposalRef(p *proposal) ProposalRef {
	if p == nil {
		return ProposalRef{}
	}
	r := ProposalRef{TxHash: hex.EncodeToString(p.txHash), CertIndex: p.index, ID: p.govActionID(), Type: p.kind, State: p.state()}
	if !p.unreachable {
		r.Title = p.title
	}
	return r
}

func memberRef(m *ccMember) CommitteeMemberRef {
	return CommitteeMemberRef{ColdHex: hex.EncodeToString(m.cold), HotHex: hex.EncodeToString(m.hot),
		ColdID: cip129(0x12, m.cold, "cc_cold"), HotID: cip129(0x02, m.hot, "cc_hot"), Expiration: m.expiration}
}

func (g *gen) governanceRefs() GovernanceRefs {
	gs := g.gov
	r := GovernanceRefs{Proposals: map[string]ProposalRef{}}
	keys := make([]int32, 0, len(g.dreps))
	for d := firstKeyDRep; d < len(g.dreps); d++ {
		if l := g.dreps[d].life; l != nil && l.registered && int32(d) != gs.stats.badMetaDRep && l.anchorID != 0 {
			keys = append(keys, int32(d))
		}
	}
	sort.SliceStable(keys, func(i, j int) bool { return g.delegatorsOf(keys[i]) > g.delegatorsOf(keys[j]) })
	if len(keys) > 0 {
		r.DRep = g.drepRef(keys[0])
	}
	if gs.stats.updatedDRep >= 0 {
		r.Updated = g.dreps[gs.stats.updatedDRep].view
	}
	r.DRepRetired = g.drepRef(gs.stats.retiredDRep)
	r.DRepBadMetadata = g.drepRef(gs.stats.badMetaDRep)
	for _, p := range gs.proposals {
		if _, ok := r.Proposals[p.kind]; !ok {
			r.Proposals[p.kind] = proposalRef(p)
		}
		switch p.state() {
		case "enacted":
			if r.EnactedProposal.ID == "" {
				r.EnactedProposal = proposalRef(p)
			}
		case "dropped":
			r.DroppedProposal = proposalRef(p)
		case "expired":
			if r.ExpiredProposal.ID == "" {
				r.ExpiredProposal = proposalRef(p)
			}
		}
	}
	r.ActiveProposal = proposalRef(gs.byKey["hardfork"])
	if gs.stats.changedVoteDRep >= 0 && gs.stats.changedVoteProp != nil {
		r.ChangedVote = ChangedVoteRef{DRep: g.dreps[gs.stats.changedVoteDRep].view, Proposal: proposalRef(gs.stats.changedVoteProp)}
	}
	if len(gs.members) > 0 {
		r.CommitteeMember = memberRef(gs.members[0])
	}
	if gs.stats.resigned >= 0 {
		r.CommitteeResigned = memberRef(gs.members[gs.stats.resigned])
	}
	if p := gs.byKey["constitution"]; p != nil && p.enacted > 0 {
		r.Constitution = ConstitutionRef{URL: p.constURL, DataHash: hex.EncodeToString(p.constHash),
			ScriptHash: genesisConstitutionScript, Proposal: proposalRef(p)}
	}
	return r
}
