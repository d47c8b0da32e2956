package handlers

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/poolstats"
)

// sqlPoolStatus is every registered pool in pool_hash order with its
// status as the test reads it: its newest retirement certificate against
// its newest registration, the retiring epoch against the tip's epoch.
const sqlPoolStatus = `
WITH cur AS (SELECT max(epoch_no) AS e FROM block),
u AS (SELECT DISTINCT ON (hash_id) hash_id, registered_tx_id, cert_index, pledge::text AS pledge, margin,
        fixed_cost::text AS fixed_cost, meta_id
      FROM pool_update ORDER BY hash_id, registered_tx_id DESC, cert_index DESC),
r AS (SELECT DISTINCT ON (hash_id) hash_id, announced_tx_id, cert_index, retiring_epoch
      FROM pool_retire ORDER BY hash_id, announced_tx_id DESC, cert_index DESC)
SELECT ph.view AS pool_id, encode(ph.hash_raw, 'hex') AS hex, u.pledge, u.margin, u.fixed_cost,
  (SELECT url FROM pool_metadata_ref WHERE id = u.meta_id) AS url,
  COALESCE(r.retiring_epoch, -1) AS retiring_epoch, COALESCE(r.announced_tx_id, -1) AS retire_tx,
  CASE WHEN r.hash_id IS NULL OR r.announced_tx_id < u.registered_tx_id
         OR (r.announced_tx_id = u.registered_tx_id AND r.cert_index < u.cert_index) THEN 'active'
       WHEN r.retiring_epoch > cur.e THEN 'retiring' ELSE 'retired' END AS status,
  (SELECT COALESCE(sum(amount), 0)::text FROM epoch_stake WHERE pool_id = ph.id AND epoch_no = cur.e) AS active,
  (SELECT count(*) FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id WHERE sl.pool_hash_id = ph.id) AS blocks
FROM pool_hash ph JOIN u ON u.hash_id = ph.id LEFT JOIN r ON r.hash_id = ph.id CROSS JOIN cur
ORDER BY ph.id`

type sqlPool struct {
	PoolID        string  `db:"pool_id"`
	Hex           string  `db:"hex"`
	Pledge        string  `db:"pledge"`
	Margin        float64 `db:"margin"`
	FixedCost     string  `db:"fixed_cost"`
	URL           *string `db:"url"`
	RetiringEpoch int64   `db:"retiring_epoch"`
	RetireTx      int64   `db:"retire_tx"`
	Status        string  `db:"status"`
	Active        string  `db:"active"`
	Blocks        int64   `db:"blocks"`
}

type bfPoolExtended struct {
	PoolID         string  `json:"pool_id"`
	Hex            string  `json:"hex"`
	ActiveStake    string  `json:"active_stake"`
	LiveStake      string  `json:"live_stake"`
	LiveSaturation float64 `json:"live_saturation"`
	BlocksMinted   int64   `json:"blocks_minted"`
	DeclaredPledge string  `json:"declared_pledge"`
	MarginCost     float64 `json:"margin_cost"`
	FixedCost      string  `json:"fixed_cost"`
	Metadata       *struct {
		URL  *string `json:"url"`
		Name *string `json:"name"`
	} `json:"metadata"`
}

type bfRetire struct {
	PoolID string `json:"pool_id"`
	Epoch  int64  `json:"epoch"`
}

