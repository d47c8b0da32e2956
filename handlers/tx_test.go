package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"math"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
)

func TestTxErrors(t *testing.T) {
	smp := testSamples(t)
	s := chainServer(t, seededChains(t)[0])
	const (
		invalidAddr = "Invalid address format"
		invalidHash = "Invalid transaction hash format (expected 64 hex characters)"
	)
	var cases []struct{ name, path, want string }
	add := func(name, path, want string) {
		cases = append(cases, struct{ name, path, want string }{name, path, want})
	}
	for name, a := range badAddresses {
		a = url.PathEscape(a)
		add("detailed "+name, "/v1/tx/address/"+a, invalidAddr)
		add("light "+name, "/v1/tx/history/"+a, invalidAddr)
	}
	for _, h := range []string{"00", strings.Repeat("a", 63), strings.Repeat("a", 65), strings.Repeat("g", 64), "0x" + strings.Repeat("a", 62), "notahash"} {
		add("hash "+h, "/v1/tx/hash/"+h, invalidHash)
	}
	params := map[string]string{
		"limit=0":                       "Invalid limit: must be an integer from 1 to %d",
		"limit=-5":                      "Invalid limit: must be an integer from 1 to %d",
		"limit=abc":                     "Invalid limit: must be an integer from 1 to %d",
		"limit=":                        "Invalid limit: must be an integer from 1 to %d",
		"limit=2.5":                     "Invalid limit: must be an integer from 1 to %d",
		"offset=-1":                     "Invalid offset: must be an integer from 0 to 1000000",
		"offset=x":                      "Invalid offset: must be an integer from 0 to 1000000",
		"offset=1000001":                "Invalid offset: must be an integer from 0 to 1000000",
		"order=up":                      "Invalid order: must be asc or desc",
		"order=":                        "Invalid order: must be asc or desc",
		"fromSlot=-1":                   "Invalid fromSlot: must be a non-negative integer",
		"fromSlot=abc":                  "Invalid fromSlot: must be a non-negative integer",
		"fromSlot=1.5":                  "Invalid fromSlot: must be a non-negative integer",
		"fromSlot=":                     "Invalid fromSlot: must be a non-negative integer",
		"fromSlot=99999999999999999999": "Invalid fromSlot: must be a non-negative integer",
	}
	for q, msg := range params {
		detailed, light := msg, msg
		if strings.Contains(msg, "%d") {
			detailed, light = fmt.Sprintf(msg, 100), fmt.Sprintf(msg, 500)
		}
		add("detailed "+q, "/v1/tx/address/"+smp.Small+"?"+q, detailed)
		add("light "+q, "/v1/tx/history/"+smp.Small+"?"+q, light)
	}
	add("detailed limit=101", "/v1/tx/address/"+smp.Small+"?limit=101", "Invalid limit: must be an integer from 1 to 100")
	add("light limit=501", "/v1/tx/history/"+smp.Small+"?limit=501", "Invalid limit: must be an integer from 1 to 500")
	add("detailed groupByPolicy", "/v1/tx/address/"+smp.Small+"?groupByPolicy=yes", "Invalid groupByPolicy: must be true or false")
	add("hash groupByPolicy", "/v1/tx/hash/"+smp.FailedTx+"?groupByPolicy=maybe", "Invalid groupByPolicy: must be true or false")
	for _, tc := range cases {
		r := get(t, s, tc.path)
		if r.Status != 400 || r.Success || r.Error != tc.want {
			t.Errorf("%s: GET %s = %d %s; want 400 %q", tc.name, tc.path, r.Status, r.Raw, tc.want)
		}
	}
	r := get(t, s, "/v1/tx/hash/"+strings.Repeat("0", 64))
	if r.Status != 404 || r.Error != "Transaction not found" {
		t.Errorf("unknown hash: %d %s; want 404 Transaction not found", r.Status, r.Raw)
	}
	// Limits at the edges are accepted.
	for _, p := range []string{"/v1/tx/address/" + smp.Small + "?limit=100&order=ASC", "/v1/tx/history/" + smp.Small + "?limit=500&offset=1000000&fromSlot=0",
		"/v1/tx/history/" + smp.Small + "?limit=1&fromSlot=9223372036854775807", "/v1/tx/hash/" + strings.ToUpper(smp.FailedTx)} {
		if r := get(t, s, p); r.Status != 200 {
			t.Errorf("GET %s = %d %s", p, r.Status, r.Raw)
		}
	}
}

