package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/syncgate/syncgate/dbsync/account"
)

// bfWantAccountTxs is the stake key's account_transactions_content from
// the test's own SQL: a (transaction, address) pair for each address
// carrying the key that the transaction pays to or spends from, by tx id,
// then address, within the (block_no, block_index) bounds of where.
func bfWantAccountTxs(t *testing.T, c *testChain, id int64, where string, args ...any) []map[string]any {
	t.Helper()
	var raw []byte
	q := `SELECT COALESCE(json_agg(json_build_object('address', p.address, 'tx_hash', encode(t.hash, 'hex'),
			'tx_index', t.block_index, 'block_height', b.block_no, 'block_time', extract(epoch FROM b.time)::bigint)
			ORDER BY p.id, p.address), '[]')
		FROM (SELECT o.tx_id AS id, o.address FROM tx_out o WHERE o.stake_address_id = $1
		      UNION SELECT ` + spenderSQL(c) + `, o.address FROM tx_out o WHERE o.stake_address_id = $1 AND ` + spenderSQL(c) + ` IS NOT NULL) p
		JOIN tx t ON t.id = p.id JOIN block b ON b.id = t.block_id WHERE ` + where
	if err := c.raw.Get(&raw, q, append([]any{id}, args...)...); err != nil {
		t.Fatal(err)
	}
	var want []map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	return want
}

// bfSmallTxsStride makes the chain's pair walks use anchors every few
// pairs, so the seeded histories exercise harvests and anchored pages.
func bfSmallTxsStride(t *testing.T, c *testChain) {
	account.SetTxsStride(c.db, 5)
	t.Cleanup(func() { account.SetTxsStride(c.db, 0) })
}

func TestBlockfrostAccountTransactionsMatchSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		bfSmallTxsStride(t, c)
		h := chainServer(t, c).Handler()
		longest := 0
		for name, stake := range bfStakeSubjects(c) {
			t.Run(string(c.mode)+"/"+name, func(t *testing.T) {
				var id int64
				if err := c.raw.Get(&id, `SELECT id FROM stake_address WHERE view = $1`, stake); err != nil {
					t.Fatal(err)
				}
				want := bfWantAccountTxs(t, c, id, "true")
				longest = max(longest, len(want))
				path := "/accounts/" + stake + "/transactions"
				for _, count := range []int{3, 100} {
					asc := bfWalk(t, h, path, count, "asc")
					desc := bfWalk(t, h, path, count, "desc")
					slices.Reverse(desc)
					if len(want) == 0 && (len(asc) > 0 || len(desc) > 0) ||
						len(want) > 0 && (!reflect.DeepEqual(asc, want) || !reflect.DeepEqual(desc, want)) {
						t.Fatalf("count %d: %d items asc, %d desc, want %d\nasc  %v\nwant %v", count, len(asc), len(desc), len(want), asc, want)
					}
				}
				// A deep page asked first (no anchors yet), either way.
				for _, order := range []string{"desc", "asc"} {
					account.SetTxsStride(c.db, 5)
					const count = 7
					page := max(len(want)/count, 1)
					var got []map[string]any
					bfJSON(t, h, fmt.Sprintf("%s?count=%d&page=%d&order=%s", path, count, page, order), &got)
					exp := bfPageOf(want, count, page, order == "desc")
					if len(exp) > 0 && !reflect.DeepEqual(got, exp) || len(exp) == 0 && len(got) != 0 {
						t.Fatalf("%s page %d: %v\nwant %v", order, page, got, exp)
					}
				}
				var past []any
				bfJSON(t, h, path+"?page=21474836", &past)
				if len(past) != 0 {
					t.Fatalf("page past the end: %v", past)
				}
			})
		}
		if longest < 30 {
			t.Errorf("%s: the longest account history checked has %d pairs: too short to exercise anchors", c.mode, longest)
		}
	}
}

// bfPageOf is page (from 1) of count items of the oldest-first list,
// newest first when desc.
func bfPageOf(list []map[string]any, count, page int, desc bool) []map[string]any {
	l := slices.Clone(list)
	if desc {
		slices.Reverse(l)
	}
	from := min((page-1)*count, len(l))
	return l[from:min(from+count, len(l))]
}

