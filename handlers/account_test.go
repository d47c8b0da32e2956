package handlers

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The SDK's declared shapes (cardano-raw-sdk src/types/iagon/staking.ts and
// OpenAPI schemas Account…), field for field: decoding an answer into them with
// unknown fields refused and every field required fails on a renamed,
// missing, extra or retyped field (a number where a string is declared).

type sdkPagination struct {
	Limit   int  `json:"limit"`
	Offset  int  `json:"offset"`
	Total   int  `json:"total"`
	HasMore bool `json:"hasMore"`
}

type sdkLastUpdated struct {
	SlotNo    int64  `json:"slot_no"`
	BlockHash string `json:"block_hash"`
	BlockTime string `json:"block_time"`
}

type sdkStakeAccountInfo struct {
	StakeAddress     string  `json:"stake_address"`
	Active           bool    `json:"active"`
	ActiveEpoch      *int64  `json:"active_epoch"`
	ActiveStake      string  `json:"active_stake"`
	RewardsSum       string  `json:"rewards_sum"`
	WithdrawnRewards string  `json:"withdrawn_rewards"`
	AvailableRewards string  `json:"available_rewards"`
	PoolID           *string `json:"pool_id"`
	DRepID           *string `json:"drep_id"`
}

type sdkReward struct {
	Epoch      int64   `json:"epoch"`
	Amount     string  `json:"amount"`
	PoolID     *string `json:"pool_id"`
	RewardType string  `json:"reward_type"`
}

type sdkDelegation struct {
	ActiveEpoch int64  `json:"active_epoch"`
	PoolID      string `json:"pool_id"`
	TxHash      string `json:"tx_hash"`
	CertIndex   int    `json:"cert_index"`
}

type sdkRegistration struct {
	TxHash string `json:"tx_hash"`
	Action string `json:"action"`
	Epoch  int64  `json:"epoch"`
}

type sdkWithdrawal struct {
	TxHash    string `json:"tx_hash"`
	Amount    string `json:"amount"`
	BlockTime string `json:"block_time"`
}

type sdkAddress struct {
	Address string `json:"address"`
}

type sdkAsset struct {
	Unit     string `json:"unit"`
	Quantity string `json:"quantity"`
}

type sdkList[T any] struct {
	Success     bool           `json:"success"`
	Data        []T            `json:"data"`
	Pagination  sdkPagination  `json:"pagination"`
	LastUpdated sdkLastUpdated `json:"last_updated"`
}

type sdkOne[T any] struct {
	Success bool `json:"success"`
	Data    T    `json:"data"`
}

// accountRoutes are the six lists; ordered ones take ?order.
var accountRoutes = []struct {
	list    string
	ordered bool
}{
	{"rewards", true}, {"delegations", true}, {"registrations", true}, {"withdrawals", true},
	{"addresses", false}, {"assets", false},
}

// testAccounts are the accounts the handler tests read: the generator's
// named ones when it names them, plus by plain SQL the busiest (rewards
// and withdrawals), a deregistered one and a spread.
func testAccounts(t *testing.T, c *testChain) []string {
	t.Helper()
	views := manifestAccountViews(c)
	var found []string
	if err := c.raw.Select(&found, `(SELECT sa.view FROM stake_address sa
		  ORDER BY (SELECT count(*) FROM reward r WHERE r.addr_id = sa.id)
		         + (SELECT count(*) FROM withdrawal w WHERE w.addr_id = sa.id) DESC, sa.id LIMIT 2)
		UNION ALL (SELECT sa.view FROM stake_address sa WHERE EXISTS (SELECT 1 FROM stake_deregistration d WHERE d.addr_id = sa.id) ORDER BY sa.id LIMIT 3)
		UNION ALL (SELECT sa.view FROM stake_address sa ORDER BY md5(sa.view) LIMIT 4)
		UNION ALL (SELECT sa.view FROM stake_address sa JOIN delegation d ON d.addr_id = sa.id GROUP BY sa.id ORDER BY count(*) DESC, sa.id LIMIT 1)
		UNION ALL (SELECT sa.view FROM stake_address sa JOIN withdrawal w ON w.addr_id = sa.id GROUP BY sa.id ORDER BY count(*) DESC, sa.id LIMIT 1)
		UNION ALL (SELECT sa.view FROM stake_address sa JOIN tx_out o ON o.stake_address_id = sa.id GROUP BY sa.id ORDER BY count(DISTINCT o.address) DESC, sa.id LIMIT 1)`); err != nil {
		t.Fatal(err)
	}
	for _, v := range found {
		if !slices.Contains(views, v) {
			views = append(views, v)
		}
	}
	return views
}

