package handlers

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcutil/bech32"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/poolstats"
)

// c2PoolServers are a chain's two ways to answer: from the stored
// distribution (refreshed once) and on demand (no PoolStats).
type c2PoolServers struct {
	chain    *chain2Chain
	stored   http.Handler
	onDemand http.Handler
}

func newC2PoolServers(t *testing.T, c *chain2Chain) c2PoolServers {
	t.Helper()
	adminDB := testdb.Open(t, testdb.New(t, "sg_c2_handlers_admin"))
	if _, err := admin.Migrate(t.Context(), adminDB); err != nil {
		t.Fatal(err)
	}
	stats := poolstats.New(adminDB, map[string]*dbsync.DB{"mainnet": c.db}, poolstats.Options{})
	if _, err := stats.Refresh(t.Context(), "mainnet"); err != nil {
		t.Fatal(err)
	}
	nets := map[string]*dbsync.DB{"mainnet": c.db}
	return c2PoolServers{
		chain:    c,
		stored:   New(Deps{Networks: nets, Credentials: chain2Creds{}, Log: chain2Log, PoolStats: stats}).Handler(),
		onDemand: New(Deps{Networks: nets, Credentials: chain2Creds{}, Log: chain2Log}).Handler(),
	}
}

type c2PoolBody struct {
	PoolID         string            `json:"pool_id"`
	PoolIDHex      string            `json:"pool_id_hex"`
	VRFKeyHash     string            `json:"vrf_key_hash"`
	Pledge         json.RawMessage   `json:"pledge"`
	Margin         json.RawMessage   `json:"margin"`
	FixedCost      json.RawMessage   `json:"fixed_cost"`
	RewardAccount  *string           `json:"reward_account"`
	Owners         []string          `json:"owners"`
	Relays         []json.RawMessage `json:"relays"`
	MetadataURL    *string           `json:"metadata_url"`
	MetadataHash   *string           `json:"metadata_hash"`
	ActiveStake    json.RawMessage   `json:"active_stake"`
	LiveStake      json.RawMessage   `json:"live_stake"`
	DelegatorCount json.RawMessage   `json:"delegator_count"`
	BlocksMinted   json.RawMessage   `json:"blocks_minted"`
	BlocksEpoch    json.RawMessage   `json:"blocks_epoch"`
	Saturation     json.RawMessage   `json:"saturation"`
	Status         string            `json:"status"`
	RetiringEpoch  *int              `json:"retiring_epoch"`
}

func c2Str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func c2GetPool(t *testing.T, h http.Handler, id string) (c2PoolBody, []byte) {
	t.Helper()
	code, r, body := c2Get(t, h, "/v1/pools/"+id)
	if code != http.StatusOK || !r.Success {
		t.Fatalf("GET pool %s: %d %s", id, code, body)
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(r.Data, &fields)
	for _, f := range []string{"pool_id", "pool_id_hex", "vrf_key_hash", "pledge", "margin", "fixed_cost", "reward_account", "owners",
		"relays", "metadata_url", "metadata_hash", "active_stake", "live_stake", "delegator_count", "blocks_minted", "blocks_epoch",
		"saturation", "status", "retiring_epoch"} {
		if _, ok := fields[f]; !ok {
			t.Errorf("pool %s: field %s missing", id, f)
		}
	}
	var p c2PoolBody
	if err := json.Unmarshal(r.Data, &p); err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string]json.RawMessage{"pledge": p.Pledge, "fixed_cost": p.FixedCost, "active_stake": p.ActiveStake, "live_stake": p.LiveStake} {
		if len(raw) == 0 || raw[0] != '"' {
			t.Errorf("pool %s: %s is not a string: %s", id, name, raw)
		}
		if _, ok := new(big.Int).SetString(c2Str(raw), 10); !ok {
			t.Errorf("pool %s: %s %s is not an integer", id, name, raw)
		}
	}
	for name, raw := range map[string]json.RawMessage{"margin": p.Margin, "saturation": p.Saturation, "delegator_count": p.DelegatorCount,
		"blocks_minted": p.BlocksMinted, "blocks_epoch": p.BlocksEpoch} {
		if len(raw) == 0 || raw[0] == '"' || raw[0] == 'n' {
			t.Errorf("pool %s: %s is not a number: %s", id, name, raw)
		}
	}
	for _, r := range p.Relays {
		var rel map[string]json.RawMessage
		_ = json.Unmarshal(r, &rel)
		_, v4 := rel["ipv4"]
		_, dns := rel["dns"]
		port, hasPort := rel["port"]
		if v4 == dns || !hasPort || port[0] == '"' || port[0] == 'n' {
			t.Errorf("pool %s: relay %s", id, r)
		}
	}
	return p, body
}

