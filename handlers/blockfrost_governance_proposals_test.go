package handlers

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/internal/cardano"
)

// govTypes: db-sync's govactiontype and Blockfrost's governance_type.
var govTypes = map[string]string{"ParameterChange": "parameter_change", "HardForkInitiation": "hard_fork_initiation",
	"TreasuryWithdrawals": "treasury_withdrawals", "NoConfidence": "no_confidence", "NewCommittee": "new_committee",
	"NewConstitution": "new_constitution", "InfoAction": "info_action"}

type sqlProposal struct {
	ID        int64  `db:"id"`
	TxHash    string `db:"tx_hash"`
	CertIndex int64  `db:"cert_index"`
	Type      string `db:"type"`
	Deposit   string `db:"deposit"`
	Votes     int    `db:"votes"`
	Counted   int    `db:"counted"`
	Withdraws int    `db:"withdrawals"`
	HasParams bool   `db:"has_params"`
	URL       string `db:"url"`
}

// sqlProposals: every proposal in chain order with its votes (counted:
// each voter's latest, but a DRep's wiped by its deregistration in an
// epoch before the one that settled the proposal, if any; the
// generator's votes are all valid) and withdrawals.
const sqlProposals = `
SELECT gap.id, encode(t.hash, 'hex') AS tx_hash, gap.index AS cert_index, gap.type::text AS type, gap.deposit::text AS deposit,
  (SELECT count(*) FROM voting_procedure vp WHERE vp.gov_action_proposal_id = gap.id) AS votes,
  (SELECT count(DISTINCT (vp.voter_role, vp.drep_voter, vp.pool_voter, vp.committee_voter)) FROM voting_procedure vp
   WHERE vp.gov_action_proposal_id = gap.id AND (vp.drep_voter IS NULL OR NOT EXISTS (
     SELECT 1 FROM drep_registration dr JOIN tx dt ON dt.id = dr.tx_id JOIN block db ON db.id = dt.block_id
     WHERE dr.drep_hash_id = vp.drep_voter AND dr.deposit < 0 AND dr.tx_id > vp.tx_id
       AND (COALESCE(gap.ratified_epoch, gap.dropped_epoch, gap.expired_epoch) IS NULL
            OR db.epoch_no < COALESCE(gap.ratified_epoch, gap.dropped_epoch, gap.expired_epoch))))) AS counted,
  (SELECT count(*) FROM treasury_withdrawal tw WHERE tw.gov_action_proposal_id = gap.id) AS withdrawals,
  gap.param_proposal IS NOT NULL AS has_params,
  COALESCE((SELECT url FROM voting_anchor WHERE id = gap.voting_anchor_id), '') AS url
FROM gov_action_proposal gap JOIN tx t ON t.id = gap.tx_id ORDER BY gap.id`

