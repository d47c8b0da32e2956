package handlers

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/internal/cardano"
)

// sqlDReps is every DRep in drep_hash order with its registration state
// as the test reads it: the latest certificate carrying a deposit is a
// registration (positive), and its current delegators.
const sqlDReps = `
SELECT dh.id, dh.view, COALESCE(encode(dh.raw, 'hex'), '') AS hex, dh.has_script,
  COALESCE((SELECT dr.deposit > 0 FROM drep_registration dr WHERE dr.drep_hash_id = dh.id AND dr.deposit IS NOT NULL
            ORDER BY dr.tx_id DESC, dr.cert_index DESC LIMIT 1), false) AS registered,
  COALESCE((SELECT amount::text FROM drep_distr WHERE hash_id = dh.id AND epoch_no = (SELECT max(epoch_no) FROM block)), '0') AS amount
FROM drep_hash dh ORDER BY dh.id`

// sqlDRepDelegators: the DRep's current delegators, the latest vote
// delegation of each stake address with no deregistration after it.
const sqlDRepDelegators = `
SELECT sa.view FROM (
  SELECT DISTINCT ON (dv.addr_id) dv.addr_id, dv.drep_hash_id, dv.id, dv.tx_id, dv.cert_index
  FROM delegation_vote dv ORDER BY dv.addr_id, dv.tx_id DESC, dv.cert_index DESC) l
JOIN stake_address sa ON sa.id = l.addr_id
WHERE l.drep_hash_id = $1 AND NOT EXISTS (SELECT 1 FROM stake_deregistration sd WHERE sd.addr_id = l.addr_id
  AND (sd.tx_id, sd.cert_index) > (l.tx_id, l.cert_index))
ORDER BY l.id`

type sqlDRep struct {
	ID         int64  `db:"id"`
	View       string `db:"view"`
	Hex        string `db:"hex"`
	HasScript  bool   `db:"has_script"`
	Registered bool   `db:"registered"`
	Amount     string `db:"amount"`
}

type bfDRepItem struct {
	DRepID   string `json:"drep_id"`
	Hex      string `json:"hex"`
	Amount   string `json:"amount"`
	Retired  bool   `json:"retired"`
	Metadata *struct {
		URL   string          `json:"url"`
		Error *map[string]any `json:"error"`
	} `json:"metadata"`
}

// govPages reads a list page by page (count per page) until a short one.
func govPages[T any](t *testing.T, h http.Handler, path string, count int) []T {
	t.Helper()
	var all []T
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	for page := 1; ; page++ {
		var items []T
		bfJSON(t, h, fmt.Sprintf("%s%scount=%d&page=%d", path, sep, count, page), &items)
		all = append(all, items...)
		if len(items) < count {
			return all
		}
	}
}

