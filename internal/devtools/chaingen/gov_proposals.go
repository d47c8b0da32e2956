package chaingen

import (
	"encoding/hex"
	"fmt"
	"strconv"
)

// proposal is a governance action and its life.
type proposal struct {
	key, kind, title string
	fate             string    // enact, drop (when rival is enacted), expire, active
	rival            *proposal // drop: the enacted action that drops it
	prev             *proposal // prev_gov_action_proposal
	epoch            int       // submitted in
	id, txID         int64
	index            int
	txHash           []byte
	ret              int32 // return address (stake key)
	expiration       int
	anchorID         int64
	paramID          int64
	committeeID      int64 // NewCommittee: the committee it proposes
	constitutionID   int64 // NewConstitution: the constitution it proposes
	withdrawals      []wdl
	added            *ccMember // NewCommittee: the member it adds
	constURL         string    // NewConstitution: its anchor
	constHash        []byte
	unreachable      bool // its anchor's document could not be fetched

	ratified, enacted, dropped, expired int // 0: NULL
	yes                                 int // Yes votes cast on it
}

// govActionID is the CIP-129 id: bech32 gov_action of the transaction
// hash and the index byte.
func (p *proposal) govActionID() string {
	return bech32Of("gov_action", append(append([]byte(nil), p.txHash...), byte(p.index)))
}

// state is the proposal's status at the tip.
func (p *proposal) state() string {
	switch {
	case p.enacted > 0:
		return "enacted"
	case p.dropped > 0:
		return "dropped"
	case p.expired > 0:
		return "expired"
	case p.ratified > 0:
		return "ratified"
	}
	return "active"
}

// planProposals schedules epoch e's proposals. Those of the first Conway
// epoch are ratified at the next boundary and enacted at the one after
// (a constitution, a committee, a parameter change, a treasury
// withdrawal), dropped there (the rival constitution), or expire (no
// confidence, info); later ones are still active at the tip.
func (g *gen) planProposals(e int) {
	prop := func(at float64, ps ...*proposal) {
		g.govAt(e, at, func() { g.submit(ps) })
	}
	owner := func(p int32) int32 { return g.pools[p].owner }
	switch e {
	case firstConway:
		r1, r2 := g.refundAccounts()
		param := &proposal{key: "param", kind: "ParameterChange", title: "Raise the Plutus execution unit limits",
			fate: "enact", ret: owner(poolRetired)}
		constitution := &proposal{key: "constitution", kind: "NewConstitution", title: "Adopt the amended constitution",
			fate: "enact", ret: owner(poolFirstOrdinary)}
		prop(0.20, param)
		prop(0.22, &proposal{key: "treasury", kind: "TreasuryWithdrawals", title: "Fund the open-source tooling grant",
			fate: "enact", ret: r1})
		prop(0.24, &proposal{key: "committee", kind: "NewCommittee", title: "Replace the resigning committee member",
			fate: "enact", ret: r2})
		prop(0.26, constitution, &proposal{key: "constitution-rival", kind: "NewConstitution",
			title: "Adopt the minimal constitution", fate: "drop", rival: constitution, ret: owner(poolFirstOrdinary + 1)})
		prop(0.28, &proposal{key: "noconfidence", kind: "NoConfidence", title: "Motion of no confidence in the committee",
			fate: "expire", ret: g.wallets[g.whale].stake})
		prop(0.30, &proposal{key: "info", kind: "InfoAction", title: "Poll on the treasury budget process",
			fate: "expire", ret: g.wallets[g.whale].stake, unreachable: true})
	case firstConway + 1:
		prop(0.20, &proposal{key: "hardfork", kind: "HardForkInitiation", title: "Hard fork to protocol version 11",
			fate: "active", ret: g.wallets[g.whale].stake})
		prop(0.22, &proposal{key: "param2", kind: "ParameterChange", title: "Lower the reference script fee",
			fate: "active", ret: owner(poolBig), prev: g.gov.byKey["param"]})
		prop(0.24, &proposal{key: "info2", kind: "InfoAction", title: "Poll on the next budget cycle",
			fate: "active", ret: g.wallets[g.whale].stake})
	case firstConway + 2:
		prop(0.10, &proposal{key: "treasury2", kind: "TreasuryWithdrawals", title: "Fund the documentation grant",
			fate: "active", ret: owner(poolBig)})
	}
}

// refundAccounts are two registered user accounts that get proposal
// deposits back (the first ones, every fifth key from the fourth).
func (g *gen) refundAccounts() (int32, int32) {
	var out []int32
	for i := 3; i < len(g.stakes) && len(out) < 2; i += 5 {
		if k := &g.stakes[i]; k.registered && !k.owner {
			out = append(out, int32(i))
		}
	}
	for len(out) < 2 {
		out = append(out, g.wallets[g.whale].stake)
	}
	return out[0], out[1]
}