type txRefWire struct {
	TxHash    string `json:"tx_hash"`
	BlockHash string `json:"block_hash"`
	SlotNo    int64  `json:"slot_no"`
	BlockNo   int64  `json:"block_no"`
	BlockTime string `json:"block_time"`
}

type pageWire struct {
	Limit      int    `json:"limit"`
	Offset     int    `json:"offset"`
	Total      int64  `json:"total"`
	HasMore    *bool  `json:"hasMore"`
	NextCursor *int64 `json:"next_cursor"`
}

// historyOf pages through an address's light history over HTTP with
// next_cursor, checking the httpx.Envelope on every page.
func historyOf(t *testing.T, s *Server, c *testChain, addr string, limit int, order string) ([]txRefWire, int64) {
	t.Helper()
	var all []txRefWire
	var total int64 = -1
	from := "&fromSlot=0" // cursor mode from the first page on
	if order == "desc" {
		from = fmt.Sprintf("&fromSlot=%d", int64(math.MaxInt64))
	}
	for pages := 0; pages < 100000; pages++ {
		path := fmt.Sprintf("/v1/tx/history/%s?limit=%d&order=%s%s", addr, limit, order, from)
		r := get(t, s, path)
		if r.Status != 200 || !r.Success {
			t.Fatalf("GET %s: %d %s", path, r.Status, r.Raw)
		}
		var items []txRefWire
		var p pageWire
		decodeExact(t, r.Data, &items)
		pj, _ := json.Marshal(r.Pagination)
		decodeExact(t, pj, &p)
		if p.Limit != limit || p.Offset != 0 || p.HasMore == nil || *p.HasMore != (p.NextCursor != nil) {
			t.Fatalf("GET %s: pagination %s", path, pj)
		}
		if _, present := r.Pagination["next_cursor"]; present && p.NextCursor == nil {
			t.Fatalf("GET %s: next_cursor must be absent, not null, on the last page", path)
		}
		if total >= 0 && p.Total != total {
			t.Fatalf("GET %s: total changed from %d to %d", path, total, p.Total)
		}
		total = p.Total
		checkLastUpdated(t, c, r)
		for _, it := range items {
			if !hex64.MatchString(it.TxHash) || !hex64.MatchString(it.BlockHash) || !strings.HasSuffix(it.BlockTime, "Z") {
				t.Fatalf("GET %s: malformed item %+v", path, it)
			}
		}
		all = append(all, items...)
		if p.NextCursor == nil {
			return all, total
		}
		from = fmt.Sprintf("&fromSlot=%d", *p.NextCursor)
	}
	t.Fatal("history walk does not end")
	return nil, 0
}