// TestBlockfrostPoolLists: /pools, /pools/extended, /pools/retired and
// /pools/retiring walked page by page both ways as SQL of the test's own
// lists them, the generator's retired and retiring pools where they
// belong; refusals of bad paging.
func TestBlockfrostPoolLists(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var all []sqlPool
		if err := c.raw.Select(&all, sqlPoolStatus); err != nil {
			t.Fatal(err)
		}
		var active, retired, retiring []sqlPool
		for _, p := range all {
			switch p.Status {
			case "active", "retiring":
				active = append(active, p)
			}
			switch p.Status {
			case "retired":
				retired = append(retired, p)
			case "retiring":
				retiring = append(retiring, p)
			}
		}
		byRetirement := func(a, b sqlPool) int {
			if a.RetiringEpoch != b.RetiringEpoch {
				return int(a.RetiringEpoch - b.RetiringEpoch)
			}
			return int(a.RetireTx - b.RetireTx)
		}
		slices.SortStableFunc(retired, byRetirement)
		slices.SortStableFunc(retiring, byRetirement)
		m := c.manifest.Pools
		if len(active) < 3 || !slices.ContainsFunc(retired, func(p sqlPool) bool { return p.PoolID == m.Retired.ID }) ||
			!slices.ContainsFunc(retiring, func(p sqlPool) bool { return p.PoolID == m.Retiring.ID }) ||
			!slices.ContainsFunc(active, func(p sqlPool) bool { return p.PoolID == m.CancelledRetirement.ID }) {
			t.Fatalf("%s: the chain's pools are not as the generator says: %d active, %d retired, %d retiring", c.mode, len(active), len(retired), len(retiring))
		}
		ids := func(ps []sqlPool) []string {
			out := []string{}
			for _, p := range ps {
				out = append(out, p.PoolID)
			}
			return out
		}
		for _, count := range []int{2, 100} {
			got, _ := walk[string](t, h, "/pools", count)
			if jsonOf(got) != jsonOf(ids(active)) {
				t.Fatalf("%s: /pools count %d: %v\nwant %v", c.mode, count, got, ids(active))
			}
			desc, _ := walk[string](t, h, "/pools?order=desc", count)
			if jsonOf(desc) != jsonOf(reversed(ids(active))) {
				t.Fatalf("%s: /pools desc: %v", c.mode, desc)
			}
		}
		for path, want := range map[string][]sqlPool{"/pools/retired": retired, "/pools/retiring": retiring} {
			got, _ := walk[bfRetire](t, h, path, 1)
			var w []bfRetire
			for _, p := range want {
				w = append(w, bfRetire{PoolID: p.PoolID, Epoch: p.RetiringEpoch})
			}
			if jsonOf(got) != jsonOf(w) {
				t.Fatalf("%s: %s: %+v\nwant %+v", c.mode, path, got, w)
			}
			desc, _ := walk[bfRetire](t, h, path+"?order=desc", 1)
			if jsonOf(desc) != jsonOf(reversed(w)) {
				t.Fatalf("%s: %s desc: %+v", c.mode, path, desc)
			}
		}
		ext, _ := walk[bfPoolExtended](t, h, "/pools/extended", 3)
		if len(ext) != len(active) {
			t.Fatalf("%s: %d extended pools, want %d", c.mode, len(ext), len(active))
		}
		withName := 0
		for i, e := range ext {
			w := active[i]
			// No refresher here: the epoch's active stake stands in for live.
			if e.PoolID != w.PoolID || e.Hex != w.Hex || e.ActiveStake != w.Active || e.LiveStake != w.Active ||
				e.BlocksMinted != w.Blocks || e.DeclaredPledge != w.Pledge || e.MarginCost != w.Margin || e.FixedCost != w.FixedCost ||
				(e.Metadata == nil) != (w.URL == nil) || (e.Metadata != nil && *e.Metadata.URL != *w.URL) {
				t.Fatalf("%s: extended %+v\nwant %+v", c.mode, e, w)
			}
			if e.Metadata != nil && e.Metadata.Name != nil {
				withName++
				if e.PoolID == m.WithMetadata.ID && *e.Metadata.Name != m.WithMetadata.MetadataName {
					t.Fatalf("%s: %s named %q, want %q", c.mode, e.PoolID, *e.Metadata.Name, m.WithMetadata.MetadataName)
				}
			}
		}
		if withName == 0 {
			t.Fatalf("%s: no pool's fetched metadata listed", c.mode)
		}
		deep, _ := walk[bfPoolExtended](t, h, "/pools/extended?order=desc", 1)
		if jsonOf(deep) != jsonOf(reversed(ext)) {
			t.Fatalf("%s: extended desc differs", c.mode)
		}
		for _, path := range []string{"/pools", "/pools/extended", "/pools/retired", "/pools/retiring"} {
			bfRefused(t, h, path+"?count=0", 400, "count")
			bfRefused(t, h, path+"?page=0", 400, "page")
			bfRefused(t, h, path+"?order=up", 400, "order")
		}
	}
}

