package clientcheck_test

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

const (
	drepSQL     = `(SELECT id FROM drep_hash WHERE view = $1)`
	proposalSQL = `(SELECT p.id FROM gov_action_proposal p JOIN tx t ON t.id = p.tx_id WHERE t.hash = decode($1, 'hex') AND p.index = $2)`
	// govTypeSQL is db-sync's govactiontype as Blockfrost writes it
	// (ParameterChange: parameter_change).
	govTypeSQL = `lower(regexp_replace(p.type::text, '([a-z])([A-Z])', '\1_\2', 'g'))`
	// voteSQL is a vote v (t its transaction) with its index;
	// votedSQL is the proposal it is about (p, its transaction pt).
	voteSQL   = `encode(t.hash, 'hex') || ' ' || v.index || ' ' || lower(v.vote::text)`
	votedSQL  = `encode(pt.hash, 'hex') || ' ' || p.index`
	votesFrom = ` FROM voting_procedure v JOIN tx t ON t.id = v.tx_id JOIN gov_action_proposal p ON p.id = v.gov_action_proposal_id
		JOIN tx pt ON pt.id = p.tx_id`
)

// checkGovernance compares every governance method blockfrost-js called
// with the test's SQL; while the routes are not served, each is reported
// as such.
func checkGovernance(t *testing.T, s *stack, r *results, in bfInput) {
	g := in.Governance
	if len(g.Committee) == 0 || len(g.DReps) == 0 || len(g.Proposals) == 0 {
		t.Logf("lacking data: the chain has %d committee credentials, %d DReps and %d proposals to ask about",
			len(g.Committee), len(g.DReps), len(g.Proposals))
	}
	// The seated committee: the latest one with no proposal, or whose
	// proposal was enacted last.
	var members int
	s.sql(t, &members, `SELECT count(*) FROM committee_member WHERE committee_id = (
		SELECT c.id FROM committee c LEFT JOIN gov_action_proposal gap ON gap.id = c.gov_action_proposal_id
		WHERE c.gov_action_proposal_id IS NULL OR gap.enacted_epoch IS NOT NULL
		ORDER BY COALESCE(gap.enacted_epoch, -1) DESC, c.id DESC LIMIT 1)`)
	if c, ok := r.answered("committee", "GET /governance/committee"); ok {
		var got struct {
			Members []json.RawMessage `json:"members"`
		}
		switch {
		case members == 0 && c.status() == 404:
		case c.Err != nil || json.Unmarshal(c.OK, &got) != nil:
			t.Errorf("committee: %s %+v, SQL says %d members", c.OK, c.Err, members)
		default:
			eq(t, "committee members", len(got.Members), members)
		}
	}
	// A committee vote names no index of its own, but its proposal.
	fields := []string{"tx_hash", "proposal_tx_hash", "proposal_index", "vote"}
	committeeVote := `encode(t.hash, 'hex') || ' ' || ` + votedSQL + ` || ' ' || lower(v.vote::text)`
	votes := listCheck{route: "GET /governance/committee/votes", fields: fields,
		want: s.want(t, `SELECT `+committeeVote+votesFrom+` WHERE v.committee_voter IS NOT NULL`)}
	sortedList(t, r, votes, "committeeVotes", true)
	sortedList(t, r, votes, "committeeVotesAll", false)
	for _, hot := range g.Committee {
		votes := listCheck{route: "GET /governance/committee/{cc_id}/votes", fields: fields,
			want: s.want(t, `SELECT `+committeeVote+votesFrom+` JOIN committee_hash h ON h.id = v.committee_voter
				WHERE h.raw = decode($1, 'hex')`, hotHex(t, hot))}
		sortedList(t, r, votes, "committeeMemberVotes|"+hot, true)
		sortedList(t, r, votes, "committeeMemberVotesAll|"+hot, false)
	}
	dreps := listCheck{t: t, r: r, route: "GET /governance/dreps", fields: []string{"drep_id"},
		want: s.want(t, `SELECT view FROM drep_hash ORDER BY id`)}
	dreps.page("dreps")
	dreps.all("drepsPages")
	for _, d := range g.DReps {
		checkDRep(t, s, r, d)
	}
	proposals := listCheck{t: t, r: r, route: "GET /governance/proposals", fields: []string{"tx_hash", "cert_index", "governance_type"},
		want: s.want(t, `SELECT encode(t.hash, 'hex') || ' ' || p.index || ' ' || `+govTypeSQL+`
			FROM gov_action_proposal p JOIN tx t ON t.id = p.tx_id ORDER BY p.id`)}
	proposals.page("proposals")
	proposals.all("proposalsPages")
	for _, p := range g.Proposals {
		checkProposal(t, s, r, p)
	}
}