// independentSummary is the account's data object, built in SQL another
// way than account_summary.sql: the account's latest certificate event of
// either kind decides whether it is active.
const independentSummary = `
WITH a AS (SELECT id, view FROM stake_address WHERE view = $1),
cur AS (SELECT epoch_no FROM block WHERE epoch_no IS NOT NULL ORDER BY id DESC LIMIT 1),
ev AS (
  SELECT r.tx_id, r.cert_index, r.epoch_no, true AS reg FROM stake_registration r, a WHERE r.addr_id = a.id
  UNION ALL
  SELECT d.tx_id, d.cert_index, d.epoch_no, false FROM stake_deregistration d, a WHERE d.addr_id = a.id),
act AS (SELECT * FROM (SELECT * FROM ev ORDER BY tx_id DESC, cert_index DESC LIMIT 1) l WHERE l.reg),
earned AS (
  SELECT r.amount FROM reward r, a, cur WHERE r.addr_id = a.id AND r.spendable_epoch <= cur.epoch_no
  UNION ALL
  SELECT r.amount FROM reward_rest r, a, cur WHERE r.addr_id = a.id AND r.spendable_epoch <= cur.epoch_no),
sums AS (
  SELECT (SELECT COALESCE(sum(amount), 0) FROM earned) AS earned,
         (SELECT COALESCE(sum(w.amount), 0) FROM withdrawal w JOIN tx t ON t.id = w.tx_id, a
          WHERE w.addr_id = a.id AND t.valid_contract) AS withdrawn)
SELECT json_build_object(
  'stake_address', a.view,
  'active', EXISTS (SELECT 1 FROM act),
  'active_epoch', (SELECT epoch_no FROM act),
  'active_stake', (SELECT COALESCE(sum(es.amount), 0) FROM epoch_stake es, cur WHERE es.addr_id = a.id AND es.epoch_no = cur.epoch_no)::text,
  'rewards_sum', sums.earned::text,
  'withdrawn_rewards', sums.withdrawn::text,
  'available_rewards', (CASE WHEN sums.earned > sums.withdrawn THEN sums.earned - sums.withdrawn ELSE 0 END)::text,
  'pool_id', (SELECT p.view FROM delegation d JOIN pool_hash p ON p.id = d.pool_hash_id, act
              WHERE d.addr_id = a.id AND (d.tx_id > act.tx_id OR d.tx_id = act.tx_id AND d.cert_index >= act.cert_index)
              ORDER BY d.tx_id DESC, d.cert_index DESC LIMIT 1),
  'drep_id', (SELECT h.view FROM delegation_vote v JOIN drep_hash h ON h.id = v.drep_hash_id, act
              WHERE v.addr_id = a.id AND (v.tx_id > act.tx_id OR v.tx_id = act.tx_id AND v.cert_index >= act.cert_index)
              ORDER BY v.tx_id DESC, v.cert_index DESC LIMIT 1))::text
FROM a, sums`