// checkLastUpdated: last_updated is the db-sync tip, read independently.
func checkLastUpdated(t *testing.T, c *testChain, r response) {
	t.Helper()
	var want struct {
		Slot int64  `db:"slot_no"`
		Hash string `db:"hash"`
		Time string `db:"time"`
	}
	if err := c.raw.Get(&want, `SELECT slot_no, encode(hash, 'hex') AS hash, to_char(time, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS time
		FROM block WHERE slot_no IS NOT NULL ORDER BY slot_no DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%s %s %s", r.LastUpdated["slot_no"], r.LastUpdated["block_hash"], r.LastUpdated["block_time"])
	if w := fmt.Sprintf("%d %q %q", want.Slot, want.Hash, want.Time); got != w || len(r.LastUpdated) != 3 {
		t.Fatalf("last_updated %s, want %s", got, w)
	}
}

// independentHistory lists the address's transactions oldest first by
// (slot, block index), with each mode's own spend record.
func independentHistory(t *testing.T, c *testChain, addr string) []string {
	t.Helper()
	spends := `SELECT i.tx_in_id FROM tx_in i JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index WHERE o.address = $1`
	if c.mode == "consumed" {
		spends = `SELECT consumed_by_tx_id FROM tx_out WHERE address = $1 AND consumed_by_tx_id IS NOT NULL`
	}
	var hashes []string
	if err := c.raw.Select(&hashes, `SELECT encode(t.hash, 'hex') FROM tx t JOIN block b ON b.id = t.block_id
		WHERE t.id IN (SELECT tx_id FROM tx_out WHERE address = $1) OR t.id IN (`+spends+`)
		ORDER BY b.slot_no NULLS FIRST, t.block_index`, addr); err != nil {
		t.Fatal(err)
	}
	return hashes
}

func TestTxHistoryWalk(t *testing.T) {
	smp := testSamples(t)
	if smp.BusyTxs <= 20 {
		t.Fatalf("busy slot holds only %d txs of one address", smp.BusyTxs)
	}
	for _, c := range seededChains(t) {
		s := chainServer(t, c)
		for _, addr := range []string{smp.Busy, smp.Small, smp.CollatAddr} {
			want := independentHistory(t, c, addr)
			for _, order := range []string{"desc", "asc"} {
				items, total := historyOf(t, s, c, addr, 20, order)
				got := make([]string, len(items))
				for i, it := range items {
					got[i] = it.TxHash
				}
				w := slices.Clone(want)
				if order == "desc" {
					slices.Reverse(w)
				}
				if !slices.Equal(got, w) || total != int64(len(want)) {
					t.Fatalf("%s %s %s: walk gave %d txs (total %d), want %d exactly once in order", c.mode, addr, order, len(got), total, len(want))
				}
			}
		}
	}
}

// The public client SDK walks both history endpoints with offset += limit
// while hasMore: every page but the last holds exactly limit items, and the
// walk returns every transaction exactly once, busy slot included.
func TestTxHistorySDKOffsetWalk(t *testing.T) {
	t.Parallel() // reads the shared chains, changes nothing shared
	smp := testSamples(t)
	for _, c := range seededChains(t) {
		s := chainServer(t, c)
		want := independentHistory(t, c, smp.Busy)
		for _, endpoint := range []string{"/v1/tx/history/", "/v1/tx/address/"} {
			for _, order := range []string{"desc", "asc"} {
				const limit = 7
				var got []string
				for offset := 0; ; offset += limit {
					path := fmt.Sprintf("%s%s?limit=%d&offset=%d&order=%s", endpoint, smp.Busy, limit, offset, order)
					r := get(t, s, path)
					var items []txRefWire
					var p pageWire
					decodeExact(t, r.Data, &items)
					pj, _ := json.Marshal(r.Pagination)
					json.Unmarshal(pj, &p) //nolint:errcheck // checked below
					if r.Status != 200 || p.HasMore == nil || p.Total != int64(len(want)) {
						t.Fatalf("GET %s: %d %s", path, r.Status, pj)
					}
					if *p.HasMore != (offset+len(items) < len(want)) || *p.HasMore && len(items) != limit {
						t.Fatalf("GET %s: %d items with pagination %s; want a plain window of %d", path, len(items), pj, limit)
					}
					for _, it := range items {
						got = append(got, it.TxHash)
					}
					if !*p.HasMore {
						break
					}
				}
				w := slices.Clone(want)
				if order == "desc" {
					slices.Reverse(w)
				}
				if !slices.Equal(got, w) {
					t.Fatalf("%s %s%s %s: offset walk gave %d txs, want %d exactly once in order", c.mode, endpoint, smp.Busy, order, len(got), len(want))
				}
			}
		}
	}
}

func TestTxHistoryDefaultsAndNeverSeen(t *testing.T) {
	smp := testSamples(t)
	s := chainServer(t, seededChains(t)[0])
	for path, limit := range map[string]int{"/v1/tx/history/" + smp.Whale: 100, "/v1/tx/address/" + smp.Whale: 20} {
		r := get(t, s, path)
		var items []json.RawMessage
		decodeExact(t, r.Data, &items)
		if string(r.Pagination["limit"]) != fmt.Sprint(limit) || string(r.Pagination["offset"]) != "0" || len(items) == 0 || len(items) > limit && !sameSlot(t, r.Data) {
			t.Errorf("GET %s: pagination %v with %d items; want limit %d", path, r.Pagination, len(items), limit)
		}
	}
	const fresh = "addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8"
	for _, p := range []string{"/v1/tx/history/" + fresh, "/v1/tx/address/" + fresh + "?fromSlot=5&order=asc"} {
		r := get(t, s, p)
		var lim int
		json.Unmarshal(r.Pagination["limit"], &lim) //nolint:errcheck // checked below through the body
		want := fmt.Sprintf(`"data":[],"pagination":{"limit":%d,"offset":0,"total":0,"hasMore":false},"last_updated":`, lim)
		if r.Status != 200 || !strings.Contains(string(r.Raw), want) {
			t.Errorf("GET %s = %d %s; want an empty page with total 0", p, r.Status, r.Raw)
		}
		checkLastUpdated(t, seededChains(t)[0], r)
	}
}

func sameSlot(t *testing.T, data json.RawMessage) bool {
	var items []txRefWire
	decodeExact(t, data, &items)
	for _, it := range items {
		if it.SlotNo != items[0].SlotNo {
			return false
		}
	}
	return true
}

// txWire is the Tx object (OpenAPI) as a strict client reads it.
type txWire struct {
	txRefWire
	Fee    json.Number `json:"fee"`
	Size   json.Number `json:"size"`
	Inputs []struct {
		TxHash      string          `json:"tx_hash"`
		OutputIndex int             `json:"output_index"`
		Address     string          `json:"address"`
		Value       json.RawMessage `json:"value"`
	} `json:"inputs"`
	Outputs []struct {
		OutputIndex int             `json:"output_index"`
		Address     string          `json:"address"`
		Value       json.RawMessage `json:"value"`
	} `json:"outputs"`
}

func TestTxByHashShape(t *testing.T) {
	smp := testSamples(t)
	for _, c := range seededChains(t) {
		s := chainServer(t, c)
		for _, h := range []string{smp.FailedTx, smp.AssetsTx} {
			r := get(t, s, "/v1/tx/hash/"+h)
			var generic map[string]json.RawMessage
			decodeExact(t, r.Data, &generic)
			keys := slices.Sorted(mapKeys(generic))
			if want := "block_hash,block_no,block_time,fee,inputs,outputs,size,slot_no,tx_hash"; strings.Join(keys, ",") != want {
				t.Fatalf("keys %v, want %s", keys, want)
			}
			var tx txWire
			decodeExact(t, r.Data, &tx)
			var want struct {
				Fee  string `db:"fee"`
				Size string `db:"size"`
				Outs int    `db:"outs"`
			}
			if err := c.raw.Get(&want, `SELECT t.fee::text AS fee, t.size::text AS size, (SELECT count(*) FROM tx_out WHERE tx_id = t.id) AS outs
				FROM tx t WHERE hash = decode($1, 'hex')`, h); err != nil {
				t.Fatal(err)
			}
			if tx.TxHash != h || tx.Fee.String() != want.Fee || tx.Size.String() != want.Size || len(tx.Outputs) != want.Outs || len(tx.Inputs) == 0 {
				t.Fatalf("%s %s: %+v, want fee %s size %s and %d outputs", c.mode, h, tx, want.Fee, want.Size, want.Outs)
			}
			// groupByPolicy regroups every value; nothing else changes.
			g := get(t, s, "/v1/tx/hash/"+h+"?groupByPolicy=true")
			var grouped txWire
			decodeExact(t, g.Data, &grouped)
			for i, o := range tx.Outputs {
				if regroup(t, o.Value) != string(grouped.Outputs[i].Value) {
					t.Fatalf("%s: output %d grouped %s, flat %s", h, i, grouped.Outputs[i].Value, o.Value)
				}
			}
			for i, in := range tx.Inputs {
				if regroup(t, in.Value) != string(grouped.Inputs[i].Value) {
					t.Fatalf("%s: input %d grouped %s, flat %s", h, i, grouped.Inputs[i].Value, in.Value)
				}
			}
		}
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// regroup turns a flat value into its grouped JSON, independently of the
// handler's code.
func regroup(t *testing.T, flat json.RawMessage) string {
	t.Helper()
	var v struct {
		Lovelace json.Number            `json:"lovelace"`
		Assets   map[string]json.Number `json:"assets"`
	}
	decodeExact(t, flat, &v)
	g := map[string]map[string]json.Number{}
	for unit, q := range v.Assets {
		policy, name, _ := strings.Cut(unit, ".")
		if g[policy] == nil {
			g[policy] = map[string]json.Number{}
		}
		g[policy][name] = q
	}
	b, _ := json.Marshal(struct {
		Lovelace json.Number                       `json:"lovelace"`
		Assets   map[string]map[string]json.Number `json:"assets"`
	}{v.Lovelace, g})
	return string(b)
}

// The whale's total is counted once per tip and then read from Redis,
// under a key naming the network, the tip and the address.
func TestTxHistoryTotalCachedPerTip(t *testing.T) {
	smp := testSamples(t)
	c := seededChains(t)[0]
	// Counted apart from the page, as it is for addresses with many
	// outputs (smaller ones are counted with the page, in one statement).
	db := testdb.MustOpenDBSyncWith(t, c.dsn, dbsync.Options{SmallHistoryOutputs: -1})
	redis := testRedis(t)
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": db}, Credentials: testCredentials, Redis: redis, Log: quietLog})
	first := get(t, s, "/v1/tx/history/"+smp.Whale+"?limit=5")
	want := len(independentHistory(t, c, smp.Whale))
	if string(first.Pagination["total"]) != fmt.Sprint(want) {
		t.Fatalf("total %s, want %d", first.Pagination["total"], want)
	}
	var tip string
	json.Unmarshal(first.LastUpdated["block_hash"], &tip) //nolint:errcheck // compared below
	sum := sha256.Sum256([]byte(smp.Whale))
	key := redis.Key("txtotal", "mainnet", tip, hex.EncodeToString(sum[:16]))
	got, err := redis.Redis().Get(context.Background(), key).Result()
	if err != nil || got != fmt.Sprint(want) {
		t.Fatalf("Redis %s = %q, %v; want %d", key, got, err, want)
	}
	// A cached value is served as is (so a second page does not recount).
	if err := redis.Redis().Set(context.Background(), key, "123456", 0).Err(); err != nil {
		t.Fatal(err)
	}
	// (by another instance: each serves the totals it holds first)
	other := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": db}, Credentials: testCredentials, Redis: redis, Log: quietLog})
	second := get(t, other, "/v1/tx/history/"+smp.Whale+"?limit=5&offset=5")
	if string(second.Pagination["total"]) != "123456" {
		t.Fatalf("second page total %s; the cached count was not used", second.Pagination["total"])
	}
	// Without Redis the count is computed every time.
	plain := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": db}, Credentials: testCredentials, Log: quietLog})
	if r := get(t, plain, "/v1/tx/history/"+smp.Whale+"?limit=5&offset=5"); string(r.Pagination["total"]) != fmt.Sprint(want) {
		t.Fatalf("no Redis: total %s, want %d", r.Pagination["total"], want)
	}
}