// TestBlockfrostGovernanceDReps: /governance/dreps against SQL of the
// test's own (order, ids, retirement, voting power, filters, paging both
// ways), one DRep in each of its spellings, its delegators, certificates,
// votes and anchor; refusals.
func TestBlockfrostGovernanceDReps(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var want []sqlDRep
		if err := c.raw.Select(&want, sqlDReps); err != nil {
			t.Fatal(err)
		}
		var registrations int
		if err := c.raw.Get(&registrations, `SELECT count(*) FROM drep_registration`); err != nil || registrations == 0 {
			t.Fatalf("%s: the generator's DReps are missing (%d registrations, %v)", c.mode, registrations, err)
		}
		all := govPages[bfDRepItem](t, h, "/governance/dreps", 3)
		if len(all) != len(want) {
			t.Fatalf("%s: %d DReps, SQL %d", c.mode, len(all), len(want))
		}
		for i, w := range want {
			g := all[i]
			special := w.Hex == ""
			if g.DRepID != w.View || g.Hex != w.Hex || g.Amount != w.Amount || g.Retired != (!w.Registered && !special) {
				t.Errorf("%s: DRep %d: %+v, SQL %+v", c.mode, i, g, w)
			}
		}
		var desc []bfDRepItem
		bfJSON(t, h, "/governance/dreps?order=desc&count=2", &desc)
		if len(desc) != min(2, len(want)) || desc[0].DRepID != want[len(want)-1].View {
			t.Errorf("%s: desc page 1 %+v", c.mode, desc)
		}
		var byAmount []bfDRepItem
		bfJSON(t, h, "/governance/dreps?order_by=amount&order=desc", &byAmount)
		for i := 1; i < len(byAmount); i++ {
			if len(byAmount[i].Amount) > len(byAmount[i-1].Amount) ||
				(len(byAmount[i].Amount) == len(byAmount[i-1].Amount) && byAmount[i].Amount > byAmount[i-1].Amount) {
				t.Errorf("%s: order_by=amount desc out of order at %d: %s after %s", c.mode, i, byAmount[i].Amount, byAmount[i-1].Amount)
			}
		}
		var retired []bfDRepItem
		bfJSON(t, h, "/governance/dreps?retired=true", &retired)
		nRetired := 0
		for _, w := range want {
			if !w.Registered && w.Hex != "" {
				nRetired++
			}
		}
		if len(retired) != nRetired || nRetired == 0 {
			t.Errorf("%s: %d retired DReps, SQL %d (the generator retires one)", c.mode, len(retired), nRetired)
		}

		// The DRep with the most current delegators, in every spelling.
		var top sqlDRep
		if err := c.raw.Get(&top, `SELECT dh.id, dh.view, encode(dh.raw, 'hex') AS hex, dh.has_script, true AS registered, '0' AS amount
			FROM drep_hash dh JOIN delegation_vote dv ON dv.drep_hash_id = dh.id WHERE dh.raw IS NOT NULL
			GROUP BY dh.id ORDER BY count(DISTINCT dv.addr_id) DESC, dh.id LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		raw, _ := hex.DecodeString(top.Hex)
		cip129 := cardano.DRepCIP129(raw, top.HasScript)
		for _, form := range []struct{ id, wantID, wantHex string }{
			{top.View, top.View, top.Hex},
			{cip129, cip129, map[bool]string{false: "22", true: "23"}[top.HasScript] + top.Hex},
			{top.Hex, top.View, top.Hex},
		} {
			var d struct {
				DRepID string `json:"drep_id"`
				Hex    string `json:"hex"`
				Active bool   `json:"active"`
			}
			bfJSON(t, h, "/governance/dreps/"+form.id, &d)
			if d.DRepID != form.wantID || d.Hex != form.wantHex {
				t.Errorf("%s: /governance/dreps/%s: %+v, want %s %s", c.mode, form.id, d, form.wantID, form.wantHex)
			}
		}
		var delegators []string
		if err := c.raw.Select(&delegators, sqlDRepDelegators, top.ID); err != nil || len(delegators) == 0 {
			t.Fatalf("%s: delegators of %s: %d, %v", c.mode, top.View, len(delegators), err)
		}
		type stake struct {
			Address string `json:"address"`
			Amount  string `json:"amount"`
		}
		for _, id := range []string{top.View, cip129} {
			got := govPages[stake](t, h, "/governance/dreps/"+id+"/delegators", 2)
			addrs := make([]string, len(got))
			for i, s := range got {
				addrs[i] = s.Address
			}
			if !slices.Equal(addrs, delegators) {
				t.Errorf("%s: delegators of %s: %v, SQL %v", c.mode, id, addrs, delegators)
			}
		}
		var lastPage []stake
		bfJSON(t, h, "/governance/dreps/"+top.View+"/delegators?count=1&order=desc", &lastPage)
		if len(lastPage) != 1 || lastPage[0].Address != delegators[len(delegators)-1] {
			t.Errorf("%s: newest delegator %+v, SQL %s", c.mode, lastPage, delegators[len(delegators)-1])
		}
		var updates []struct {
			TxHash  string  `json:"tx_hash"`
			Action  string  `json:"action"`
			Deposit *string `json:"deposit"`
		}
		var wantUpdates []string
		if err := c.raw.Select(&wantUpdates, `SELECT encode(t.hash, 'hex') FROM drep_registration dr JOIN tx t ON t.id = dr.tx_id
			WHERE dr.drep_hash_id = $1 ORDER BY dr.tx_id, dr.cert_index`, top.ID); err != nil {
			t.Fatal(err)
		}
		bfJSON(t, h, "/governance/dreps/"+top.View+"/updates", &updates)
		if len(updates) != len(wantUpdates) || len(updates) == 0 || updates[0].TxHash != wantUpdates[0] || updates[0].Action != "registered" || updates[0].Deposit == nil {
			t.Errorf("%s: updates %+v, SQL %v", c.mode, updates, wantUpdates)
		}
		var nVotes int
		if err := c.raw.Get(&nVotes, `SELECT count(*) FROM voting_procedure WHERE drep_voter = $1`, top.ID); err != nil {
			t.Fatal(err)
		}
		votes := govPages[struct {
			ProposalID string `json:"proposal_id"`
		}](t, h, "/governance/dreps/"+top.View+"/votes", 2)
		if len(votes) != nVotes {
			t.Errorf("%s: %d votes, SQL %d", c.mode, len(votes), nVotes)
		}
		var url string
		if err := c.raw.Get(&url, `SELECT va.url FROM drep_registration dr JOIN voting_anchor va ON va.id = dr.voting_anchor_id
			WHERE dr.drep_hash_id = $1 ORDER BY dr.tx_id DESC, dr.cert_index DESC LIMIT 1`, top.ID); err != nil {
			t.Fatal(err)
		}
		var meta struct {
			URL          string `json:"url"`
			JSONMetadata any    `json:"json_metadata"`
		}
		bfJSON(t, h, "/governance/dreps/"+top.View+"/metadata", &meta)
		if meta.URL != url {
			t.Errorf("%s: metadata url %s, SQL %s", c.mode, meta.URL, url)
		}

		unknown := cardano.DRepID{Hash: [28]byte{1, 2, 3}}
		for _, p := range []string{"/governance/dreps/" + unknown.CIP105(), "/governance/dreps/" + unknown.CIP129String() + "/votes",
			"/governance/dreps/" + unknown.CIP105() + "/delegators", "/governance/dreps/" + unknown.CIP105() + "/metadata"} {
			bfRefused(t, h, p, http.StatusNotFound, "")
		}
		for _, p := range []string{"/governance/dreps/drep1xyz", "/governance/dreps/pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2qnikdy/votes",
			"/governance/dreps/" + strings.Repeat("0", 55)} {
			bfRefused(t, h, p, http.StatusBadRequest, "drep id")
		}
		bfRefused(t, h, "/governance/dreps?order_by=id", http.StatusBadRequest, "order_by")
		bfRefused(t, h, "/governance/dreps?retired=yes", http.StatusBadRequest, "retired")
		bfRefused(t, h, "/governance/dreps?count=101", http.StatusBadRequest, "count")
	}
}