// TestBlockfrostGovernanceProposals: /governance/proposals against SQL of
// the test's own, every proposal by its CIP-129 id and by transaction and
// index (the same answer), its votes (counted as SQL counts them),
// withdrawals, parameters and anchor; 404s and 400s.
func TestBlockfrostGovernanceProposals(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var want []sqlProposal
		if err := c.raw.Select(&want, sqlProposals); err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Fatalf("%s: the generator's proposals are missing", c.mode)
		}
		type item struct {
			ID             string `json:"id"`
			TxHash         string `json:"tx_hash"`
			CertIndex      int64  `json:"cert_index"`
			GovernanceType string `json:"governance_type"`
		}
		list := govPages[item](t, h, "/governance/proposals", 4)
		if len(list) != len(want) {
			t.Fatalf("%s: %d proposals, SQL %d", c.mode, len(list), len(want))
		}
		var desc []item
		bfJSON(t, h, "/governance/proposals?order=desc&count=1", &desc)
		if len(desc) != 1 || desc[0] != list[len(list)-1] {
			t.Errorf("%s: newest proposal %+v, want %+v", c.mode, desc, list[len(list)-1])
		}
		kinds := map[string]bool{}
		for i, w := range want {
			g := list[i]
			id := cardano.GovActionString(w.TxHash, uint32(w.CertIndex))
			wantType := govTypes[w.Type]
			if g.ID != id || g.TxHash != w.TxHash || g.CertIndex != w.CertIndex || g.GovernanceType != wantType {
				t.Errorf("%s: proposal %d: %+v, SQL %+v (%s)", c.mode, i, g, w, wantType)
			}
			kinds[g.GovernanceType] = true
			byID := bfGet(t, h, mainnetKey, "/governance/proposals/"+id)
			byTx := bfGet(t, h, mainnetKey, fmt.Sprintf("/governance/proposals/%s/%d", w.TxHash, w.CertIndex))
			if byID.Code != 200 || string(byID.Body) != string(byTx.Body) || !strings.Contains(string(byID.Body), `"deposit":"`+w.Deposit+`"`) {
				t.Errorf("%s: %s: %d %s / %s", c.mode, id, byID.Code, byID.Body, byTx.Body)
			}
			type vote struct {
				Voter   string `json:"voter"`
				Counted bool   `json:"counted"`
			}
			votes := govPages[vote](t, h, "/governance/proposals/"+id+"/votes", 3)
			counted := 0
			for _, v := range votes {
				if v.Counted {
					counted++
				}
			}
			if len(votes) != w.Votes || counted != w.Counted {
				t.Errorf("%s: %s: %d votes (%d counted), SQL %d (%d)", c.mode, id, len(votes), counted, w.Votes, w.Counted)
			}
			var withdrawals []map[string]string
			bfJSON(t, h, fmt.Sprintf("/governance/proposals/%s/%d/withdrawals", w.TxHash, w.CertIndex), &withdrawals)
			if len(withdrawals) != w.Withdraws {
				t.Errorf("%s: %s: %d withdrawals, SQL %d", c.mode, id, len(withdrawals), w.Withdraws)
			}
			params := bfGet(t, h, mainnetKey, "/governance/proposals/"+id+"/parameters")
			if (params.Code == 200) != w.HasParams {
				t.Errorf("%s: %s parameters: %d, SQL has %v", c.mode, id, params.Code, w.HasParams)
			}
			if w.URL != "" {
				var meta struct {
					URL string `json:"url"`
				}
				bfJSON(t, h, "/governance/proposals/"+id+"/metadata", &meta)
				if meta.URL != w.URL {
					t.Errorf("%s: %s metadata url %s, SQL %s", c.mode, id, meta.URL, w.URL)
				}
			}
		}
		if len(kinds) < 7 {
			t.Errorf("%s: proposals of %d kinds, the generator makes all seven: %v", c.mode, len(kinds), kinds)
		}
		unknown := cardano.GovActionID{TxHash: [32]byte{9, 9}, Index: 3}
		for _, p := range []string{"/governance/proposals/" + unknown.String(), "/governance/proposals/" + unknown.String() + "/votes",
			fmt.Sprintf("/governance/proposals/%x/3/withdrawals", unknown.TxHash), fmt.Sprintf("/governance/proposals/%x/3/metadata", unknown.TxHash)} {
			bfRefused(t, h, p, http.StatusNotFound, "")
		}
		bfRefused(t, h, "/governance/proposals/gov_action1xyz", http.StatusBadRequest, "governance action id")
		bfRefused(t, h, "/governance/proposals/"+want[0].TxHash, http.StatusBadRequest, "governance action id")
		bfRefused(t, h, "/governance/proposals/abc/0", http.StatusBadRequest, "transaction hash")
		bfRefused(t, h, "/governance/proposals/"+want[0].TxHash+"/-1/votes", http.StatusBadRequest, "cert_index")
		bfRefused(t, h, "/governance/proposals?page=0", http.StatusBadRequest, "page")
	}
}

