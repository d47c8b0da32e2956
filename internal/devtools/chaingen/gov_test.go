package chaingen

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

// Every governance relation Blockfrost's governance, accounts and pools
// routes read holds rows on the default chain.
func TestSeedGovernanceTables(t *testing.T) {
	t.Parallel()
	db, _ := sharedCore.get(t, ModeCore)
	for _, tb := range []string{"drep_hash", "drep_registration", "drep_distr", "delegation_vote", "gov_action_proposal",
		"voting_procedure", "voting_anchor", "treasury_withdrawal", "committee", "committee_member", "committee_hash",
		"committee_registration", "committee_de_registration", "constitution", "epoch_state", "off_chain_vote_data",
		"off_chain_vote_drep_data", "off_chain_vote_gov_action_data", "off_chain_vote_fetch_error",
		"off_chain_vote_author", "off_chain_vote_reference", "pool_stat"} {
		if n := queryInt(t, db, `SELECT count(*) FROM `+tb); n == 0 {
			t.Errorf("%s is empty", tb)
		}
	}
	if got := queryString(t, db, `SELECT string_agg(DISTINCT type::text, ',' ORDER BY type::text) FROM gov_action_proposal`); got !=
		"HardForkInitiation,InfoAction,NewCommittee,NewConstitution,NoConfidence,ParameterChange,TreasuryWithdrawals" {
		t.Errorf("proposal types: %s", got)
	}
	if got := queryString(t, db, `SELECT string_agg(DISTINCT voter_role::text || ':' || vote::text, ',') FROM voting_procedure`); got !=
		"ConstitutionalCommittee:Abstain,ConstitutionalCommittee:No,ConstitutionalCommittee:Yes,DRep:Abstain,DRep:No,DRep:Yes,SPO:Abstain,SPO:No,SPO:Yes" {
		t.Errorf("roles and votes: %s", got)
	}
	if got := queryString(t, db, `SELECT string_agg(DISTINCT type::text, ',' ORDER BY type::text) FROM voting_anchor`); got !=
		"committee_dereg,constitution,drep,gov_action,vote" {
		t.Errorf("anchor types: %s", got)
	}
}

// Votes name existing proposals submitted before them, and the voter
// column their role implies; a changed vote is two rows.
func TestSeedGovernanceVotes(t *testing.T) {
	t.Parallel()
	db, m := sharedCore.get(t, ModeCore)
	if n := queryInt(t, db, `SELECT count(*) FROM voting_procedure v LEFT JOIN gov_action_proposal p ON p.id = v.gov_action_proposal_id
		WHERE p.id IS NULL OR p.tx_id >= v.tx_id OR v.invalid IS NOT NULL
		OR (v.voter_role = 'DRep') <> (v.drep_voter IS NOT NULL AND v.pool_voter IS NULL AND v.committee_voter IS NULL)
		OR (v.voter_role = 'SPO') <> (v.pool_voter IS NOT NULL AND v.drep_voter IS NULL AND v.committee_voter IS NULL)
		OR (v.voter_role = 'ConstitutionalCommittee') <> (v.committee_voter IS NOT NULL AND v.drep_voter IS NULL AND v.pool_voter IS NULL)
		OR NOT EXISTS (SELECT 1 FROM drep_hash d WHERE d.id = v.drep_voter) AND v.drep_voter IS NOT NULL
		OR NOT EXISTS (SELECT 1 FROM pool_hash h WHERE h.id = v.pool_voter) AND v.pool_voter IS NOT NULL
		OR NOT EXISTS (SELECT 1 FROM committee_registration r WHERE r.hot_key_id = v.committee_voter AND r.tx_id < v.tx_id)
		   AND v.committee_voter IS NOT NULL`); n != 0 {
		t.Errorf("%d inconsistent votes", n)
	}
	// Committee members do not vote on no-confidence or committee actions,
	// pools not on constitutions or treasury withdrawals.
	if n := queryInt(t, db, `SELECT count(*) FROM voting_procedure v JOIN gov_action_proposal p ON p.id = v.gov_action_proposal_id
		WHERE v.voter_role = 'ConstitutionalCommittee' AND p.type IN ('NoConfidence', 'NewCommittee')
		OR v.voter_role = 'SPO' AND p.type IN ('NewConstitution', 'TreasuryWithdrawals')`); n != 0 {
		t.Errorf("%d votes their role may not cast", n)
	}
	cv := m.Governance.ChangedVote
	if got := queryString(t, db, `SELECT string_agg(v.vote::text, ',' ORDER BY v.tx_id) FROM voting_procedure v
		JOIN drep_hash d ON d.id = v.drep_voter JOIN gov_action_proposal p ON p.id = v.gov_action_proposal_id
		JOIN tx t ON t.id = p.tx_id WHERE d.view = $1 AND t.hash = decode($2, 'hex') AND p.index = $3`,
		cv.DRep, cv.Proposal.TxHash, cv.Proposal.CertIndex); got != "No,Yes" {
		t.Errorf("changed vote of %s: %q", cv.DRep, got)
	}
}

