package handlers

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// bfStakeSubjects are the stake addresses the account routes are checked
// with: every history the manifest names, the busiest stake key and the
// sampled ones.
func bfStakeSubjects(c *testChain) map[string]string {
	m := c.manifest
	out := map[string]string{
		"delegated": m.Accounts.Delegated, "re_registered": m.Accounts.ReRegistered,
		"deregistered": m.Accounts.Deregistered, "drep": m.Accounts.DRep,
		"always_abstain": m.Accounts.AlwaysAbstain, "no_confidence": m.Accounts.NoConfidence,
		"refunded": m.Accounts.Refunded, "busiest": m.Accounts.Busiest,
		"busiest_stake_key": m.BusiestStakeKey.StakeAddress,
	}
	for i, s := range m.StakeKeys {
		out[fmt.Sprintf("stake_key_%d", i)] = s.StakeAddress
	}
	// The manifest names no MIR recipient: the one with the most.
	var mir []string
	if err := c.raw.Select(&mir, `SELECT sa.view FROM (SELECT addr_id FROM reserve UNION ALL SELECT addr_id FROM treasury) m
		JOIN stake_address sa ON sa.id = m.addr_id GROUP BY sa.view ORDER BY count(*) DESC, sa.view LIMIT 1`); err == nil && len(mir) == 1 {
		out["mir"] = mir[0]
	}
	for k, v := range out {
		if v == "" {
			delete(out, k)
		}
	}
	return out
}

// bfCert is a certificate's place in chain order.
type bfCert struct {
	TxID  int64 `db:"tx_id"`
	Index int64 `db:"cert_index"`
	Epoch int64 `db:"epoch_no"`
}

func (a bfCert) after(b bfCert) bool { return a.TxID > b.TxID || a.TxID == b.TxID && a.Index > b.Index }

// bfLatest is the newest row of table for the account (nil: none).
func bfLatest(t *testing.T, c *testChain, table, extra string, id int64) *bfCert {
	t.Helper()
	var rows []bfCert
	if err := c.raw.Select(&rows, `SELECT tx_id, cert_index, `+extra+` AS epoch_no FROM `+table+`
		WHERE addr_id = $1 ORDER BY tx_id DESC, cert_index DESC LIMIT 1`, id); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		return nil
	}
	return &rows[0]
}