// hotHex is a cc_hot1… credential's hash (hex), the header byte dropped.
func hotHex(t *testing.T, id string) string {
	t.Helper()
	_, five, err := bech32.Decode(id)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	data, err := bech32.ConvertBits(five, 5, 8, false)
	if err != nil || len(data) != 29 {
		t.Fatalf("%s: %d bytes, %v", id, len(data), err)
	}
	return hex.EncodeToString(data[1:])
}

func checkDRep(t *testing.T, s *stack, r *results, d string) {
	c := func(call string) string { return call + "|" + d }
	var got struct {
		DRepID string `json:"drep_id"`
		Hex    string `json:"hex"`
		Amount string `json:"amount"`
	}
	if r.get(c("drepsById"), "GET /governance/dreps/{drep_id}", &got) {
		var fact struct{ Raw, Amount string }
		s.sql(t, &fact, `SELECT encode(raw, 'hex') AS raw, COALESCE((SELECT dd.amount FROM drep_distr dd WHERE dd.hash_id = dh.id
			AND dd.epoch_no = `+curEpochSQL+`), 0)::text AS amount FROM drep_hash dh WHERE view = $1`, d)
		eq(t, c("drepsById")+" drep_id", got.DRepID, d)
		eq(t, c("drepsById")+" hex", got.Hex, fact.Raw)
		eq(t, c("drepsById")+" amount (voting power this epoch)", got.Amount, fact.Amount)
	}
	// Its anchor: the latest certificate's (none: 404).
	if call, ok := r.answered(c("drepsByIdMetadata"), "GET /governance/dreps/{drep_id}/metadata"); ok {
		var url string
		s.sql(t, &url, `SELECT COALESCE((SELECT va.url FROM drep_registration x JOIN voting_anchor va ON va.id = x.voting_anchor_id
			WHERE x.drep_hash_id = `+drepSQL+` ORDER BY x.tx_id DESC, x.cert_index DESC LIMIT 1), '')`, d)
		var meta struct{ URL string }
		switch {
		case url == "" && call.status() == 404:
		case call.Err != nil || json.Unmarshal(call.OK, &meta) != nil || meta.URL != url:
			t.Errorf("%s: %s %+v, SQL says url %q", c("drepsByIdMetadata"), call.OK, call.Err, url)
		}
	}
	// Its delegators: each stake address's latest vote delegation, not
	// deregistered since, in the order of those delegations, with its
	// live stake (unspent outputs and rewards not withdrawn).
	delegators := listCheck{t: t, r: r, route: "GET /governance/dreps/{drep_id}/delegators", fields: []string{"address", "amount"},
		want: s.want(t, `SELECT sa.view || ' ' || ((SELECT COALESCE(sum(o.value), 0) FROM tx_out o WHERE o.stake_address_id = l.addr_id AND `+unspentSQL+`) +
			GREATEST((SELECT COALESCE(sum(amount), 0) FROM reward WHERE addr_id = l.addr_id AND spendable_epoch <= `+curEpochSQL+`) +
				(SELECT COALESCE(sum(amount), 0) FROM reward_rest WHERE addr_id = l.addr_id AND spendable_epoch <= `+curEpochSQL+`) -
				(SELECT COALESCE(sum(w.amount), 0) FROM withdrawal w JOIN tx v ON v.id = w.tx_id WHERE w.addr_id = l.addr_id AND v.valid_contract), 0))
			FROM (SELECT DISTINCT ON (dv.addr_id) dv.addr_id, dv.drep_hash_id, dv.id, dv.tx_id, dv.cert_index
			FROM delegation_vote dv ORDER BY dv.addr_id, dv.tx_id DESC, dv.cert_index DESC) l JOIN stake_address sa ON sa.id = l.addr_id
			WHERE l.drep_hash_id = `+drepSQL+` AND NOT EXISTS (SELECT 1 FROM stake_deregistration sd WHERE sd.addr_id = l.addr_id
			AND (sd.tx_id, sd.cert_index) > (l.tx_id, l.cert_index)) ORDER BY l.id`, d)}
	delegators.page(c("drepsByIdDelegators"))
	delegators.all(c("drepsByIdDelegatorsAll"))
	updates := listCheck{t: t, r: r, route: "GET /governance/dreps/{drep_id}/updates", fields: []string{"tx_hash", "cert_index"},
		want: s.want(t, `SELECT encode(t.hash, 'hex') || ' ' || x.cert_index FROM drep_registration x JOIN tx t ON t.id = x.tx_id
			WHERE x.drep_hash_id = `+drepSQL+` ORDER BY x.tx_id, x.cert_index`, d)}
	updates.page(c("drepsByIdUpdates"))
	updates.all(c("drepsByIdUpdatesAll"))
	votes := listCheck{route: "GET /governance/dreps/{drep_id}/votes",
		fields: []string{"tx_hash", "cert_index", "vote", "proposal_tx_hash", "proposal_cert_index"},
		want:   s.want(t, `SELECT `+voteSQL+` || ' ' || `+votedSQL+votesFrom+` WHERE v.drep_voter = `+drepSQL, d)}
	sortedList(t, r, votes, c("drepsByIdVotes"), true)
	sortedList(t, r, votes, c("drepsByIdVotesAll"), false)
}