type bfPool struct {
	PoolID         string   `json:"pool_id"`
	Hex            string   `json:"hex"`
	VRFKey         string   `json:"vrf_key"`
	BlocksMinted   int64    `json:"blocks_minted"`
	BlocksEpoch    int64    `json:"blocks_epoch"`
	LiveStake      string   `json:"live_stake"`
	LiveDelegators int64    `json:"live_delegators"`
	ActiveStake    string   `json:"active_stake"`
	DeclaredPledge string   `json:"declared_pledge"`
	MarginCost     float64  `json:"margin_cost"`
	FixedCost      string   `json:"fixed_cost"`
	RewardAccount  string   `json:"reward_account"`
	Owners         []string `json:"owners"`
	Registration   []string `json:"registration"`
	Retirement     []string `json:"retirement"`
	CalidusKey     *string  `json:"calidus_key"`
}

// TestBlockfrostPool: each of the generator's pools by bech32 and by hex
// id, its relays and metadata, as SQL of the test's own reads them;
// unknown pools 404, malformed ids 400 on every pool route.
func TestBlockfrostPool(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		m := c.manifest.Pools
		for _, ref := range []string{m.Biggest.ID, m.Small.ID, m.Retired.ID, m.Retiring.ID, m.ReRegistered.ID, m.WithMetadata.ID} {
			var got, byHex bfPool
			bfJSON(t, h, "/pools/"+ref, &got)
			var w struct {
				Hex     string  `db:"hex"`
				VRF     string  `db:"vrf"`
				Pledge  string  `db:"pledge"`
				Margin  float64 `db:"margin"`
				Fixed   string  `db:"fixed"`
				Reward  string  `db:"reward"`
				Owners  string  `db:"owners"`
				Regs    string  `db:"regs"`
				Retires string  `db:"retires"`
				Blocks  int64   `db:"blocks"`
				Active  string  `db:"active"`
				Relays  string  `db:"relays"`
				URL     *string `db:"url"`
				Hash    *string `db:"hash"`
			}
			if err := c.raw.Get(&w, `WITH ph AS (SELECT id, hash_raw FROM pool_hash WHERE view = $1),
				u AS (SELECT * FROM pool_update WHERE hash_id = (SELECT id FROM ph) ORDER BY registered_tx_id DESC, cert_index DESC LIMIT 1)
				SELECT encode((SELECT hash_raw FROM ph), 'hex') AS hex, encode(u.vrf_key_hash, 'hex') AS vrf, u.pledge::text AS pledge,
				  u.margin, u.fixed_cost::text AS fixed, (SELECT view FROM stake_address WHERE id = u.reward_addr_id) AS reward,
				  (SELECT COALESCE(json_agg(sa.view ORDER BY po.id), '[]')::text FROM pool_owner po JOIN stake_address sa ON sa.id = po.addr_id WHERE po.pool_update_id = u.id) AS owners,
				  (SELECT COALESCE(json_agg(encode(t.hash, 'hex') ORDER BY t.id, x.cert_index), '[]')::text FROM pool_update x JOIN tx t ON t.id = x.registered_tx_id WHERE x.hash_id = u.hash_id) AS regs,
				  (SELECT COALESCE(json_agg(encode(t.hash, 'hex') ORDER BY t.id, x.cert_index), '[]')::text FROM pool_retire x JOIN tx t ON t.id = x.announced_tx_id WHERE x.hash_id = u.hash_id) AS retires,
				  (SELECT count(*) FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id WHERE sl.pool_hash_id = u.hash_id) AS blocks,
				  (SELECT COALESCE(sum(amount), 0)::text FROM epoch_stake WHERE pool_id = u.hash_id AND epoch_no = (SELECT max(epoch_no) FROM block)) AS active,
				  (SELECT COALESCE(json_agg(json_build_object('ipv4', ipv4, 'ipv6', ipv6, 'dns', dns_name, 'dns_srv', dns_srv_name, 'port', COALESCE(port, 0)) ORDER BY id), '[]')::text
				   FROM pool_relay WHERE update_id = u.id) AS relays,
				  r.url, encode(r.hash, 'hex') AS hash
				FROM u LEFT JOIN pool_metadata_ref r ON r.id = u.meta_id`, ref); err != nil {
				t.Fatal(err)
			}
			bfJSON(t, h, "/pools/"+w.Hex, &byHex)
			if jsonOf(got) != jsonOf(byHex) || got.PoolID != ref || got.Hex != w.Hex || got.VRFKey != w.VRF ||
				got.DeclaredPledge != w.Pledge || got.MarginCost != w.Margin || got.FixedCost != w.Fixed || got.RewardAccount != w.Reward ||
				jsonOf(got.Owners) != normJSON(t, w.Owners) || jsonOf(got.Registration) != normJSON(t, w.Regs) || jsonOf(got.Retirement) != normJSON(t, w.Retires) ||
				got.BlocksMinted != w.Blocks || got.ActiveStake != w.Active || got.CalidusKey != nil {
				t.Fatalf("%s: %s: %+v\nwant %+v", c.mode, ref, got, w)
			}
			var relays []map[string]any
			bfJSON(t, h, "/pools/"+ref+"/relays", &relays)
			var want []map[string]any
			if err := jsonUnmarshal([]byte(w.Relays), &want); err != nil {
				t.Fatal(err)
			}
			if jsonOf(relays) != jsonOf(want) {
				t.Fatalf("%s: %s relays %v, want %v", c.mode, ref, relays, want)
			}
			var md map[string]any
			bfJSON(t, h, "/pools/"+ref+"/metadata", &md)
			switch {
			case w.URL == nil && len(md) != 0:
				t.Fatalf("%s: %s: metadata %v for a registration naming none", c.mode, ref, md)
			case w.URL != nil && (md["url"] != *w.URL || md["hash"] != *w.Hash || md["pool_id"] != ref):
				t.Fatalf("%s: %s: metadata %v, want %s %s", c.mode, ref, md, *w.URL, *w.Hash)
			case ref == m.WithMetadata.ID && md["name"] != m.WithMetadata.MetadataName:
				t.Fatalf("%s: %s: metadata name %v, want %s", c.mode, ref, md["name"], m.WithMetadata.MetadataName)
			}
		}
		unknown := strings.Repeat("0", 56)
		for _, route := range []string{"", "/history", "/metadata", "/relays", "/delegators", "/blocks", "/updates", "/votes"} {
			bfRefused(t, h, "/pools/"+unknown+route, 404, "not been found")
			for _, bad := range []string{"pool1", strings.Repeat("0", 55), "stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw", strings.Repeat("g", 56)} {
				bfRefused(t, h, "/pools/"+bad+route, 400, "pool")
			}
		}
		for _, route := range []string{"/history", "/delegators", "/blocks", "/updates", "/votes"} {
			bfRefused(t, h, "/pools/"+m.Biggest.ID+route+"?count=101", 400, "count")
			bfRefused(t, h, "/pools/"+m.Biggest.ID+route+"?page=-1", 400, "page")
		}
	}
}