// Each epoch's drep_distr is what the delegations say at its first block:
// per DRep, the UTxO, rewards and reward_rest (spendable by then) less
// withdrawals of every registered key whose latest vote delegation (after
// its latest deregistration) names it, retired DReps left out.
func TestSeedDRepDistr(t *testing.T) {
	t.Parallel()
	db, _ := sharedCore.get(t, ModeCore)
	q := `WITH b AS (SELECT min(id) AS first FROM block WHERE epoch_no = $1),
	dv AS (SELECT DISTINCT ON (d.addr_id) d.addr_id, d.drep_hash_id, d.tx_id
	       FROM delegation_vote d JOIN tx t ON t.id = d.tx_id, b WHERE t.block_id < b.first
	       ORDER BY d.addr_id, d.tx_id DESC, d.cert_index DESC),
	live AS (SELECT dv.* FROM dv, b
	  WHERE NOT EXISTS (SELECT 1 FROM stake_deregistration x JOIN tx t ON t.id = x.tx_id
	                    WHERE x.addr_id = dv.addr_id AND x.tx_id > dv.tx_id AND t.block_id < b.first)
	    AND NOT EXISTS (SELECT 1 FROM drep_registration r JOIN tx t ON t.id = r.tx_id
	                    WHERE r.drep_hash_id = dv.drep_hash_id AND r.deposit < 0 AND t.block_id < b.first)),
	bal AS (SELECT l.drep_hash_id,
	   (SELECT COALESCE(sum(o.value), 0) FROM tx_out o JOIN tx t ON t.id = o.tx_id, b
	     WHERE o.stake_address_id = l.addr_id AND t.block_id < b.first
	       AND NOT EXISTS (SELECT 1 FROM tx_in i JOIN tx ti ON ti.id = i.tx_in_id
	                       WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index AND ti.block_id < b.first))
	 + (SELECT COALESCE(sum(amount), 0) FROM reward WHERE addr_id = l.addr_id AND spendable_epoch <= $1)
	 + (SELECT COALESCE(sum(amount), 0) FROM reward_rest WHERE addr_id = l.addr_id AND spendable_epoch <= $1)
	 - (SELECT COALESCE(sum(w.amount), 0) FROM withdrawal w JOIN tx t ON t.id = w.tx_id, b
	     WHERE w.addr_id = l.addr_id AND t.block_id < b.first) AS amount
	  FROM live l),
	want AS (SELECT drep_hash_id, sum(amount) AS amount FROM bal GROUP BY 1),
	got AS (SELECT hash_id, amount FROM drep_distr WHERE epoch_no = $1)
	SELECT count(*) FROM want FULL JOIN got ON got.hash_id = want.drep_hash_id
	WHERE got.amount IS DISTINCT FROM want.amount`
	for e := firstConway; e <= tipEpoch; e++ {
		if n := queryInt(t, db, q, e); n != 0 {
			t.Errorf("epoch %d: %d DReps whose drep_distr differs from their delegations", e, n)
		}
	}
	if n := queryInt(t, db, `SELECT count(DISTINCT epoch_no) FROM drep_distr`); n != 2 {
		t.Errorf("drep_distr covers %d epochs", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM drep_distr x JOIN drep_hash d ON d.id = x.hash_id
		WHERE (d.raw IS NULL) <> (x.active_until IS NULL)`); n != 0 {
		t.Errorf("%d drep_distr rows with active_until set for a predefined DRep or missing for a key one", n)
	}
}

// Proposals' life: at most one end; enacted the epoch after ratification;
// expired the epoch after their expiration; dropped only beside an enacted
// one of the same kind; every removed proposal's deposit back to its
// (registered) return address at that epoch.
func TestSeedProposalLife(t *testing.T) {
	t.Parallel()
	db, _ := sharedCore.get(t, ModeCore)
	if n := queryInt(t, db, `SELECT count(*) FROM gov_action_proposal p JOIN tx t ON t.id = p.tx_id JOIN block b ON b.id = t.block_id
		WHERE (p.enacted_epoch IS NOT NULL)::int + (p.dropped_epoch IS NOT NULL)::int + (p.expired_epoch IS NOT NULL)::int > 1
		OR p.enacted_epoch IS NOT NULL AND p.enacted_epoch <> p.ratified_epoch + 1
		OR p.ratified_epoch IS NOT NULL AND p.ratified_epoch <= b.epoch_no
		OR p.expired_epoch IS NOT NULL AND p.expired_epoch <> p.expiration + 1
		OR p.expiration <> b.epoch_no + 1 OR p.deposit <> 100000000000
		OR p.dropped_epoch IS NOT NULL AND NOT EXISTS (SELECT 1 FROM gov_action_proposal q
		   WHERE q.type = p.type AND q.enacted_epoch = p.dropped_epoch)
		OR (p.type = 'ParameterChange') <> (p.param_proposal IS NOT NULL)
		OR p.type = 'TreasuryWithdrawals' AND NOT EXISTS (SELECT 1 FROM treasury_withdrawal w WHERE w.gov_action_proposal_id = p.id)
		OR p.type = 'NewConstitution' AND NOT EXISTS (SELECT 1 FROM constitution c WHERE c.gov_action_proposal_id = p.id)
		OR p.type = 'NewCommittee' AND NOT EXISTS (SELECT 1 FROM committee c WHERE c.gov_action_proposal_id = p.id)
		OR p.prev_gov_action_proposal IS NOT NULL AND NOT EXISTS (SELECT 1 FROM gov_action_proposal q
		   WHERE q.id = p.prev_gov_action_proposal AND q.type = p.type AND q.id < p.id)
		OR NOT EXISTS (SELECT 1 FROM voting_anchor a WHERE a.id = p.voting_anchor_id AND a.type = 'gov_action')`); n != 0 {
		t.Errorf("%d proposals with an inconsistent life", n)
	}
	if got := queryString(t, db, `SELECT string_agg(x, ',' ORDER BY x) FROM (SELECT DISTINCT CASE
		WHEN enacted_epoch IS NOT NULL THEN 'enacted' WHEN dropped_epoch IS NOT NULL THEN 'dropped'
		WHEN expired_epoch IS NOT NULL THEN 'expired' WHEN ratified_epoch IS NOT NULL THEN 'ratified' ELSE 'active' END AS x
		FROM gov_action_proposal) s`); got != "active,dropped,enacted,expired" {
		t.Errorf("proposal states: %s", got)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM gov_action_proposal p
		WHERE COALESCE(p.enacted_epoch, p.dropped_epoch) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM reward_rest r
		WHERE r.addr_id = p.return_address AND r.type = 'proposal_refund' AND r.spendable_epoch = COALESCE(p.enacted_epoch, p.dropped_epoch))`); n != 0 {
		t.Errorf("%d removed proposals without their refund", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM treasury_withdrawal w JOIN gov_action_proposal p ON p.id = w.gov_action_proposal_id
		WHERE p.enacted_epoch IS NOT NULL AND NOT EXISTS (SELECT 1 FROM reward_rest r WHERE r.addr_id = w.stake_address_id
		AND r.type = 'treasury' AND r.amount = w.amount AND r.spendable_epoch = p.enacted_epoch)`); n != 0 {
		t.Errorf("%d enacted treasury withdrawals not paid", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM epoch_param ep JOIN gov_action_proposal p ON p.enacted_epoch <= ep.epoch_no
		JOIN param_proposal pp ON pp.id = p.param_proposal WHERE ep.max_block_ex_mem <> pp.max_block_ex_mem`); n != 0 {
		t.Errorf("%d epochs without the enacted parameter change", n)
	}
}

// DReps: registrations with the deposit, updates with none, a retirement
// with the deposit negated; fetched documents hash to their anchors.
func TestSeedDRepRegistrations(t *testing.T) {
	t.Parallel()
	db, m := sharedCore.get(t, ModeCore)
	gov := m.Governance
	hist := `SELECT string_agg(COALESCE(r.deposit::text, 'null'), ',' ORDER BY r.tx_id) FROM drep_registration r
		JOIN drep_hash d ON d.id = r.drep_hash_id WHERE d.view = $1`
	if got := queryString(t, db, hist, gov.DRep.ID); !strings.HasPrefix(got+",", "500000000,") || strings.Contains(got, "-") {
		t.Errorf("DRep %s registrations: %s", gov.DRep.ID, got)
	}
	if got := queryString(t, db, hist, gov.Updated); got != "500000000,null" {
		t.Errorf("updated DRep %s registrations: %s", gov.Updated, got)
	}
	if got := queryString(t, db, hist, gov.DRepRetired.ID); got != "500000000,-500000000" {
		t.Errorf("retired DRep %s registrations: %s", gov.DRepRetired.ID, got)
	}
	if got := queryString(t, db, `SELECT o.given_name FROM off_chain_vote_drep_data o JOIN off_chain_vote_data v ON v.id = o.off_chain_vote_data_id
		JOIN voting_anchor a ON a.id = v.voting_anchor_id WHERE a.url = $1`, gov.DRep.MetadataURL); got == "" || got != gov.DRep.GivenName {
		t.Errorf("DRep given name %q, manifest %q", got, gov.DRep.GivenName)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM off_chain_vote_fetch_error e JOIN drep_registration r ON r.voting_anchor_id = e.voting_anchor_id
		JOIN drep_hash d ON d.id = r.drep_hash_id WHERE d.view = $1
		AND NOT EXISTS (SELECT 1 FROM off_chain_vote_data v WHERE v.voting_anchor_id = e.voting_anchor_id)`, gov.DRepBadMetadata.ID); n != 1 {
		t.Errorf("bad-metadata DRep: %d fetch errors", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM off_chain_vote_data v JOIN voting_anchor a ON a.id = v.voting_anchor_id
		WHERE v.hash <> a.data_hash OR v.bytes <> convert_to(v.json::text, 'UTF8') AND v.json <> convert_from(v.bytes, 'UTF8')::jsonb`); n != 0 {
		t.Errorf("%d off-chain documents not matching their anchors", n)
	}
	for _, d := range []DRepRef{gov.DRep, gov.DRepRetired, gov.DRepBadMetadata} {
		hrp, data, err := bech32.Decode(d.CIP129)
		b, _ := bech32.ConvertBits(data, 5, 8, false)
		if err != nil || hrp != "drep" || len(b) != 29 || b[0] != 0x22 || hex.EncodeToString(b[1:]) != d.Hex {
			t.Errorf("CIP-129 id %s of %s", d.CIP129, d.Hex)
		}
	}
}

// The manifest's governance ids (CIP-129 gov_action1…, cc_hot/cc_cold)
// decode to rows.
func TestSeedGovernanceManifest(t *testing.T) {
	t.Parallel()
	db, m := sharedCore.get(t, ModeCore)
	gov := m.Governance
	refs := []ProposalRef{gov.ActiveProposal, gov.EnactedProposal, gov.DroppedProposal, gov.ExpiredProposal, gov.Constitution.Proposal}
	for _, p := range gov.Proposals {
		refs = append(refs, p)
	}
	if len(gov.Proposals) != 7 {
		t.Errorf("%d proposal kinds in the manifest", len(gov.Proposals))
	}
	for _, r := range refs {
		hrp, data, err := bech32.DecodeNoLimit(r.ID)
		b, _ := bech32.ConvertBits(data, 5, 8, false)
		if err != nil || hrp != "gov_action" || len(b) != 33 {
			t.Errorf("gov action id %q: %v", r.ID, err)
			continue
		}
		state := queryString(t, db, `SELECT p.type || ':' || CASE WHEN enacted_epoch IS NOT NULL THEN 'enacted'
			WHEN dropped_epoch IS NOT NULL THEN 'dropped' WHEN expired_epoch IS NOT NULL THEN 'expired'
			WHEN ratified_epoch IS NOT NULL THEN 'ratified' ELSE 'active' END
			FROM gov_action_proposal p JOIN tx t ON t.id = p.tx_id WHERE t.hash = $1 AND p.index = $2`, b[:32], int(b[32]))
		if state != r.Type+":"+r.State || hex.EncodeToString(b[:32]) != r.TxHash || int(b[32]) != r.CertIndex {
			t.Errorf("%s: row %q, manifest %+v", r.ID, state, r)
		}
	}
	if gov.ActiveProposal.State != "active" || queryInt(t, db, `SELECT count(DISTINCT v.voter_role) FROM voting_procedure v
		JOIN gov_action_proposal p ON p.id = v.gov_action_proposal_id JOIN tx t ON t.id = p.tx_id WHERE t.hash = decode($1, 'hex')`,
		gov.ActiveProposal.TxHash) != 3 {
		t.Errorf("active proposal %+v: not voted on by every role", gov.ActiveProposal)
	}
	cm := gov.CommitteeMember
	if got := queryString(t, db, `SELECT count(*) || ':' || string_agg(encode(h.raw, 'hex'), ',' ORDER BY r.id) FROM committee_registration r
		JOIN committee_hash c ON c.id = r.cold_key_id JOIN committee_hash h ON h.id = r.hot_key_id
		WHERE c.raw = decode($1, 'hex')`, cm.ColdHex); len(got) < 2 || got[:2] != "2:" || got[len(got)-56:] != cm.HotHex {
		t.Errorf("committee member %s hot keys: %s", cm.ColdHex, got)
	}
	for id, hrp := range map[string]string{cm.ColdID: "cc_cold", cm.HotID: "cc_hot"} {
		if h, _, err := bech32.Decode(id); err != nil || h != hrp {
			t.Errorf("%s: %v", id, err)
		}
	}
	if n := queryInt(t, db, `SELECT count(*) FROM committee_de_registration d JOIN committee_hash c ON c.id = d.cold_key_id
		WHERE c.raw = decode($1, 'hex')`, gov.CommitteeResigned.ColdHex); n != 1 {
		t.Errorf("resigned member: %d resignations", n)
	}
	if got := queryString(t, db, `SELECT a.url || ' ' || encode(a.data_hash, 'hex') FROM epoch_state s JOIN constitution c ON c.id = s.constitution_id
		JOIN voting_anchor a ON a.id = c.voting_anchor_id WHERE s.epoch_no = $1`, tipEpoch); got !=
		gov.Constitution.URL+" "+gov.Constitution.DataHash {
		t.Errorf("constitution at the tip: %q, manifest %+v", got, gov.Constitution)
	}
	if gov.DRep.Delegators < 1 || gov.DRep.GivenName == "" {
		t.Errorf("DRep %+v", gov.DRep)
	}
}

// pool_stat is each boundary's snapshot (epoch_stake of the next epoch)
// and the previous epoch's blocks.
func TestSeedPoolStat(t *testing.T) {
	t.Parallel()
	db, _ := sharedCore.get(t, ModeCore)
	if n := queryInt(t, db, `SELECT count(*) FROM pool_stat s
		WHERE s.stake <> COALESCE((SELECT sum(amount) FROM epoch_stake x WHERE x.pool_id = s.pool_hash_id AND x.epoch_no = s.epoch_no + 1), 0)
		OR s.number_of_delegators <> (SELECT count(*) FROM epoch_stake x WHERE x.pool_id = s.pool_hash_id AND x.epoch_no = s.epoch_no + 1)
		OR s.number_of_blocks <> (SELECT count(*) FROM block b JOIN slot_leader l ON l.id = b.slot_leader_id
		   WHERE l.pool_hash_id = s.pool_hash_id AND b.epoch_no = s.epoch_no - 1)
		OR (s.voting_power IS NULL) <> (s.epoch_no < $1)`, firstConway); n != 0 {
		t.Errorf("%d pool_stat rows not matching the snapshot and the blocks", n)
	}
}

// Metadata of every shape, the ADA Handle, relays of all four kinds, and
// the manifest's asset picks.
func TestSeedExtras(t *testing.T) {
	t.Parallel()
	db, m := sharedCore.get(t, ModeCore)
	x := m.Extras
	if n := queryInt(t, db, `SELECT count(DISTINCT tx_id) FROM tx_metadata WHERE key = $1`, x.MetadataLabel.Label); n != int64(x.MetadataLabel.Txs) || n < 10 {
		t.Errorf("label %d: %d transactions, manifest %d", x.MetadataLabel.Label, n, x.MetadataLabel.Txs)
	}
	for _, c := range []struct {
		label uint64
		typ   string
	}{{1, "number"}, {2, "string"}, {3, "object"}, {61284, "object"}, {1000000, "array"}, {674, "object"}, {721, "object"}} {
		if n := queryInt(t, db, `SELECT count(*) FROM tx_metadata WHERE key = $1 AND jsonb_typeof(json) = $2
			AND substring(bytes FROM 1 FOR 1) = '\xa1'::bytea`, c.label, c.typ); n == 0 {
			t.Errorf("no metadata of type %s under label %d", c.typ, c.label)
		}
	}
	h := x.AdaHandle
	if h == nil || h.Unit != adaHandlePolicy+"."+hex.EncodeToString([]byte(adaHandleName)) {
		t.Fatalf("handle %+v", h)
	}
	if got := queryString(t, db, `SELECT o.address || ' ' || (md.json -> $1 -> $2 ->> 'name') FROM multi_asset a
		JOIN ma_tx_out mo ON mo.ident = a.id JOIN tx_out o ON o.id = mo.tx_out_id
		JOIN ma_tx_mint mt ON mt.ident = a.id JOIN tx_metadata md ON md.tx_id = mt.tx_id AND md.key = 721
		WHERE a.policy = decode($1, 'hex') AND a.name = convert_to($2, 'UTF8')
		AND NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`,
		adaHandlePolicy, adaHandleName); got != h.Address+" $"+adaHandleName {
		t.Errorf("handle holder and name: %q, manifest %+v", got, h)
	}
	if got := queryString(t, db, `SELECT string_agg(k, ',' ORDER BY k) FROM (SELECT DISTINCT CASE
		WHEN ipv4 IS NOT NULL THEN 'ipv4' WHEN ipv6 IS NOT NULL THEN 'ipv6' WHEN dns_name IS NOT NULL THEN 'dns'
		WHEN dns_srv_name IS NOT NULL AND port IS NULL THEN 'srv' END AS k FROM pool_relay) r`); got != "dns,ipv4,ipv6,srv" {
		t.Errorf("relay kinds: %s", got)
	}
	held := `SELECT count(DISTINCT o.address) FROM tx_out o JOIN ma_tx_out mo ON mo.tx_out_id = o.id JOIN multi_asset a ON a.id = mo.ident
		WHERE encode(a.policy, 'hex') || '.' || encode(a.name, 'hex') = $1
		AND NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`
	if n := queryInt(t, db, held, x.MostHeldAsset.Unit); n != int64(x.MostHeldAsset.Holders) || n < 2 {
		t.Errorf("most held asset %+v: %d holders", x.MostHeldAsset, n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM multi_asset WHERE policy = decode($1, 'hex')`, x.BigPolicy.Policy); n != int64(x.BigPolicy.Assets) ||
		n < collectionSize || n < queryInt(t, db, `SELECT max(n) FROM (SELECT count(*) AS n FROM multi_asset GROUP BY policy) p`) {
		t.Errorf("big policy %+v: %d assets", x.BigPolicy, n)
	}
}