// independentLists are each list's items, oldest (or first) first, built
// as JSON by SQL written apart from the handlers' statements. $1 is the
// stake address's bech32 view.
var independentLists = map[string]string{
	"rewards": `
		SELECT json_build_object('epoch', x.epoch, 'amount', x.amount::text, 'pool_id', x.pool, 'reward_type', x.typ)::text
		FROM (
		  SELECT r.earned_epoch AS epoch, r.amount, p.view AS pool, r.type::text AS typ, r.spendable_epoch
		  FROM reward r JOIN stake_address sa ON sa.id = r.addr_id LEFT JOIN pool_hash p ON p.id = r.pool_id WHERE sa.view = $1
		  UNION ALL
		  SELECT r.earned_epoch, r.amount, NULL, replace(r.type::text, 'proposal_refund', 'refund'), r.spendable_epoch
		  FROM reward_rest r JOIN stake_address sa ON sa.id = r.addr_id WHERE sa.view = $1
		) x
		WHERE x.spendable_epoch <= (SELECT epoch_no FROM block WHERE epoch_no IS NOT NULL ORDER BY id DESC LIMIT 1)
		ORDER BY x.epoch, array_position(ARRAY['leader', 'member', 'reserves', 'treasury', 'refund'], x.typ), x.pool NULLS LAST, x.amount`,
	"delegations": `
		SELECT json_build_object('active_epoch', d.active_epoch_no, 'pool_id', p.view, 'tx_hash', encode(t.hash, 'hex'), 'cert_index', d.cert_index)::text
		FROM delegation d JOIN stake_address sa ON sa.id = d.addr_id JOIN pool_hash p ON p.id = d.pool_hash_id JOIN tx t ON t.id = d.tx_id
		WHERE sa.view = $1 ORDER BY t.id, d.cert_index`,
	"registrations": `
		SELECT json_build_object('tx_hash', encode(t.hash, 'hex'), 'action', e.action, 'epoch', e.epoch_no)::text
		FROM (
		  SELECT r.tx_id, r.cert_index, 'registered' AS action, r.epoch_no, r.addr_id FROM stake_registration r
		  UNION ALL
		  SELECT d.tx_id, d.cert_index, 'deregistered', d.epoch_no, d.addr_id FROM stake_deregistration d
		) e JOIN stake_address sa ON sa.id = e.addr_id JOIN tx t ON t.id = e.tx_id
		WHERE sa.view = $1 ORDER BY e.tx_id, e.cert_index`,
	"withdrawals": `
		SELECT json_build_object('tx_hash', encode(t.hash, 'hex'), 'amount', w.amount::text,
		  'block_time', to_char(b.time, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))::text
		FROM withdrawal w JOIN stake_address sa ON sa.id = w.addr_id JOIN tx t ON t.id = w.tx_id JOIN block b ON b.id = t.block_id
		WHERE sa.view = $1 AND t.valid_contract ORDER BY w.tx_id, w.id`,
	"addresses": `
		SELECT json_build_object('address', f.address)::text
		FROM (SELECT DISTINCT ON (o.address) o.address, o.id FROM tx_out o JOIN stake_address sa ON sa.id = o.stake_address_id
		      WHERE sa.view = $1 ORDER BY o.address, o.id) f
		ORDER BY f.id`,
}

// independentAssets: the assets of the unspent outputs, the mode's own
// spend record deciding what is unspent.
func independentAssets(c *testChain) string {
	unspent := "NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)"
	if c.mode == "consumed" {
		unspent = "o.consumed_by_tx_id IS NULL"
	}
	return `
		SELECT json_build_object('unit', encode(ma.policy || ma.name, 'hex'), 'quantity', sum(m.quantity)::text)::text
		FROM tx_out o JOIN stake_address sa ON sa.id = o.stake_address_id
		JOIN ma_tx_out m ON m.tx_out_id = o.id JOIN multi_asset ma ON ma.id = m.ident
		WHERE sa.view = $1 AND ` + unspent + `
		GROUP BY ma.policy || ma.name ORDER BY ma.policy || ma.name`
}