// bfWantAccount is the account's account_content from the test's own SQL
// and rules (docs/DECISIONS.md "Blockfrost dialect: accounts").
func bfWantAccount(t *testing.T, c *testChain, stake string) map[string]any {
	t.Helper()
	var id, epoch int64
	if err := c.raw.Get(&id, `SELECT id FROM stake_address WHERE view = $1`, stake); err != nil {
		t.Fatal(err)
	}
	if err := c.raw.Get(&epoch, `SELECT epoch_no FROM block ORDER BY id DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	reg := bfLatest(t, c, "stake_registration", "epoch_no", id)
	dereg := bfLatest(t, c, "stake_deregistration", "epoch_no", id)
	registered := reg != nil && (dereg == nil || reg.after(*dereg))
	var activeEpoch any
	switch {
	case reg != nil && (dereg == nil || reg.after(*dereg)):
		activeEpoch = float64(reg.Epoch)
	case dereg != nil:
		activeEpoch = float64(dereg.Epoch)
	}
	var pool, drep any
	if registered {
		var d []struct {
			bfCert
			View string `db:"view"`
		}
		if err := c.raw.Select(&d, `SELECT d.tx_id, d.cert_index, 0 AS epoch_no, ph.view FROM delegation d
			JOIN pool_hash ph ON ph.id = d.pool_hash_id WHERE d.addr_id = $1 ORDER BY d.tx_id DESC, d.cert_index DESC LIMIT 1`, id); err != nil {
			t.Fatal(err)
		}
		if len(d) == 1 && !reg.after(d[0].bfCert) {
			pool = d[0].View
		}
		var v []struct {
			bfCert
			DRep   int64  `db:"drep_hash_id"`
			Raw    []byte `db:"raw"`
			View   string `db:"view"`
			Script bool   `db:"has_script"`
		}
		if err := c.raw.Select(&v, `SELECT dv.tx_id, dv.cert_index, 0 AS epoch_no, dv.drep_hash_id, dh.raw, dh.view, dh.has_script
			FROM delegation_vote dv JOIN drep_hash dh ON dh.id = dv.drep_hash_id
			WHERE dv.addr_id = $1 ORDER BY dv.tx_id DESC, dv.cert_index DESC LIMIT 1`, id); err != nil {
			t.Fatal(err)
		}
		if len(v) == 1 && !reg.after(v[0].bfCert) {
			var retired bool
			if err := c.raw.Get(&retired, `SELECT EXISTS (SELECT 1 FROM drep_registration WHERE drep_hash_id = $1
				AND deposit < 0 AND (tx_id > $2 OR tx_id = $2 AND cert_index > $3))`, v[0].DRep, v[0].TxID, v[0].Index); err != nil {
				t.Fatal(err)
			}
			switch {
			case retired:
			case v[0].Raw == nil:
				drep = v[0].View
			default:
				drep = bfCIP129DRep(t, v[0].Raw, v[0].Script)
			}
		}
	}
	var s struct {
		UTxO        int64 `db:"utxo"`
		Rewards     int64 `db:"rewards"`
		Withdrawals int64 `db:"withdrawals"`
		Reserves    int64 `db:"reserves"`
		Treasury    int64 `db:"treasury"`
	}
	if err := c.raw.Get(&s, `SELECT
		(SELECT COALESCE(sum(o.value), 0) FROM tx_out o WHERE o.stake_address_id = $1 AND `+unspentSQL(c)+`) AS utxo,
		(SELECT COALESCE(sum(amount), 0) FROM reward WHERE addr_id = $1 AND spendable_epoch <= $2)
		  + (SELECT COALESCE(sum(amount), 0) FROM reward_rest WHERE addr_id = $1 AND spendable_epoch <= $2) AS rewards,
		(SELECT COALESCE(sum(w.amount), 0) FROM withdrawal w JOIN tx ON tx.id = w.tx_id WHERE w.addr_id = $1 AND tx.valid_contract) AS withdrawals,
		(SELECT COALESCE(sum(amount), 0) FROM reserve WHERE addr_id = $1) AS reserves,
		(SELECT COALESCE(sum(amount), 0) FROM treasury WHERE addr_id = $1) AS treasury`, id, epoch); err != nil {
		t.Fatal(err)
	}
	withdrawable := max(s.Rewards-s.Withdrawals, 0)
	str := func(n int64) string { return fmt.Sprint(n) }
	return map[string]any{
		"stake_address": stake, "active": pool != nil, "registered": registered, "active_epoch": activeEpoch,
		"controlled_amount": str(s.UTxO + withdrawable), "rewards_sum": str(s.Rewards),
		"withdrawals_sum": str(s.Withdrawals), "reserves_sum": str(s.Reserves), "treasury_sum": str(s.Treasury),
		"withdrawable_amount": str(withdrawable), "pool_id": pool, "drep_id": drep,
	}
}

// bfCIP129DRep is CIP-129's bech32 of a DRep: header 0x22 (key) or 0x23
// (script), then the hash.
func bfCIP129DRep(t *testing.T, raw []byte, script bool) string {
	t.Helper()
	header := byte(0x22)
	if script {
		header = 0x23
	}
	data, err := bech32.ConvertBits(append([]byte{header}, raw...), 8, 5, true)
	if err != nil {
		t.Fatal(err)
	}
	s, err := bech32.Encode("drep", data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBlockfrostAccountMatchesSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		drepSeen := false
		for name, stake := range bfStakeSubjects(c) {
			t.Run(string(c.mode)+"/"+name, func(t *testing.T) {
				var got map[string]any
				bfJSON(t, h, "/accounts/"+stake, &got)
				want := bfWantAccount(t, c, stake)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("got  %v\nwant %v", got, want)
				}
				if d, _ := got["drep_id"].(string); name == "drep" && strings.HasPrefix(d, "drep1") {
					drepSeen = true
				}
			})
		}
		if c.manifest.Accounts.DRep != "" && !drepSeen {
			t.Errorf("%s: the DRep account answered no CIP-129 drep_id", c.mode)
		}
	}
}

// bfAccountLists are the paged account routes and the test's own SQL for
// each whole list in ascending order, as a JSON array ($1 stake_address.id,
// $2 the current epoch).
func bfAccountLists(c *testChain) map[string]string {
	place := `'tx_slot', b.slot_no, 'block_time', extract(epoch FROM b.time)::bigint, 'block_height', b.block_no`
	return map[string]string{
		"rewards": `SELECT COALESCE(json_agg(json_build_object('epoch', r.earned_epoch, 'amount', r.amount::text, 'pool_id', ph.view,
			'type', CASE WHEN r.type = 'refund' THEN 'pool_deposit_refund' ELSE r.type::text END)
			ORDER BY r.earned_epoch, r.type, r.pool_id, r.amount), '[]') FROM reward r JOIN pool_hash ph ON ph.id = r.pool_id
			WHERE r.addr_id = $1 AND r.spendable_epoch <= $2`,
		"history": `SELECT COALESCE(json_agg(json_build_object('active_epoch', es.epoch_no, 'amount', es.amount::text, 'pool_id', ph.view)
			ORDER BY es.epoch_no, es.pool_id), '[]') FROM epoch_stake es JOIN pool_hash ph ON ph.id = es.pool_id WHERE es.addr_id = $1 AND $2 >= 0`,
		"delegations": `SELECT COALESCE(json_agg(json_build_object('active_epoch', d.active_epoch_no, 'tx_hash', encode(t.hash, 'hex'),
			'amount', t.out_sum::text, 'pool_id', ph.view, ` + place + `) ORDER BY d.tx_id, d.cert_index), '[]')
			FROM delegation d JOIN tx t ON t.id = d.tx_id JOIN block b ON b.id = t.block_id JOIN pool_hash ph ON ph.id = d.pool_hash_id
			WHERE d.addr_id = $1 AND $2 >= 0`,
		"registrations": `SELECT COALESCE(json_agg(json_build_object('tx_hash', encode(t.hash, 'hex'), 'action', e.action,
			'deposit', e.deposit, ` + place + `) ORDER BY e.tx_id, e.cert_index), '[]')
			FROM (SELECT tx_id, cert_index, 'registered' AS action, deposit::text AS deposit FROM stake_registration WHERE addr_id = $1
			      UNION ALL SELECT tx_id, cert_index, 'deregistered', NULL FROM stake_deregistration WHERE addr_id = $1) e
			JOIN tx t ON t.id = e.tx_id JOIN block b ON b.id = t.block_id WHERE $2 >= 0`,
		"withdrawals": `SELECT COALESCE(json_agg(json_build_object('tx_hash', encode(t.hash, 'hex'), 'amount', w.amount::text, ` + place + `)
			ORDER BY w.tx_id, w.id), '[]') FROM withdrawal w JOIN tx t ON t.id = w.tx_id JOIN block b ON b.id = t.block_id
			WHERE w.addr_id = $1 AND t.valid_contract AND $2 >= 0`,
		"mirs": `SELECT COALESCE(json_agg(json_build_object('tx_hash', encode(t.hash, 'hex'), 'amount', m.amount::text, ` + place + `)
			ORDER BY m.tx_id, m.cert_index), '[]')
			FROM (SELECT tx_id, cert_index, amount FROM reserve WHERE addr_id = $1 UNION ALL SELECT tx_id, cert_index, amount FROM treasury WHERE addr_id = $1) m
			JOIN tx t ON t.id = m.tx_id JOIN block b ON b.id = t.block_id WHERE $2 >= 0`,
		"addresses": `SELECT COALESCE(json_agg(json_build_object('address', f.address) ORDER BY f.first), '[]')
			FROM (SELECT o.address, min(o.id) AS first FROM tx_out o WHERE o.stake_address_id = $1 AND $2 >= 0 GROUP BY o.address) f`,
		"addresses/assets": `SELECT COALESCE(json_agg(json_build_object('unit', a.unit, 'quantity', a.quantity::text) ORDER BY a.unit), '[]')
			FROM (SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') AS unit, sum(m.quantity) AS quantity
			      FROM tx_out o JOIN ma_tx_out m ON m.tx_out_id = o.id JOIN multi_asset ma ON ma.id = m.ident
			      WHERE o.stake_address_id = $1 AND $2 >= 0 AND ` + unspentSQL(c) + ` GROUP BY ma.policy, ma.name) a`,
		"utxos": `SELECT COALESCE(json_agg(json_build_object('tx_hash', encode(t.hash, 'hex'), 'output_index', o.index) ORDER BY o.tx_id, o.index), '[]')
			FROM tx_out o JOIN tx t ON t.id = o.tx_id WHERE o.stake_address_id = $1 AND $2 >= 0 AND ` + unspentSQL(c),
	}
}

// bfWalk reads every page of path (count per page, either order) until a
// short page, each item decoded as a JSON object.
func bfWalk(t *testing.T, h http.Handler, path string, count int, order string) []map[string]any {
	t.Helper()
	var all []map[string]any
	for page := 1; ; page++ {
		var items []map[string]any
		bfJSON(t, h, fmt.Sprintf("%s?count=%d&page=%d&order=%s", path, count, page, order), &items)
		all = append(all, items...)
		if len(items) < count {
			return all
		}
		if page > 2000 {
			t.Fatalf("%s: no end", path)
		}
	}
}

// bfProject keeps only the keys of want's items in got's (the UTxO check
// compares the outputs named, not their every field).
func bfProject(got []map[string]any, keys []string) []map[string]any {
	out := make([]map[string]any, len(got))
	for i, g := range got {
		out[i] = map[string]any{}
		for _, k := range keys {
			out[i][k] = g[k]
		}
	}
	return out
}

func TestBlockfrostAccountListsMatchSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var epoch int64
		if err := c.raw.Get(&epoch, `SELECT epoch_no FROM block ORDER BY id DESC LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		nonEmpty := map[string]bool{}
		for name, stake := range bfStakeSubjects(c) {
			var id int64
			if err := c.raw.Get(&id, `SELECT id FROM stake_address WHERE view = $1`, stake); err != nil {
				t.Fatal(err)
			}
			for route, query := range bfAccountLists(c) {
				t.Run(string(c.mode)+"/"+name+"/"+route, func(t *testing.T) {
					var raw []byte
					if err := c.raw.Get(&raw, query, id, epoch); err != nil {
						t.Fatal(err)
					}
					var want []map[string]any
					if err := json.Unmarshal(raw, &want); err != nil {
						t.Fatal(err)
					}
					path := "/accounts/" + stake + "/" + route
					for _, count := range []int{100, 3} {
						asc := bfWalk(t, h, path, count, "asc")
						desc := bfWalk(t, h, path, count, "desc")
						if len(want) > 0 {
							keys := make([]string, 0, len(want[0]))
							for k := range want[0] {
								keys = append(keys, k)
							}
							asc, desc = bfProject(asc, keys), bfProject(desc, keys)
						}
						slices.Reverse(desc)
						if len(asc) != len(want) || len(want) > 0 && (!reflect.DeepEqual(asc, want) || !reflect.DeepEqual(desc, want)) {
							t.Fatalf("count %d: %d items asc, %d desc, want %d\nasc  %v\nwant %v", count, len(asc), len(desc), len(want), asc, want)
						}
					}
					if len(want) > 0 {
						nonEmpty[route] = true
					}
					// A page past the end is empty, not an error.
					var past []any
					bfJSON(t, h, path+"?page=21474836", &past)
					if len(past) != 0 {
						t.Fatalf("page past the end: %v", past)
					}
				})
			}
		}
		// Every list is checked with content somewhere.
		for route := range bfAccountLists(c) {
			if !nonEmpty[route] {
				t.Errorf("%s: %s was empty for every account checked", c.mode, route)
			}
		}
	}
}