// submit sends proposals in one transaction, each with the deposit.
func (g *gen) submit(ps []*proposal) {
	dep := int64(len(ps)) * govActionDeposit
	g.govPay(dep, len(ps)*3, func(txID int64) {
		for i, p := range ps {
			g.writeProposal(txID, i, p)
		}
		g.moveDeposit(uint64(dep), &g.gov.depProp)
	})
}

// writeProposal records proposal p as db-sync does at its transaction:
// its anchor, its parameter proposal, withdrawals, committee or
// constitution. The gov_action_proposal row itself is written at the end
// (writeProposals), with the life its boundaries gave it.
func (g *gen) writeProposal(txID int64, idx int, p *proposal) {
	g.ids.govActionProposal++
	p.id, p.txID, p.index, p.txHash, p.epoch = g.ids.govActionProposal, txID, idx, g.curTxHash, g.epoch
	p.expiration = g.epoch + govLifetime
	g.ensureStake(p.ret)
	p.anchorID = g.govActionAnchor(p, p.unreachable)
	switch p.kind {
	case "ParameterChange":
		p.paramID = g.conwayParamProposal(txID, p)
	case "TreasuryWithdrawals":
		for j, s := range []int32{g.wallets[g.batcher].stake, g.pools[poolBig].owner} {
			amt := uint64(250_000+100_000*j) * ada
			if p.key != "treasury" {
				amt /= 5
			}
			p.withdrawals = append(p.withdrawals, wdl{stake: s, amount: amt})
			g.ids.treasuryWithdrawal++
			g.t.treasuryWithdrawal.int(g.ids.treasuryWithdrawal).int(p.id).int(g.ensureStake(s)).uint(amt).end()
		}
	case "NewCommittee":
		// The committee it proposes: the current members but the one
		// about to resign, and a new one; quorum 3/5.
		nm := &ccMember{cold: g.gbytes(28), expiration: g.epoch + 100}
		nm.coldID = g.ensureCommitteeHash(nm.cold, false)
		g.gov.members = append(g.gov.members, nm)
		p.added = nm
		var ms []*ccMember
		for i, m := range g.gov.members[:7] {
			if i != 6 {
				ms = append(ms, m)
			}
		}
		p.committeeID = g.writeCommittee(p.id, 3, 5, append(ms, nm))
	case "NewConstitution":
		url := fmt.Sprintf("ipfs://bafkreiconstitution%s", slug(p.key))
		doc := mustJSON(map[string]any{"@context": cip100Context, "hashAlgorithm": "blake2b-256", "authors": []any{},
			"body": map[string]any{"title": p.title}})
		p.constURL, p.constHash = url, hashOf(doc)
		anchor := g.votingAnchor(url, p.constHash, "constitution")
		g.ids.constitution++
		p.constitutionID = g.ids.constitution
		g.t.constitution.int(p.constitutionID).int(p.id).int(anchor).bytea(mustHex(genesisConstitutionScript)).end()
	}
	g.gov.proposals = append(g.gov.proposals, p)
	g.gov.byKey[p.key] = p
}

// conwayParamProposal writes a ParameterChange's param_proposal row:
// only the proposed parameters set, no epoch nor key (Conway).
func (g *gen) conwayParamProposal(txID int64, p *proposal) int64 {
	set := map[string]uint64{"max_tx_ex_mem": 16_500_000, "max_block_ex_mem": 72_000_000}
	if p.key != "param" {
		set = map[string]uint64{"min_fee_ref_script_cost_per_byte": 12}
	}
	g.ids.paramProposal++
	t := g.t.paramProposal
	for _, c := range paramProposalCols {
		switch c {
		case "id":
			t.int(g.ids.paramProposal)
		case "registered_tx_id":
			t.int(txID)
		default:
			if v, ok := set[c]; ok {
				t.uint(v)
			} else {
				t.null()
			}
		}
	}
	t.end()
	return g.ids.paramProposal
}