func TestBlockfrostAccountTransactionsRange(t *testing.T) {
	for _, c := range seededChains(t) {
		bfSmallTxsStride(t, c)
		h := chainServer(t, c).Handler()
		stake := c.manifest.BusiestStakeKey.StakeAddress
		var id int64
		if err := c.raw.Get(&id, `SELECT id FROM stake_address WHERE view = $1`, stake); err != nil {
			t.Fatal(err)
		}
		all := bfWantAccountTxs(t, c, id, "true")
		if len(all) < 10 {
			t.Fatalf("%s: the busiest stake key has %d pairs", c.mode, len(all))
		}
		at := func(i int) (int64, int64) {
			return int64(all[i]["block_height"].(float64)), int64(all[i]["tx_index"].(float64))
		}
		b1, i1 := at(len(all) / 4)
		b2, i2 := at(3 * len(all) / 4)
		path := "/accounts/" + stake + "/transactions"
		for _, tc := range []struct {
			query, where string
			args         []any
		}{
			{fmt.Sprintf("from=%d", b1), "b.block_no >= $2", []any{b1}},
			{fmt.Sprintf("to=%d", b2), "b.block_no <= $2", []any{b2}},
			{fmt.Sprintf("from=%d:%d&to=%d:%d", b1, i1, b2, i2), "(b.block_no, t.block_index) >= ($2, $3) AND (b.block_no, t.block_index) <= ($4, $5)", []any{b1, i1, b2, i2}},
			{fmt.Sprintf("from=%d&to=%d", b2, b2), "b.block_no = $2", []any{b2}},
			{"from=2147483647", "false", nil},
		} {
			t.Run(string(c.mode)+"/"+tc.query, func(t *testing.T) {
				want := bfWantAccountTxs(t, c, id, tc.where, tc.args...)
				for _, count := range []int{3, 100} {
					asc := bfWalkQuery(t, h, path, tc.query, count, "asc")
					desc := bfWalkQuery(t, h, path, tc.query, count, "desc")
					slices.Reverse(desc)
					if len(want) != len(asc) || len(want) > 0 && (!reflect.DeepEqual(asc, want) || !reflect.DeepEqual(desc, want)) {
						t.Fatalf("count %d: %d asc, %d desc, want %d\nasc  %v\nwant %v", count, len(asc), len(desc), len(want), asc, want)
					}
				}
			})
		}
	}
}

// bfWalkQuery is bfWalk with more query parameters.
func bfWalkQuery(t *testing.T, h http.Handler, path, query string, count int, order string) []map[string]any {
	t.Helper()
	var all []map[string]any
	for page := 1; page < 2000; page++ {
		var items []map[string]any
		bfJSON(t, h, fmt.Sprintf("%s?%s&count=%d&page=%d&order=%s", path, query, count, page, order), &items)
		all = append(all, items...)
		if len(items) < count {
			return all
		}
	}
	t.Fatalf("%s?%s: no end", path, query)
	return nil
}

func TestBlockfrostAccountTransactionsRefusals(t *testing.T) {
	c := seededChains(t)[0]
	h := chainServer(t, c).Handler()
	known := c.manifest.Accounts.Delegated
	if got := bfGet(t, h, mainnetKey, "/accounts/"+bfUnseenStake(t)+"/transactions"); got.Code != http.StatusNotFound {
		t.Errorf("unseen: %d %s", got.Code, got.Body)
	}
	if got := bfGet(t, h, mainnetKey, "/accounts/"+bfUnseenStake(t)+"/transactions?order=desc&from=1"); got.Code != http.StatusNotFound {
		t.Errorf("unseen, desc with a range: %d %s", got.Code, got.Body)
	}
	for _, bad := range []string{"stake1", known[:len(known)-1] + "x", "addr1"} {
		bfRefused(t, h, "/accounts/"+bad+"/transactions", http.StatusBadRequest, "stake_address")
	}
	path := "/accounts/" + known + "/transactions"
	for q, param := range map[string]string{
		"count=0": "count", "count=101": "count", "page=0": "page", "page=21474837": "page", "order=up": "order",
		"from=x": "from", "from=1:": "from", "from=-1": "from", "to=2147483648": "to", "to=1:2:3": "to", "from=1&from=2": "from",
	} {
		bfRefused(t, h, path+"?"+q, http.StatusBadRequest, param)
	}
	bfRefused(t, h, path+"?from=10&to=9", http.StatusBadRequest, "from")
}
