package clientcheck_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// handlePolicy is ADA Handle's policy, the one Mesh's fetchHandle asks
// about (a CIP-68 user token, label 222, named after the handle).
const handlePolicy = "f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a"

// meshReads names what Mesh's BlockfrostProvider reads before it pays
// (READS): accounts, an asset's holders, a CIP-25 asset's metadata, a
// policy's assets, a handle and a proposal ("" and nil: the chain has
// none).
type meshReads struct {
	Accounts       []string     `json:"accounts"`
	AssetAddresses []string     `json:"assetAddresses"`
	AssetMetadata  []string     `json:"assetMetadata"`
	Collections    []string     `json:"collections"`
	Handle         string       `json:"handle,omitempty"`
	Proposal       *proposalRef `json:"proposal,omitempty"`
}

func (s *stack) meshReads(t *testing.T) meshReads {
	t.Helper()
	m := s.m
	unit := func(u string) string { return strings.ReplaceAll(u, ".", "") }
	in := meshReads{Accounts: dedupe(m.Accounts.Delegated, m.Accounts.Deregistered),
		AssetAddresses: []string{unit(m.Assets.CIP68.UserUnit)}, AssetMetadata: []string{unit(m.Assets.CIP25V1.Unit)}}
	s.sqlList(t, &in.Collections, `SELECT encode(policy, 'hex') FROM multi_asset GROUP BY policy ORDER BY count(*) DESC, min(id) LIMIT 1`)
	var handle []byte
	s.sql(t, &handle, `SELECT COALESCE((SELECT substr(name, 5) FROM multi_asset WHERE policy = decode($1, 'hex')
		AND substr(name, 1, 4) = '\x000de140'::bytea ORDER BY id LIMIT 1), '')`, handlePolicy)
	if len(handle) > 0 {
		in.Handle = "$" + string(handle)
	}
	var props []proposalRef
	s.sqlList(t, &props, `SELECT encode(t.hash, 'hex') AS tx_hash, p.index AS cert_index FROM gov_action_proposal p
		JOIN tx t ON t.id = p.tx_id WHERE p.voting_anchor_id IS NOT NULL ORDER BY p.id LIMIT 1`)
	if len(props) > 0 {
		in.Proposal = &props[0]
	}
	return in
}

// waitFile waits until the gated script created path (its reads are
// done) or ended.
func (g *gated) waitFile(t *testing.T, path string, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		select {
		case <-g.finished:
			return // it failed: run reports why
		default:
		}
		if time.Now().After(deadline) {
			t.Errorf("%s: its reads were not done within %s", g.name, within)
			return
		}
	}
}