// description is the gov_action_proposal.description JSON db-sync writes
// (the ledger's JSON of the action).
func (g *gen) description(p *proposal) string {
	var prev any
	if p.prev != nil {
		prev = map[string]any{"txId": hex.EncodeToString(p.prev.txHash), "govActionIx": p.prev.index}
	}
	var contents any
	switch p.kind {
	case "ParameterChange":
		upd := map[string]any{"maxTxExecutionUnits": map[string]any{"memory": 16_500_000, "steps": 10_000_000_000},
			"maxBlockExecutionUnits": map[string]any{"memory": 72_000_000, "steps": 20_000_000_000}}
		if p.key != "param" {
			upd = map[string]any{"minFeeRefScriptCostPerByte": 12}
		}
		contents = []any{prev, upd, genesisConstitutionScript}
	case "HardForkInitiation":
		contents = []any{prev, map[string]any{"major": 11, "minor": 0}}
	case "TreasuryWithdrawals":
		var ws []any
		for _, w := range p.withdrawals {
			ws = append(ws, []any{map[string]any{"network": "Mainnet",
				"credential": map[string]any{"keyHash": hex.EncodeToString(g.stakes[w.stake].cred)}}, w.amount})
		}
		contents = []any{ws, genesisConstitutionScript}
	case "NoConfidence":
		contents = prev
	case "NewCommittee":
		nm := p.added
		contents = []any{prev, []any{map[string]any{"keyHash": hex.EncodeToString(g.gov.members[6].cold)}},
			map[string]any{"keyHash-" + hex.EncodeToString(nm.cold): nm.expiration}, 0.6}
	case "NewConstitution":
		contents = []any{prev, map[string]any{"anchor": map[string]any{"url": "ipfs://bafkreiconstitution" + slug(p.key)},
			"script": genesisConstitutionScript}}
	case "InfoAction":
		return `{"tag":"InfoAction"}`
	}
	tag := p.kind
	if tag == "NewCommittee" {
		tag = "UpdateCommittee"
	}
	return string(mustJSON(map[string]any{"tag": tag, "contents": contents}))
}

// govBoundary applies the proposals' life at the start of epoch e:
// ratification of the previous epoch's winners (ratified_epoch = e),
// enactment of the ones ratified at the boundary before (enacted_epoch),
// with what they change (constitution, committee, parameters, treasury
// withdrawals as reward_rest rows) and dropping their rivals, expiry
// (expired_epoch = expiration + 1); deposits of the removed ones go back
// to their return accounts (reward_rest proposal_refund, spendable now).
func (g *gen) govBoundary(e int) {
	if g.gov == nil {
		return
	}
	for _, p := range g.gov.proposals {
		switch {
		case p.fate == "enact" && p.ratified == 0 && p.epoch == e-1:
			p.ratified = e
		case p.fate == "enact" && p.ratified > 0 && p.enacted == 0 && p.ratified == e-1:
			p.enacted = e
			g.enact(p, e)
			g.refund(p, e)
		case p.fate == "drop" && p.dropped == 0 && p.rival != nil && p.rival.ratified == e-1:
			p.dropped = e
			g.refund(p, e)
		case (p.fate == "expire" || p.fate == "active") && p.expired == 0 && e == p.expiration+1:
			p.expired = e
		}
	}
}

func (g *gen) enact(p *proposal, e int) {
	switch p.kind {
	case "NewConstitution":
		g.constitutionID = p.constitutionID
	case "NewCommittee":
		g.gov.committeeID = p.committeeID
	case "ParameterChange":
		g.gov.params["max_tx_ex_mem"] = 16_500_000
		g.gov.params["max_block_ex_mem"] = 72_000_000
	case "TreasuryWithdrawals":
		for _, w := range p.withdrawals {
			g.pendingRest = append(g.pendingRest, pendingReward{stake: w.stake, typ: "treasury", amount: w.amount, spendable: e})
		}
	}
}

func (g *gen) refund(p *proposal, e int) {
	g.pendingRest = append(g.pendingRest, pendingReward{stake: p.ret, typ: "proposal_refund", amount: govActionDeposit, spendable: e})
}

// writeProposals writes every gov_action_proposal row, as the chain's
// boundaries left them.
func (g *gen) writeProposals() {
	if g.gov == nil {
		return
	}
	for _, p := range g.gov.proposals {
		opt := func(v int) string {
			if v == 0 {
				return ""
			}
			return strconv.Itoa(v)
		}
		t := g.t.govActionProposal.int(p.id).int(p.txID).int(int64(p.index))
		if p.prev != nil {
			t.int(p.prev.id)
		} else {
			t.null()
		}
		t.uint(govActionDeposit).int(g.ensureStake(p.ret)).int(int64(p.expiration)).int(p.anchorID).text(p.kind).
			text(g.description(p)).ref(p.paramID)
		for _, v := range []int{p.ratified, p.enacted, p.dropped, p.expired} {
			if s := opt(v); s != "" {
				t.num(s)
			} else {
				t.null()
			}
		}
		t.end()
	}
}