// canonicalJSON re-encodes a JSON value with sorted keys, for comparing.
func canonicalJSON(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	decodeExact(t, b, &v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// walkAccountList pages through one list with offset += limit, checking
// each page's pagination, and returns every item (canonical JSON).
func walkAccountList[T any](t *testing.T, s *Server, c *testChain, path string, limit int, order string) []string {
	t.Helper()
	var items []string
	for offset := 0; offset < 10_000; offset += limit {
		q := fmt.Sprintf("%s?limit=%d&offset=%d", path, limit, offset)
		if order != "" {
			q += "&order=" + order
		}
		r := get(t, s, q)
		if r.Status != 200 {
			t.Fatalf("GET %s: %d %s", q, r.Status, r.Raw)
		}
		page := decodeSDK[sdkList[T]](t, r.Raw)
		if offset == 0 {
			checkLastUpdated(t, c, r)
		}
		if _, ok := r.Pagination["next_cursor"]; ok || len(r.Pagination) != 4 {
			t.Errorf("GET %s: pagination %s", q, r.Raw)
		}
		p := page.Pagination
		if p.Limit != limit || p.Offset != offset || p.HasMore != (offset+len(page.Data) < p.Total) || len(page.Data) > limit {
			t.Errorf("GET %s: pagination %+v with %d items", q, p, len(page.Data))
		}
		var raw struct {
			Data []json.RawMessage `json:"data"`
		}
		decodeExact(t, r.Raw, &raw)
		for _, d := range raw.Data {
			items = append(items, canonicalJSON(t, d))
		}
		if !p.HasMore {
			if len(items) != p.Total {
				t.Errorf("GET %s: walked %d items, total %d", q, len(items), p.Total)
			}
			return items
		}
	}
	t.Fatalf("walk of %s does not end", path)
	return nil
}

func TestAccountEndpoints(t *testing.T) {
	t.Parallel() // reads the shared chains, changes nothing shared
	for _, c := range seededChains(t) {
		t.Run(string(c.mode), func(t *testing.T) {
			s := chainServer(t, c)
			longest := map[string]int{}
			defer func() {
				// Every list must have been walked over more than one page.
				for _, route := range accountRoutes {
					if longest[route.list] < 2 {
						t.Errorf("no sample account has 2 %s (longest %d)", route.list, longest[route.list])
					}
				}
			}()
			for _, view := range testAccounts(t, c) {
				base := "/v1/accounts/" + view
				r := get(t, s, base)
				if r.Status != 200 {
					t.Fatalf("GET %s: %d %s", base, r.Status, r.Raw)
				}
				decodeSDK[sdkOne[sdkStakeAccountInfo]](t, r.Raw)
				var want string
				if err := c.raw.Get(&want, independentSummary, view); err != nil {
					t.Fatal(err)
				}
				if got := canonicalJSON(t, r.Data); got != canonicalJSON(t, []byte(want)) {
					t.Errorf("GET %s:\n got %s\nwant %s", base, got, canonicalJSON(t, []byte(want)))
				}
				if r.LastUpdated != nil || r.Pagination != nil {
					t.Errorf("GET %s: %s", base, r.Raw)
				}
				for _, route := range accountRoutes {
					query := independentLists[route.list]
					if route.list == "assets" {
						query = independentAssets(c)
					}
					var rows []string
					if err := c.raw.Select(&rows, query, view); err != nil {
						t.Fatalf("%s: %v", route.list, err)
					}
					longest[route.list] = max(longest[route.list], len(rows))
					want := make([]string, len(rows))
					for i, row := range rows {
						want[i] = canonicalJSON(t, []byte(row))
					}
					path := base + "/" + route.list
					orders := []string{"", "asc"}
					if route.ordered {
						orders = append(orders, "desc", "DESC")
					}
					for _, order := range orders {
						exp := slices.Clone(want)
						if strings.EqualFold(order, "desc") {
							slices.Reverse(exp)
						}
						for _, limit := range []int{1, 2, 100} {
							got := walkList(t, s, c, route.list, path, limit, order)
							if strings.Join(got, "\n") != strings.Join(exp, "\n") {
								t.Errorf("%s order=%q limit=%d:\n got %v\nwant %v", path, order, limit, got, exp)
							}
						}
					}
				}
			}
		})
	}
}

// walkList walks a list decoding its items into the SDK's type for it.
func walkList(t *testing.T, s *Server, c *testChain, list, path string, limit int, order string) []string {
	t.Helper()
	switch list {
	case "rewards":
		return walkAccountList[sdkReward](t, s, c, path, limit, order)
	case "delegations":
		return walkAccountList[sdkDelegation](t, s, c, path, limit, order)
	case "registrations":
		return walkAccountList[sdkRegistration](t, s, c, path, limit, order)
	case "withdrawals":
		return walkAccountList[sdkWithdrawal](t, s, c, path, limit, order)
	case "addresses":
		return walkAccountList[sdkAddress](t, s, c, path, limit, order)
	case "assets":
		return walkAccountList[sdkAsset](t, s, c, path, limit, order)
	}
	t.Fatalf("no list %s", list)
	return nil
}

// A stake address never seen on chain: 200 with the empty answer, both as
// bech32 and as a bare credential.
func TestAccountNeverSeen(t *testing.T) {
	c := seededChains(t)[0]
	s := chainServer(t, c)
	cred := make([]byte, 28)
	if _, err := rand.Read(cred); err != nil {
		t.Fatal(err)
	}
	credHex := hex.EncodeToString(cred)
	r := get(t, s, "/v1/accounts/"+credHex)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	info := decodeSDK[sdkOne[sdkStakeAccountInfo]](t, r.Raw).Data
	if !strings.HasPrefix(info.StakeAddress, "stake1u") {
		t.Fatalf("stake_address %q", info.StakeAddress)
	}
	want := fmt.Sprintf(`{"active":false,"active_epoch":null,"active_stake":"0","available_rewards":"0","drep_id":null,`+
		`"pool_id":null,"rewards_sum":"0","stake_address":%q,"withdrawn_rewards":"0"}`, info.StakeAddress)
	if got := canonicalJSON(t, r.Data); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	for _, id := range []string{credHex, info.StakeAddress, strings.ToUpper(info.StakeAddress)} {
		for _, route := range accountRoutes {
			path := "/v1/accounts/" + id + "/" + route.list + "?limit=7"
			r := get(t, s, path)
			want := `"data":[],"pagination":{"limit":7,"offset":0,"total":0,"hasMore":false},"last_updated":`
			if r.Status != 200 || !bytes.Contains(r.Raw, []byte(want)) {
				t.Errorf("GET %s: %d %s", path, r.Status, r.Raw)
			}
			checkLastUpdated(t, c, r)
		}
	}
}

func TestAccountErrors(t *testing.T) {
	s := chainServer(t, seededChains(t)[0])
	good := "/v1/accounts/" + strings.Repeat("ab", 28)
	type errCase struct{ path, want string }
	var cases []errCase
	paths := func(prefix string) []string {
		out := []string{prefix}
		for _, route := range accountRoutes {
			out = append(out, prefix+"/"+route.list)
		}
		return out
	}
	names := make([]string, 0, len(badStakeKeys))
	for name := range badStakeKeys {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, p := range paths("/v1/accounts/" + badStakeKeys[name]) {
			cases = append(cases, errCase{p, "Invalid stake key format"})
		}
	}
	for _, route := range accountRoutes {
		p := good + "/" + route.list
		for _, v := range []string{"0", "101", "-1", "x", "1.5", "", "1e2"} {
			cases = append(cases, errCase{p + "?limit=" + v, "Invalid limit: must be an integer from 1 to 100"})
		}
		for _, v := range []string{"-1", "x", "2.5", "1000001"} {
			cases = append(cases, errCase{p + "?offset=" + v, "Invalid offset: must be an integer from 0 to 1000000"})
		}
		if route.ordered {
			for _, v := range []string{"up", "ascending", "", "1"} {
				cases = append(cases, errCase{p + "?order=" + v, "Invalid order: must be asc or desc"})
			}
		}
	}
	for _, tc := range cases {
		r := get(t, s, tc.path)
		if r.Status != 400 || r.Success || r.Error != tc.want || r.Data != nil {
			t.Errorf("GET %s = %d %s; want 400 %q", tc.path, r.Status, r.Raw, tc.want)
		}
	}
	// Limits at both ends are fine.
	for _, q := range []string{"?limit=1", "?limit=100&offset=0", "?offset=1000000", "?order=asc", "?order=Desc"} {
		if r := get(t, s, good+"/rewards"+q); r.Status != 200 {
			t.Errorf("GET rewards%s: %d %s", q, r.Status, r.Raw)
		}
	}
}

// manifestAccountViews are the accounts the generator names.
func manifestAccountViews(c *testChain) []string {
	a := c.manifest.Accounts
	var out []string
	for _, v := range []string{a.Delegated, a.ReRegistered, a.Deregistered, a.DRep, a.AlwaysAbstain, a.NoConfidence, a.Refunded, a.Busiest} {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