// TestBlockfrostPoolOwnLists: one pool's history, blocks, certificates,
// votes and delegators walked page by page both ways as SQL of the
// test's own reads them (votes may be none while the generator fills no
// governance tables: then both are empty).
func TestBlockfrostPoolOwnLists(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		m := c.manifest.Pools
		for _, ref := range []string{m.Biggest.ID, m.Retired.ID, m.ReRegistered.ID} {
			blocks := sqlStrings(t, c.raw, `SELECT encode(b.hash, 'hex') FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id
				JOIN pool_hash ph ON ph.id = sl.pool_hash_id WHERE ph.view = $1 ORDER BY b.id`, ref)
			checkWalk(t, h, c.mode, "/pools/"+ref+"/blocks", blocks)
			type update struct {
				TxHash    string `json:"tx_hash" db:"tx_hash"`
				CertIndex int64  `json:"cert_index" db:"cert_index"`
				Action    string `json:"action" db:"action"`
			}
			var updates []update
			if err := c.raw.Select(&updates, `SELECT encode(t.hash, 'hex') AS tx_hash, x.cert_index, x.action FROM (
				  SELECT registered_tx_id AS tx, cert_index, 'registered' AS action FROM pool_update WHERE hash_id = (SELECT id FROM pool_hash WHERE view = $1)
				  UNION ALL SELECT announced_tx_id, cert_index, 'deregistered' FROM pool_retire WHERE hash_id = (SELECT id FROM pool_hash WHERE view = $1)) x
				JOIN tx t ON t.id = x.tx ORDER BY t.id, x.cert_index, x.action DESC`, ref); err != nil {
				t.Fatal(err)
			}
			if ref != m.Biggest.ID && len(updates) < 2 {
				t.Fatalf("%s: %s has %d certificates", c.mode, ref, len(updates))
			}
			checkWalk(t, h, c.mode, "/pools/"+ref+"/updates", updates)
			type vote struct {
				TxHash    string `json:"tx_hash" db:"tx_hash"`
				CertIndex int64  `json:"cert_index" db:"cert_index"`
				Vote      string `json:"vote" db:"vote"`
			}
			votes := []vote{}
			if err := c.raw.Select(&votes, `SELECT encode(t.hash, 'hex') AS tx_hash, vp.index AS cert_index, lower(vp.vote::text) AS vote
				FROM voting_procedure vp JOIN tx t ON t.id = vp.tx_id JOIN pool_hash ph ON ph.id = vp.pool_voter
				WHERE ph.view = $1 ORDER BY vp.id`, ref); err != nil {
				t.Fatal(err)
			}
			checkWalk(t, h, c.mode, "/pools/"+ref+"/votes", votes)
			type epoch struct {
				Epoch           int64  `json:"epoch" db:"epoch"`
				Blocks          int64  `json:"blocks" db:"blocks"`
				ActiveStake     string `json:"active_stake" db:"active_stake"`
				DelegatorsCount int64  `json:"delegators_count" db:"delegators_count"`
				Rewards         string `json:"rewards" db:"rewards"`
			}
			var history []epoch
			if err := c.raw.Select(&history, `SELECT es.epoch_no AS epoch, sum(es.amount)::text AS active_stake, count(*) AS delegators_count,
				  (SELECT count(*) FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id WHERE sl.pool_hash_id = es.pool_id AND b.epoch_no = es.epoch_no) AS blocks,
				  (SELECT COALESCE(sum(amount), 0)::text FROM reward WHERE pool_id = es.pool_id AND earned_epoch = es.epoch_no AND type <> 'refund') AS rewards
				FROM epoch_stake es JOIN pool_hash ph ON ph.id = es.pool_id
				WHERE ph.view = $1 AND es.epoch_no < (SELECT max(epoch_no) FROM block)
				GROUP BY es.pool_id, es.epoch_no ORDER BY es.epoch_no`, ref); err != nil {
				t.Fatal(err)
			}
			if ref == m.Biggest.ID && len(history) < 2 {
				t.Fatalf("%s: %s has a history of %d epochs", c.mode, ref, len(history))
			}
			checkWalk(t, h, c.mode, "/pools/"+ref+"/history", history)
		}
		// Delegators: the live ones (latest delegation, registered since,
		// not wiped by a retirement) as /v1's live figures, summing to the
		// pool's live stake.
		var pool bfPool
		bfJSON(t, h, "/pools/"+m.Biggest.ID, &pool)
		type delegator struct {
			Address   string `json:"address"`
			LiveStake string `json:"live_stake"`
		}
		all, _ := walk[delegator](t, h, "/pools/"+m.Biggest.ID+"/delegators", 7)
		desc, _ := walk[delegator](t, h, "/pools/"+m.Biggest.ID+"/delegators?order=desc", 7)
		if jsonOf(desc) != jsonOf(reversed(all)) {
			t.Fatalf("%s: delegators desc differs", c.mode)
		}
		sum := int64(0)
		var addrs []string
		for _, d := range all {
			var n int64
			fmt.Sscan(d.LiveStake, &n)
			sum += n
			addrs = append(addrs, d.Address)
		}
		want := sqlStrings(t, c.raw, `SELECT sa.view FROM (SELECT DISTINCT ON (addr_id) addr_id, pool_hash_id, tx_id FROM delegation
			ORDER BY addr_id, tx_id DESC, cert_index DESC) d JOIN stake_address sa ON sa.id = d.addr_id JOIN pool_hash ph ON ph.id = d.pool_hash_id
			WHERE ph.view = $1 AND EXISTS (SELECT 1 FROM stake_registration r WHERE r.addr_id = d.addr_id
			  AND NOT EXISTS (SELECT 1 FROM stake_deregistration x WHERE x.addr_id = d.addr_id AND x.tx_id > r.tx_id))
			ORDER BY sa.view`, m.Biggest.ID)
		slices.Sort(addrs)
		if len(all) != m.Biggest.Delegators || jsonOf(addrs) != jsonOf(want) || fmt.Sprint(sum) != pool.LiveStake || int64(len(all)) != pool.LiveDelegators {
			t.Fatalf("%s: %d delegators summing to %d (pool: %s, %d), want %d: %v", c.mode, len(all), sum, pool.LiveStake, pool.LiveDelegators, m.Biggest.Delegators, want)
		}
	}
}