// bfUnseenStake is a well-formed mainnet stake address no chain holds.
func bfUnseenStake(t *testing.T) string {
	t.Helper()
	raw, _ := hex.DecodeString("e1" + strings.Repeat("5a", 28))
	data, err := bech32.ConvertBits(raw, 8, 5, true)
	if err != nil {
		t.Fatal(err)
	}
	s, err := bech32.Encode("stake", data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBlockfrostAccountRefusals(t *testing.T) {
	c := seededChains(t)[0]
	h := chainServer(t, c).Handler()
	known := c.manifest.Accounts.Delegated
	routes := []string{"", "/rewards", "/history", "/delegations", "/registrations", "/withdrawals", "/mirs",
		"/addresses", "/addresses/assets", "/addresses/total", "/utxos"}
	// The known account's credential as a testnet stake address.
	_, data, err := bech32.Decode(known)
	if err != nil {
		t.Fatal(err)
	}
	rawKnown, _ := bech32.ConvertBits(data, 5, 8, false)
	rawKnown[0] &^= 0x01
	data, _ = bech32.ConvertBits(rawKnown, 8, 5, true)
	testnet, err := bech32.Encode("stake_test", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range routes {
		// Blockfrost's 404: a valid stake address db-sync never saw.
		if got := bfGet(t, h, mainnetKey, "/accounts/"+bfUnseenStake(t)+r); got.Code != http.StatusNotFound {
			t.Errorf("unseen %s: %d %s", r, got.Code, got.Body)
		}
		for _, bad := range []string{"stake1", known[:len(known)-1] + "x", testnet, strings.Repeat("ab", 28), "addr1"} {
			bfRefused(t, h, "/accounts/"+bad+r, http.StatusBadRequest, "stake_address")
		}
		if r != "" && r != "/addresses/total" {
			bfRefused(t, h, "/accounts/"+known+r+"?count=0", http.StatusBadRequest, "count")
			bfRefused(t, h, "/accounts/"+known+r+"?page=21474837", http.StatusBadRequest, "page")
			bfRefused(t, h, "/accounts/"+known+r+"?order=up", http.StatusBadRequest, "order")
		}
	}
}

func TestBlockfrostAccountTotalMatchesSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		for name, stake := range bfStakeSubjects(c) {
			t.Run(string(c.mode)+"/"+name, func(t *testing.T) {
				var id int64
				if err := c.raw.Get(&id, `SELECT id FROM stake_address WHERE view = $1`, stake); err != nil {
					t.Fatal(err)
				}
				var got struct {
					StakeAddress string     `json:"stake_address"`
					ReceivedSum  []bfAmount `json:"received_sum"`
					SentSum      []bfAmount `json:"sent_sum"`
					TxCount      int64      `json:"tx_count"`
				}
				bfJSON(t, h, "/accounts/"+stake+"/addresses/total", &got)
				received := sumSQL(t, c, "o.stake_address_id = $1", id)
				sent := sumSQL(t, c, "o.stake_address_id = $1 AND "+spenderSQL(c)+" IS NOT NULL", id)
				var txs int64
				if err := c.raw.Get(&txs, `SELECT count(*) FROM (SELECT o.tx_id FROM tx_out o WHERE o.stake_address_id = $1
					UNION SELECT `+spenderSQL(c)+` FROM tx_out o WHERE o.stake_address_id = $1 AND `+spenderSQL(c)+` IS NOT NULL) t`, id); err != nil {
					t.Fatal(err)
				}
				if got.StakeAddress != stake || !reflect.DeepEqual(got.ReceivedSum, received) || !reflect.DeepEqual(got.SentSum, sent) || got.TxCount != txs {
					t.Fatalf("got %+v\nwant received %v sent %v tx_count %d", got, received, sent, txs)
				}
			})
		}
	}
}

// Other layouts: the address-table variant answers every account route as
// core does; a pruned db-sync refuses with 501 the routes that read spent
// outputs (/addresses, /addresses/total, /transactions) and answers the rest as core does.
func TestBlockfrostAccountsLayouts(t *testing.T) {
	core := seededChains(t)[0]
	want := chainServer(t, core).Handler()
	stakes := bfStakeSubjects(core)
	routes := []string{"", "/rewards", "/history", "/delegations", "/registrations", "/withdrawals", "/mirs",
		"/addresses", "/addresses/assets", "/addresses/total", "/utxos?order=desc&count=7",
		"/transactions?order=desc&count=7&page=2", "/transactions?count=3&page=3"}
	for _, v := range []chaingen.Variant{{Mode: chaingen.ModeCore, AddressTable: true}, {Mode: chaingen.ModePrune}} {
		t.Run(v.String(), func(t *testing.T) {
			s, _ := layoutServer(t, v)
			h := s.Handler()
			for name, stake := range stakes {
				for _, route := range routes {
					path := "/accounts/" + stake + route
					if v.Mode == chaingen.ModePrune && (route == "/addresses" || route == "/addresses/total" || strings.HasPrefix(route, "/transactions")) {
						// Not through bfGet: Blockfrost's document has no 501.
						req := httptest.NewRequest(http.MethodGet, httpx.BlockfrostPrefix+path, nil)
						req.Header.Set("project_id", mainnetKey)
						w := httptest.NewRecorder()
						h.ServeHTTP(w, req)
						got := bfResponse{Code: w.Code, Header: w.Header(), Body: w.Body.Bytes()}
						if e := got.errorOf(t); got.Code != 501 {
							t.Errorf("%s %s: %d %+v", name, route, got.Code, e)
						}
						continue
					}
					got := bfGet(t, h, mainnetKey, path)
					if w := bfGet(t, want, mainnetKey, path); got.Code != w.Code || string(got.Body) != string(w.Body) {
						t.Errorf("%s %s: %d %s\nwant %d %s", name, route, got.Code, got.Body, w.Code, w.Body)
					}
				}
			}
		})
	}
}
