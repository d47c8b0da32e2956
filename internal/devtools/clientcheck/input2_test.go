package clientcheck_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

// accountInput names the accounts, assets, metadata labels, pools and
// governance entities the blockfrost-js script asks about.
type accountInput struct {
	Accounts   []string `json:"accounts"`
	Assets     []string `json:"assets"`
	Policies   []string `json:"policies"`
	Labels     []string `json:"labels"`
	Pools      []string `json:"pools"`
	Governance govInput `json:"governance"`
}

type govInput struct {
	Committee []string      `json:"committee"` // cc_hot1… (CIP-129)
	DReps     []string      `json:"dreps"`     // drep_hash.view
	Proposals []proposalRef `json:"proposals"`
}

type proposalRef struct {
	TxHash    string `json:"tx_hash" db:"tx_hash"`
	CertIndex int    `json:"cert_index" db:"cert_index"`
	ID        string `json:"id" db:"-"` // gov_action1… (CIP-129)
}

// accountInput picks them with the test's own SQL and the manifest: the
// manifest's accounts of each kind (the busiest first: its lists have
// pages), an account paid by MIRs; the asset the asset address holds most
// and the manifest's minted-and-burned, CIP-25 and CIP-68 ones; the
// policies with the most assets; the busiest labels; the manifest's pools
// of each status and one that voted; the DReps with the most delegators
// and votes, the committee's hot credentials and the proposals of each
// kind.
func (s *stack) accountInput(t *testing.T, asset string) accountInput {
	t.Helper()
	m := s.m
	var in accountInput
	var mir string
	s.sql(t, &mir, `SELECT COALESCE((SELECT sa.view FROM stake_address sa WHERE sa.id = (SELECT addr_id FROM
		(SELECT addr_id, tx_id FROM reserve UNION ALL SELECT addr_id, tx_id FROM treasury) x ORDER BY tx_id LIMIT 1)), '')`)
	in.Accounts = dedupe(m.Accounts.Busiest, m.Accounts.Delegated, m.Accounts.ReRegistered, m.Accounts.Deregistered,
		m.Accounts.Refunded, m.Accounts.DRep, mir)
	unit := func(u string) string { return strings.ReplaceAll(u, ".", "") }
	in.Assets = dedupe(asset, unit(m.Assets.MintBurn.Unit), unit(m.Assets.CIP25V1.Unit), unit(m.Assets.CIP68.UserUnit))
	s.sqlList(t, &in.Policies, `SELECT encode(policy, 'hex') FROM multi_asset GROUP BY policy ORDER BY count(*) DESC, min(id) LIMIT 2`)
	s.sqlList(t, &in.Labels, `SELECT key::text FROM tx_metadata GROUP BY key ORDER BY count(*) DESC, key LIMIT 2`)
	var voted string
	s.sql(t, &voted, `SELECT COALESCE((SELECT ph.view FROM voting_procedure v JOIN pool_hash ph ON ph.id = v.pool_voter
		GROUP BY ph.id ORDER BY count(*) DESC, ph.id LIMIT 1), '')`)
	p := m.Pools
	in.Pools = dedupe(p.Biggest.ID, p.Retired.ID, p.Retiring.ID, p.ReRegistered.ID, p.CancelledRetirement.ID, p.WithMetadata.ID, voted)

	g := &in.Governance
	s.sqlList(t, &g.DReps, `SELECT DISTINCT view FROM (
		(SELECT dh.view FROM drep_hash dh JOIN delegation_vote dv ON dv.drep_hash_id = dh.id WHERE dh.raw IS NOT NULL
		 GROUP BY dh.id ORDER BY count(*) DESC, dh.id LIMIT 1)
		UNION ALL (SELECT dh.view FROM drep_hash dh JOIN voting_procedure v ON v.drep_voter = dh.id
		 GROUP BY dh.id ORDER BY count(*) DESC, dh.id LIMIT 1)
		UNION ALL (SELECT dh.view FROM drep_hash dh JOIN drep_registration r ON r.drep_hash_id = dh.id
		 WHERE r.deposit < 0 ORDER BY r.id LIMIT 1)) d`)
	var hot []struct {
		Raw    []byte `db:"raw"`
		Script bool   `db:"has_script"`
	}
	s.sqlList(t, &hot, `SELECT raw, has_script FROM committee_hash WHERE id IN (
		SELECT committee_voter FROM voting_procedure WHERE committee_voter IS NOT NULL
		UNION SELECT hot_key_id FROM committee_registration) ORDER BY id LIMIT 2`)
	for _, h := range hot {
		g.Committee = append(g.Committee, cip129(t, "cc_hot", 0x02, h.Raw, h.Script))
	}
	var props []proposalRef
	s.sqlList(t, &props, `SELECT encode(t.hash, 'hex') AS tx_hash, p.index AS cert_index FROM gov_action_proposal p
		JOIN tx t ON t.id = p.tx_id WHERE p.id IN (
		(SELECT min(id) FROM gov_action_proposal), (SELECT min(gov_action_proposal_id) FROM voting_procedure),
		(SELECT min(gov_action_proposal_id) FROM treasury_withdrawal), (SELECT min(id) FROM gov_action_proposal WHERE param_proposal IS NOT NULL),
		(SELECT min(p2.id) FROM gov_action_proposal p2 JOIN off_chain_vote_gov_action_data d ON d.off_chain_vote_data_id IN
		 (SELECT id FROM off_chain_vote_data WHERE voting_anchor_id = p2.voting_anchor_id))) ORDER BY p.id`)
	for _, p := range props {
		raw, _ := hex.DecodeString(p.TxHash)
		p.ID = bech32Of(t, "gov_action", append(raw, byte(p.CertIndex)))
		g.Proposals = append(g.Proposals, p)
	}
	if g.DReps == nil {
		g.DReps = []string{}
	}
	if g.Committee == nil {
		g.Committee = []string{}
	}
	if g.Proposals == nil {
		g.Proposals = []proposalRef{}
	}
	return in
}

// cip129 is a governance credential in CIP-129's bech32: a header byte
// (the key type's nibble, then 2 for a key hash, 3 for a script hash)
// and the hash.
func cip129(t *testing.T, hrp string, header byte, raw []byte, script bool) string {
	if script {
		header++
	}
	return bech32Of(t, hrp, append([]byte{header}, raw...))
}

func bech32Of(t *testing.T, hrp string, data []byte) string {
	t.Helper()
	conv, err := bech32.ConvertBits(data, 8, 5, true)
	if err != nil {
		t.Fatal(err)
	}
	s, err := bech32.Encode(hrp, conv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// dedupe is the non-empty values, each once, in order.
func dedupe(values ...string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range values {
		if v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