type c2DelegatorsPage struct {
	PoolID     string `json:"pool_id"`
	Delegators []struct {
		StakeAddress  string          `json:"stake_address"`
		Amount        json.RawMessage `json:"amount"`
		ActiveEpochNo json.RawMessage `json:"active_epoch_no"`
	} `json:"delegators"`
}

func c2GetDelegators(t *testing.T, h http.Handler, id, query string) (c2DelegatorsPage, chain2Response, []byte) {
	t.Helper()
	path := "/v1/pools/" + id + "/delegators/list" + query
	code, r, body := c2Get(t, h, path)
	if code != http.StatusOK || !r.Success || r.Pagination == nil || r.Pagination.HasMore == nil {
		t.Fatalf("GET %s: %d %s", path, code, body)
	}
	var d c2DelegatorsPage
	if err := json.Unmarshal(r.Data, &d); err != nil {
		t.Fatal(err)
	}
	if d.Delegators == nil {
		t.Fatalf("GET %s: delegators is not an array: %s", path, r.Data)
	}
	return d, r, body
}

func TestPools(t *testing.T) {
	t.Parallel() // reads the shared chains, changes nothing shared
	core, consumed := sharedChain2(t, chaingen.ModeCore), sharedChain2(t, chaingen.ModeConsumed)
	m := core.manifest
	servers := []c2PoolServers{newC2PoolServers(t, core), newC2PoolServers(t, consumed)}

	t.Run("errors", func(t *testing.T) {
		h := servers[0].stored
		big := m.Pools.Biggest
		raw, _ := hex.DecodeString(big.Hash)
		conv, _ := bech32.ConvertBits(raw, 8, 5, true)
		wrongHRP, _ := bech32.Encode("script", conv)
		stakeAddr := m.StakeKeys[0].StakeAddress
		const badID = "Invalid pool ID format (expected pool1... or 56 hex chars)"
		for _, id := range []string{"pool1kek", big.Hash[:55], big.Hash + "0", "zz" + big.Hash[2:], stakeAddr, wrongHRP,
			big.ID[:len(big.ID)-1] + "x", big.ID[:20] + strings.ToUpper(big.ID[20:]), "x"} {
			c2WantError(t, h, "/v1/pools/"+id, 400, badID)
			c2WantError(t, h, "/v1/pools/"+id+"/delegators/list", 400, badID)
			c2WantError(t, h, "/v1/pools/"+id+"/delegators/list?limit=0", 400, badID) // the id is checked first
			for _, sub := range []string{"/metadata", "/delegators", "/blocks"} {
				c2WantError(t, h, "/v1/pools/"+id+sub, 400, badID)
			}
		}
		for _, id := range []string{strings.Repeat("ab", 28), "pool1y6chk7x7fup4ms9leesdr57r4qy9cwxuee0msan72x976a6u0nc"} {
			c2WantError(t, h, "/v1/pools/"+id, 404, "Pool not found")
			c2WantError(t, h, "/v1/pools/"+id+"/delegators/list", 404, "Pool not found")
			c2WantError(t, servers[0].onDemand, "/v1/pools/"+id, 404, "Pool not found")
			for _, sub := range []string{"/metadata", "/delegators", "/blocks"} {
				c2WantError(t, h, "/v1/pools/"+id+sub, 404, "Pool not found")
				c2WantError(t, servers[0].onDemand, "/v1/pools/"+id+sub, 404, "Pool not found")
			}
		}
		for _, q := range []string{"limit=0", "limit=501", "limit=abc", "limit=-1", "limit=1.5", "limit="} {
			c2WantError(t, h, "/v1/pools/"+big.ID+"/delegators/list?"+q, 400, "Invalid limit: must be an integer from 1 to 500")
		}
		for _, q := range []string{"offset=-1", "offset=x", "offset=1000001"} {
			c2WantError(t, h, "/v1/pools/"+big.ID+"/delegators/list?"+q, 400, "Invalid offset: must be an integer from 0 to 1000000")
		}
	})

	for _, s := range servers {
		t.Run(string(s.chain.mode), func(t *testing.T) { c2PoolResponses(t, s) })
		t.Run(string(s.chain.mode)+" client extras", func(t *testing.T) { c2PoolExtras(t, s) })
	}

	t.Run("epoch totals cached", func(t *testing.T) {
		rc := testRedis(t)
		// Each check asks another instance sharing the Redis: an instance
		// serves answers it holds from process memory first (LocalFirst).
		instance := func() http.Handler {
			return New(Deps{Networks: map[string]*dbsync.DB{"mainnet": core.db}, Credentials: chain2Creds{}, Log: chain2Log, Redis: rc}).Handler()
		}
		h := instance()
		ref := m.Pools.Biggest
		first, _ := c2GetPool(t, h, ref.ID)
		key := rc.Key("pool", "mainnet", ref.Hash, "epoch", fmt.Sprint(m.Tip.Epoch))
		var cached dbsync.PoolEpochTotals
		b, err := rc.Redis().Get(t.Context(), key).Bytes()
		if err != nil || json.Unmarshal(b, &cached) != nil || `"`+cached.ActiveStake+`"` != string(first.ActiveStake) {
			t.Fatalf("totals not cached under %s: %s %v", key, b, err)
		}
		// Served from the cache: plant other figures.
		if err := rc.Redis().Set(t.Context(), key, `{"active_stake":"7","blocks_before":1}`, time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		var blocksEpoch int64
		_ = json.Unmarshal(first.BlocksEpoch, &blocksEpoch)
		// The whole answer is cached under the tip too: served as stored…
		answerKey := rc.Key("poolinfo", "mainnet", m.Tip.BlockHash, ref.Hash)
		stored, err := rc.Redis().Get(t.Context(), answerKey).Bytes()
		if err != nil {
			t.Fatalf("answer not cached under %s: %v", answerKey, err)
		}
		// A value the database would not give this active pool, yet one the
		// OpenAPI document allows (every response is validated against it).
		marked := strings.Replace(string(stored), `"status":"active"`, `"status":"retired"`, 1)
		_ = rc.Redis().Set(t.Context(), answerKey, marked, time.Minute).Err()
		if p, _ := c2GetPool(t, instance(), ref.ID); p.Status != "retired" {
			t.Fatalf("cached answer not served: %s", p.Status)
		}
		// …and once it is gone, rebuilt from the cached epoch totals.
		_ = rc.Redis().Del(t.Context(), answerKey).Err()
		again, _ := c2GetPool(t, instance(), ref.ID)
		if string(again.ActiveStake) != `"7"` || string(again.BlocksMinted) != fmt.Sprint(1+blocksEpoch) {
			t.Errorf("cached totals not used: %s %s", again.ActiveStake, again.BlocksMinted)
		}
	})

	t.Run("modes agree", func(t *testing.T) {
		for label, ref := range c2PoolRefs(m) {
			for _, path := range []string{"/v1/pools/" + ref.ID, "/v1/pools/" + ref.ID + "/delegators/list?limit=500",
				"/v1/pools/" + ref.ID + "/metadata", "/v1/pools/" + ref.ID + "/delegators", "/v1/pools/" + ref.ID + "/blocks"} {
				_, _, a := c2Get(t, servers[0].stored, path)
				_, _, b := c2Get(t, servers[1].stored, path)
				if string(a) != string(b) {
					t.Errorf("%s %s:\ncore     %s\nconsumed %s", label, path, a, b)
				}
			}
		}
	})
}

func c2PoolRefs(m *chaingen.Manifest) map[string]chaingen.PoolRef {
	p := m.Pools
	return map[string]chaingen.PoolRef{"biggest": p.Biggest, "small": p.Small, "retired": p.Retired, "retiring": p.Retiring,
		"re_registered": p.ReRegistered, "cancelled_retirement": p.CancelledRetirement, "ordinary": p.Ordinary,
		"with_metadata": p.WithMetadata}
}

func c2PoolResponses(t *testing.T, s c2PoolServers) {
	c, m := s.chain, s.chain.manifest
	wantStatus := map[string]string{"biggest": "active", "small": "active", "retired": "retired", "retiring": "retiring",
		"re_registered": "active", "cancelled_retirement": "active", "ordinary": "active", "with_metadata": "active"}
	var k int64
	var reserves string
	if err := c.raw.QueryRow(`SELECT (SELECT optimal_pool_count FROM epoch_param ORDER BY epoch_no DESC LIMIT 1),
		(SELECT reserves::text FROM ada_pots WHERE epoch_no <= (SELECT max(epoch_no) FROM block) ORDER BY epoch_no DESC LIMIT 1)`).Scan(&k, &reserves); err != nil {
		t.Fatal(err)
	}
	res, _ := new(big.Float).SetString(reserves)
	circulation, _ := new(big.Float).Sub(big.NewFloat(45e15), res).Float64()

	for label, ref := range c2PoolRefs(m) {
		for _, id := range []string{ref.ID, ref.Hash, strings.ToUpper(ref.Hash)} {
			p, body := c2GetPool(t, s.stored, id)
			if p.PoolID != ref.ID || p.PoolIDHex != ref.Hash || p.Status != wantStatus[label] || p.Status != ref.Status {
				t.Errorf("%s: id %s/%s status %s (manifest %s)", label, p.PoolID, p.PoolIDHex, p.Status, ref.Status)
			}
			if fmt.Sprint(p.RetiringEpoch) != fmt.Sprint(ref.RetiringEpoch) && (p.RetiringEpoch == nil || ref.RetiringEpoch == nil ||
				*p.RetiringEpoch != *ref.RetiringEpoch) {
				t.Errorf("%s: retiring_epoch %v, manifest %v", label, p.RetiringEpoch, ref.RetiringEpoch)
			}
			if string(p.DelegatorCount) != fmt.Sprint(ref.Delegators) {
				t.Errorf("%s: delegator_count %s, manifest %d", label, p.DelegatorCount, ref.Delegators)
			}
			if p.RewardAccount == nil || !strings.HasPrefix(*p.RewardAccount, "stake1") || len(p.Owners) == 0 || len(p.VRFKeyHash) != 64 {
				t.Errorf("%s: reward %v owners %v vrf %q", label, p.RewardAccount, p.Owners, p.VRFKeyHash)
			}
			for _, o := range p.Owners {
				if !strings.HasPrefix(o, "stake1") {
					t.Errorf("%s: owner %q", label, o)
				}
			}
			// Saturation from live stake, k and reserves.
			live, _ := new(big.Float).SetString(c2Str(p.LiveStake))
			lf, _ := live.Float64()
			var sat float64
			_ = json.Unmarshal(p.Saturation, &sat)
			if want := lf * float64(k) / circulation; math.Abs(sat-want) > 1e-12*math.Max(1, want) {
				t.Errorf("%s: saturation %v, want %v", label, sat, want)
			}
			// The same answer without the stored distribution, but for
			// live_size: its total (every pool's live stake) is only known
			// from a refresh (the on-demand one is checked in c2PoolExtras).
			if _, od := c2GetPool(t, s.onDemand, id); string(withoutLiveSize(t, od)) != string(withoutLiveSize(t, body)) {
				t.Errorf("%s: stored and on-demand answers differ:\n%s\n%s", label, body, od)
			}
		}

		// The delegator list: pages of 7 walk the whole list in order, the
		// amounts sum to live_stake, and match the on-demand list.
		p, _ := c2GetPool(t, s.stored, ref.ID)
		full, fr, fullBody := c2GetDelegators(t, s.stored, ref.ID, "?limit=500")
		if fr.Pagination.Limit != 500 || fr.Pagination.Offset != 0 || fr.Pagination.Total != int64(ref.Delegators) ||
			*fr.Pagination.HasMore || len(full.Delegators) != ref.Delegators || full.PoolID != ref.ID {
			t.Errorf("%s: full list %+v, %d rows", label, *fr.Pagination, len(full.Delegators))
		}
		sum := new(big.Int)
		for i, d := range full.Delegators {
			if d.Amount[0] != '"' || d.ActiveEpochNo[0] == '"' || !strings.HasPrefix(d.StakeAddress, "stake1") {
				t.Errorf("%s: delegator %+v", label, d)
			}
			v, ok := new(big.Int).SetString(c2Str(d.Amount), 10)
			if !ok {
				t.Fatalf("%s: amount %s", label, d.Amount)
			}
			sum.Add(sum, v)
			if i > 0 {
				prev, _ := new(big.Int).SetString(c2Str(full.Delegators[i-1].Amount), 10)
				if c := prev.Cmp(v); c < 0 || c == 0 && full.Delegators[i-1].StakeAddress >= d.StakeAddress {
					t.Errorf("%s: delegators %d and %d out of order", label, i-1, i)
				}
			}
		}
		if sum.String() != c2Str(p.LiveStake) {
			t.Errorf("%s: delegator amounts sum to %s, live_stake %s", label, sum, c2Str(p.LiveStake))
		}
		if _, _, od := c2GetDelegators(t, s.onDemand, ref.ID, "?limit=500"); string(od) != string(fullBody) {
			t.Errorf("%s: stored and on-demand lists differ", label)
		}
		var walked []string
		for offset := 0; ; offset += 7 {
			page, r, _ := c2GetDelegators(t, s.stored, ref.ID, fmt.Sprintf("?limit=7&offset=%d", offset))
			if r.Pagination.Limit != 7 || r.Pagination.Offset != offset || r.Pagination.Total != int64(ref.Delegators) {
				t.Fatalf("%s: pagination %+v", label, *r.Pagination)
			}
			if want := offset+len(page.Delegators) < ref.Delegators; *r.Pagination.HasMore != want {
				t.Errorf("%s offset %d: hasMore %v", label, offset, *r.Pagination.HasMore)
			}
			for _, d := range page.Delegators {
				walked = append(walked, d.StakeAddress)
			}
			if len(page.Delegators) < 7 {
				break
			}
		}
		if len(walked) != len(full.Delegators) {
			t.Fatalf("%s: walked %d, full %d", label, len(walked), len(full.Delegators))
		}
		for i := range walked {
			if walked[i] != full.Delegators[i].StakeAddress {
				t.Errorf("%s: page walk differs at %d", label, i)
				break
			}
		}
	}

	// Defaults, and a page past the end.
	big := m.Pools.Biggest
	d, r, _ := c2GetDelegators(t, s.stored, big.ID, "")
	if r.Pagination.Limit != 100 || r.Pagination.Offset != 0 || len(d.Delegators) != min(100, big.Delegators) {
		t.Errorf("defaults: %+v, %d rows", *r.Pagination, len(d.Delegators))
	}
	d, r, _ = c2GetDelegators(t, s.stored, big.ID, "?offset=100000")
	if len(d.Delegators) != 0 || *r.Pagination.HasMore || r.Pagination.Total != int64(big.Delegators) {
		t.Errorf("past the end: %+v, %d rows", *r.Pagination, len(d.Delegators))
	}
	d, r, _ = c2GetDelegators(t, s.stored, m.Pools.Retired.ID, "")
	if len(d.Delegators) != 0 || r.Pagination.Total != 0 || *r.Pagination.HasMore {
		t.Errorf("retired pool: %+v, %d rows", *r.Pagination, len(d.Delegators))
	}
}