func checkProposal(t *testing.T, s *stack, r *results, p proposalRef) {
	var want struct {
		Type, Deposit, ReturnAddress string
		HasParams                    bool
		URL                          string
	}
	s.sql(t, &want, `SELECT `+govTypeSQL+` AS type, p.deposit::text AS deposit, sa.view AS returnaddress,
		p.param_proposal IS NOT NULL AS hasparams, COALESCE(va.url, '') AS url
		FROM gov_action_proposal p JOIN stake_address sa ON sa.id = p.return_address LEFT JOIN voting_anchor va ON va.id = p.voting_anchor_id
		WHERE p.id = `+proposalSQL, p.TxHash, p.CertIndex)
	withdrawals := s.want(t, `SELECT sa.view || ' ' || w.amount FROM treasury_withdrawal w JOIN stake_address sa ON sa.id = w.stake_address_id
		WHERE w.gov_action_proposal_id = `+proposalSQL+` ORDER BY 1`, p.TxHash, p.CertIndex)
	votes := s.want(t, `SELECT `+voteSQL+` FROM voting_procedure v JOIN tx t ON t.id = v.tx_id
		WHERE v.gov_action_proposal_id = `+proposalSQL, p.TxHash, p.CertIndex)
	for _, form := range []struct{ suffix, key, route string }{
		{"", "|" + p.TxHash + "|" + strconv.Itoa(p.CertIndex), "GET /governance/proposals/{tx_hash}/{cert_index}"},
		{"ByGovActionId", "|" + p.ID, "GET /governance/proposals/{gov_action_id}"},
	} {
		call := func(m string) string { // proposalVotesAll: proposalVotesByGovActionIdAll
			if base, ok := strings.CutSuffix(m, "All"); ok {
				return base + form.suffix + "All" + form.key
			}
			return m + form.suffix + form.key
		}
		var got struct {
			TxHash    string `json:"tx_hash"`
			CertIndex int    `json:"cert_index"`
			Type      string `json:"governance_type"`
			Deposit   string `json:"deposit"`
			Return    string `json:"return_address"`
		}
		if r.get(call("proposal"), form.route, &got) {
			eq(t, call("proposal")+" tx_hash", got.TxHash, p.TxHash)
			eq(t, call("proposal")+" cert_index", got.CertIndex, p.CertIndex)
			eq(t, call("proposal")+" governance_type", got.Type, want.Type)
			eq(t, call("proposal")+" deposit", got.Deposit, want.Deposit)
			eq(t, call("proposal")+" return_address", got.Return, want.ReturnAddress)
		}
		// Parameters: a parameter change's (any other kind: 404).
		if c, ok := r.answered(call("proposalParameters"), form.route+"/parameters"); ok {
			var params struct {
				TxHash string `json:"tx_hash"`
			}
			switch {
			case !want.HasParams && c.status() == 404:
			case c.Err != nil || json.Unmarshal(c.OK, &params) != nil || params.TxHash != p.TxHash || !want.HasParams:
				t.Errorf("%s: %.300s %+v, SQL says parameters: %v", call("proposalParameters"), c.OK, c.Err, want.HasParams)
			}
		}
		// Metadata: its anchor's (none: 404).
		if c, ok := r.answered(call("proposalMetadata"), form.route+"/metadata"); ok {
			var meta struct{ URL string }
			switch {
			case want.URL == "" && c.status() == 404:
			case c.Err != nil || json.Unmarshal(c.OK, &meta) != nil || meta.URL != want.URL:
				t.Errorf("%s: %.300s %+v, SQL says url %q", call("proposalMetadata"), c.OK, c.Err, want.URL)
			}
		}
		w := listCheck{route: form.route + "/withdrawals", fields: []string{"stake_address", "amount"}, want: withdrawals}
		sortedList(t, r, w, call("proposalWithdrawals"), true)
		sortedList(t, r, w, call("proposalWithdrawalsAll"), false)
		v := listCheck{route: form.route + "/votes", fields: []string{"tx_hash", "cert_index", "vote"}, want: votes}
		sortedList(t, r, v, call("proposalVotes"), true)
		sortedList(t, r, v, call("proposalVotesAll"), false)
	}
}