// TestBlockfrostGovernanceCommittee: the seated committee's members and
// their states, every committee vote, one member's by hot and by cold
// credential, against SQL of the test's own; 404s and 400s.
func TestBlockfrostGovernanceCommittee(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var members int
		if err := c.raw.Get(&members, `SELECT count(*) FROM committee_member WHERE committee_id = (
			SELECT c.id FROM committee c LEFT JOIN gov_action_proposal gap ON gap.id = c.gov_action_proposal_id
			WHERE c.gov_action_proposal_id IS NULL OR gap.enacted_epoch IS NOT NULL
			ORDER BY COALESCE(gap.enacted_epoch, -1) DESC, c.id DESC LIMIT 1)`); err != nil {
			t.Fatal(err)
		}
		var committee struct {
			Members []struct {
				ColdID string  `json:"cc_cold_id"`
				HotID  *string `json:"cc_hot_id"`
				Status string  `json:"status"`
			} `json:"members"`
		}
		bfJSON(t, h, "/governance/committee", &committee)
		if members == 0 || len(committee.Members) != members {
			t.Errorf("%s: %d members, SQL %d", c.mode, len(committee.Members), members)
		}
		for _, m := range committee.Members {
			if (m.HotID != nil) != (m.Status == "authorized") {
				t.Errorf("%s: member %+v", c.mode, m)
			}
		}
		var nVotes int
		if err := c.raw.Get(&nVotes, `SELECT count(*) FROM voting_procedure WHERE committee_voter IS NOT NULL`); err != nil || nVotes == 0 {
			t.Fatalf("%s: committee votes %d %v", c.mode, nVotes, err)
		}
		all := govPages[map[string]any](t, h, "/governance/committee/votes", 7)
		if len(all) != nVotes {
			t.Errorf("%s: %d committee votes, SQL %d", c.mode, len(all), nVotes)
		}
		// The member that rotated its hot key: by cold id, both keys' votes.
		var m struct {
			Cold, Hot  []byte
			ColdScript bool `db:"cold_script"`
			HotScript  bool `db:"hot_script"`
			ByCold     int  `db:"by_cold"`
			ByHot      int  `db:"by_hot"`
		}
		if err := c.raw.Get(&m, `SELECT cold.raw AS cold, hot.raw AS hot, cold.has_script AS cold_script, hot.has_script AS hot_script,
			(SELECT count(*) FROM voting_procedure vp WHERE vp.committee_voter IN
			   (SELECT hot_key_id FROM committee_registration WHERE cold_key_id = cr.cold_key_id)) AS by_cold,
			(SELECT count(*) FROM voting_procedure vp WHERE vp.committee_voter = cr.hot_key_id) AS by_hot
			FROM committee_registration cr JOIN committee_hash cold ON cold.id = cr.cold_key_id JOIN committee_hash hot ON hot.id = cr.hot_key_id
			ORDER BY (SELECT count(*) FROM committee_registration r2 WHERE r2.cold_key_id = cr.cold_key_id) DESC, cr.id DESC LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		cold := cardano.CommitteeString(false, m.Cold, m.ColdScript)
		hot := cardano.CommitteeString(true, m.Hot, m.HotScript)
		if got := govPages[map[string]any](t, h, "/governance/committee/"+cold+"/votes", 2); len(got) != m.ByCold {
			t.Errorf("%s: %s: %d votes, SQL %d", c.mode, cold, len(got), m.ByCold)
		}
		if got := govPages[map[string]any](t, h, "/governance/committee/"+hot+"/votes", 2); len(got) != m.ByHot || m.ByHot == 0 {
			t.Errorf("%s: %s: %d votes, SQL %d", c.mode, hot, len(got), m.ByHot)
		}
		bfRefused(t, h, "/governance/committee/"+cardano.CommitteeString(true, make([]byte, 28), false)+"/votes", http.StatusNotFound, "")
		bfRefused(t, h, "/governance/committee/cc_hot1xyz/votes", http.StatusBadRequest, "committee credential")
		bfRefused(t, h, "/governance/committee/votes?order=up", http.StatusBadRequest, "order")
	}
}