// normJSON is PostgreSQL's JSON text as jsonOf writes it.
func normJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := jsonUnmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return jsonOf(v)
}

// checkWalk walks path's pages both ways at a small count and page 1 at
// the largest, each as want lists.
func checkWalk[T any](t *testing.T, h http.Handler, mode any, path string, want []T) {
	t.Helper()
	if want == nil {
		want = []T{}
	}
	for _, count := range []int{1, 3, 100} {
		got, _ := walk[T](t, h, path, count)
		if got == nil {
			got = []T{}
		}
		if jsonOf(got) != jsonOf(want) {
			t.Fatalf("%v: %s count %d: %v\nwant %v", mode, path, count, got, want)
		}
		desc, _ := walk[T](t, h, path+"?order=desc", count)
		if desc == nil {
			desc = []T{}
		}
		if jsonOf(desc) != jsonOf(reversed(want)) {
			t.Fatalf("%v: %s desc count %d: %v", mode, path, count, desc)
		}
	}
}

// TestBlockfrostPoolsLiveFromRefresher: with the pool-stake refresher,
// each pool's live stake in /pools/extended is the one /pools/{id} gives,
// and its delegators sum to it.
func TestBlockfrostPoolsLiveFromRefresher(t *testing.T) {
	c := seededChains(t)[0]
	adminDB := testdb.Open(t, testdb.New(t, "sg_bf_pools_admin"))
	if _, err := admin.Migrate(t.Context(), adminDB); err != nil {
		t.Fatal(err)
	}
	stats := poolstats.New(adminDB, map[string]*dbsync.DB{"mainnet": c.db}, poolstats.Options{})
	if _, err := stats.Refresh(t.Context(), "mainnet"); err != nil {
		t.Fatal(err)
	}
	h := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": c.db}, Credentials: testCredentials,
		Redis: testRedis(t), Log: quietLog, PoolStats: stats}).Handler()
	ext, _ := walk[bfPoolExtended](t, h, "/pools/extended", 100)
	live := 0
	for _, e := range ext {
		var p bfPool
		bfJSON(t, h, "/pools/"+e.PoolID, &p)
		if p.LiveStake != e.LiveStake {
			t.Fatalf("%s: extended live %s, pool %s", e.PoolID, e.LiveStake, p.LiveStake)
		}
		if p.LiveStake != "0" {
			live++
		}
	}
	if live == 0 {
		t.Fatal("no pool has live stake")
	}
	type delegator struct {
		LiveStake string `json:"live_stake"`
	}
	id := c.manifest.Pools.Biggest.ID
	var p bfPool
	bfJSON(t, h, "/pools/"+id, &p)
	all, _ := walk[delegator](t, h, "/pools/"+id+"/delegators", 100)
	sum := int64(0)
	for _, d := range all {
		var n int64
		fmt.Sscan(d.LiveStake, &n)
		sum += n
	}
	if fmt.Sprint(sum) != p.LiveStake || int64(len(all)) != p.LiveDelegators {
		t.Fatalf("%d stored delegators sum to %d; pool: %s, %d", len(all), sum, p.LiveStake, p.LiveDelegators)
	}
}