// checkMeshReads compares what Mesh's provider read with the test's SQL.
// A read whose route is not served yet, or whose entity the chain lacks,
// is logged.
func checkMeshReads(t *testing.T, s *stack, in meshReads, reads map[string]callResult) {
	table := servedRoutes()
	compared := 0
	defer func() { t.Logf("%d Mesh reads compared with SQL", compared) }()
	read := func(key, route string, into any) bool {
		t.Helper()
		c, ok := reads[key]
		switch {
		case !ok:
			t.Errorf("Mesh made no read %s", key)
		case !table[routeShape(route)]:
			t.Logf("Mesh %s: not served yet (%s)", key, route)
		case c.Err != nil:
			t.Errorf("Mesh %s (%s) failed: %+v", key, route, *c.Err)
		case json.Unmarshal(c.OK, into) != nil:
			t.Errorf("Mesh %s: %.300s", key, c.OK)
		default:
			compared++
			return true
		}
		return false
	}
	for _, a := range in.Accounts {
		var got struct {
			PoolID      *string `json:"poolId"`
			Active      bool    `json:"active"`
			Balance     string  `json:"balance"`
			Rewards     string  `json:"rewards"`
			Withdrawals string  `json:"withdrawals"`
		}
		k := "fetchAccountInfo|" + a
		if read(k, "GET /accounts/{stake_address}", &got) {
			f := s.accountFacts(t, a)
			eq(t, k+" poolId", deref(got.PoolID), deref(f.Pool))
			eq(t, k+" active (active or active_epoch set)", got.Active, f.Pool != nil || f.ActiveEpoch != nil)
			eq(t, k+" balance", got.Balance, f.Controlled)
			eq(t, k+" rewards", got.Rewards, f.Withdrawable)
			eq(t, k+" withdrawals", got.Withdrawals, f.Withdrawals)
		}
	}
	for _, a := range in.AssetAddresses {
		var got []map[string]json.RawMessage
		k := "fetchAssetAddresses|" + a
		if read(k, "GET /assets/{asset}/addresses", &got) {
			want := s.want(t, `SELECT o.address || ' ' || sum(mo.quantity)
				FROM ma_tx_out mo JOIN tx_out o ON o.id = mo.tx_out_id WHERE mo.ident = `+assetSQL+` AND mo.quantity > 0 AND `+unspentSQL+`
				GROUP BY o.address ORDER BY min(o.id)`, a)
			if len(want) == 0 { // Mesh answers [] when a read fails
				t.Errorf("%s: the test's asset has no holders", k)
			}
			sameList(t, k, itemsKey(got, "address", "quantity"), want)
		}
	}
	for _, a := range in.AssetMetadata {
		k := "fetchAssetMetadata|" + a
		var meta string
		s.sql(t, &meta, cip25SQL, a)
		checkMeshAsset(t, s, read, k, a, []byte(meta))
	}
	for _, p := range in.Collections {
		var got struct {
			Assets []map[string]json.RawMessage `json:"assets"`
			Next   *int                         `json:"next"`
		}
		k := "fetchCollectionAssets|" + p
		if read(k, "GET /assets/policy/{policy_id}", &got) {
			want := s.want(t, `SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') || ' ' || `+supplySQL+`
				FROM multi_asset ma WHERE ma.policy = decode($1, 'hex') ORDER BY ma.id`, p)
			if len(want) == 0 { // Mesh answers no assets when a read fails
				t.Errorf("%s: the test's policy has no assets", k)
			}
			sameList(t, k, itemsKey(got.Assets, "unit", "quantity"), want[:min(100, len(want))])
			eq(t, k+" next (another page)", got.Next != nil, len(want) >= 100)
		}
	}
	if in.Handle == "" {
		t.Logf("lacking data: the chain has no ADA Handle (a label 222 token under %s), so Mesh's fetchHandle was not called", handlePolicy)
	} else {
		name := hex.EncodeToString([]byte(strings.TrimPrefix(in.Handle, "$")))
		checkMeshAsset(t, s, read, "fetchHandle|"+in.Handle, handlePolicy+"000de140"+name, nil)
	}
	if in.Proposal == nil {
		t.Logf("lacking data: the chain has no proposal with an anchor, so Mesh's fetchGovernanceProposal was not called")
		return
	}
	p := *in.Proposal
	k := "fetchGovernanceProposal|" + p.TxHash + "|" + strconv.Itoa(p.CertIndex)
	if !table[routeShape("GET /governance/proposals/{tx_hash}/{cert_index}/metadata")] {
		t.Logf("Mesh %s: not served yet (GET /governance/proposals/{tx_hash}/{cert_index}/metadata)", k)
		return
	}
	var got struct {
		TxHash    string `json:"txHash"`
		CertIndex int    `json:"certIndex"`
		Type      string `json:"governanceType"`
		Deposit   string `json:"deposit"`
		Return    string `json:"returnAddress"`
		Metadata  struct {
			URL string `json:"url"`
		} `json:"metadata"`
	}
	if read(k, "GET /governance/proposals/{tx_hash}/{cert_index}", &got) {
		var want struct{ Type, Deposit, ReturnAddress, URL string }
		s.sql(t, &want, `SELECT `+govTypeSQL+` AS type, p.deposit::text AS deposit, sa.view AS returnaddress, va.url
			FROM gov_action_proposal p JOIN stake_address sa ON sa.id = p.return_address JOIN voting_anchor va ON va.id = p.voting_anchor_id
			WHERE p.id = `+proposalSQL, p.TxHash, p.CertIndex)
		eq(t, k+" txHash", got.TxHash, p.TxHash)
		eq(t, k+" certIndex", got.CertIndex, p.CertIndex)
		eq(t, k+" governanceType", got.Type, want.Type)
		eq(t, k+" deposit", got.Deposit, want.Deposit)
		eq(t, k+" returnAddress", got.Return, want.ReturnAddress)
		eq(t, k+" metadata url", got.Metadata.URL, want.URL)
	}
}

// checkMeshAsset compares Mesh's asset metadata (the asset's on-chain
// metadata with its fingerprint, supply, first minting transaction and
// mint count) with SQL; onchain, when given, is the metadata SQL expects.
func checkMeshAsset(t *testing.T, s *stack, read func(string, string, any) bool, k, unit string, onchain []byte) {
	t.Helper()
	var got map[string]json.RawMessage
	if !read(k, "GET /assets/{asset}", &got) {
		return
	}
	f := s.assetFacts(t, unit)
	var mints int
	_ = json.Unmarshal(got["mintCount"], &mints)
	eq(t, k+" fingerprint", jsonText(got["fingerprint"]), f.Fingerprint)
	eq(t, k+" totalSupply", jsonText(got["totalSupply"]), f.Quantity)
	eq(t, k+" mintingTxHash", jsonText(got["mintingTxHash"]), f.FirstMint)
	eq(t, k+" mintCount", mints, f.Mints)
	if onchain == nil {
		return
	}
	for _, own := range []string{"fingerprint", "totalSupply", "mintingTxHash", "mintCount"} {
		delete(got, own)
	}
	rest, _ := json.Marshal(got)
	if !sameJSON(rest, onchain) {
		t.Errorf("%s on-chain metadata: %s, SQL says %s", k, rest, onchain)
	}
}
