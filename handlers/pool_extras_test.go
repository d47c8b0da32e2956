package handlers

import (
	"encoding/json"
	"math"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// sdkPool mirrors the pool record as the client SDK (cardano-raw-sdk
// 1.4.x) declares it under both of its names for it, with the JSON types
// of the client SDK: strings for lovelace, numbers for counts and
// shares. Decoding is strict: a renamed, retyped or extra field fails.
type sdkPool struct {
	PoolID        string     `json:"pool_id"`
	PoolIDHex     string     `json:"pool_id_hex"`
	VRFKeyHash    string     `json:"vrf_key_hash"`
	Pledge        string     `json:"pledge"`
	Margin        float64    `json:"margin"`
	FixedCost     string     `json:"fixed_cost"`
	RewardAccount *string    `json:"reward_account"`
	Owners        []string   `json:"owners"`
	Relays        []struct { // spec 2.9: a port and ipv4 or dns; ipv6 when the relay has one
		IPv4 *string `json:"ipv4,omitempty"`
		DNS  *string `json:"dns,omitempty"`
		IPv6 *string `json:"ipv6,omitempty"`
		Port float64 `json:"port"`
	} `json:"relays"`
	MetadataURL    *string `json:"metadata_url"`
	MetadataHash   *string `json:"metadata_hash"`
	ActiveStake    string  `json:"active_stake"`
	LiveStake      string  `json:"live_stake"`
	DelegatorCount int64   `json:"delegator_count"`
	BlocksMinted   int64   `json:"blocks_minted"`
	BlocksEpoch    int64   `json:"blocks_epoch"`
	Saturation     float64 `json:"saturation"`
	Status         string  `json:"status"`
	RetiringEpoch  *int64  `json:"retiring_epoch"`

	Hex            string   `json:"hex"`
	VRFKey         string   `json:"vrf_key"`
	DeclaredPledge string   `json:"declared_pledge"`
	MarginCost     float64  `json:"margin_cost"`
	LiveDelegators int64    `json:"live_delegators"`
	LiveSaturation float64  `json:"live_saturation"`
	LiveSize       float64  `json:"live_size"`
	ActiveSize     float64  `json:"active_size"`
	LivePledge     string   `json:"live_pledge"`
	Registration   []string `json:"registration"`
	Retirement     []string `json:"retirement"`
}

// sdkPoolMetadata is the SDK's PoolMetadata.
type sdkPoolMetadata struct {
	PoolID      *string `json:"pool_id"`
	Name        *string `json:"name"`
	Ticker      *string `json:"ticker"`
	Description *string `json:"description"`
	Homepage    *string `json:"homepage"`
	Extended    *string `json:"extended"`
}

// sdkPoolDelegators is the SDK's PoolDelegatorsResponse data.
type sdkPoolDelegators struct {
	PoolID         string `json:"pool_id"`
	DelegatorCount int64  `json:"delegator_count"`
	ActiveStake    string `json:"active_stake"`
}

// sdkPoolBlocks is the SDK's PoolBlocksResponse data.
type sdkPoolBlocks struct {
	PoolID       string `json:"pool_id"`
	BlocksMinted int64  `json:"blocks_minted"`
	BlocksEpoch  int64  `json:"blocks_epoch"`
	CurrentEpoch int64  `json:"current_epoch"`
}

// withoutLiveSize drops live_size from a pool answer's data.
func withoutLiveSize(t *testing.T, body []byte) []byte {
	t.Helper()
	var env map[string]json.RawMessage
	var data map[string]json.RawMessage
	if err := json.Unmarshal(body, &env); err != nil || json.Unmarshal(env["data"], &data) != nil {
		t.Fatalf("%s: %v", body, err)
	}
	delete(data, "live_size")
	env["data"], _ = json.Marshal(data)
	b, _ := json.Marshal(env)
	return b
}

func c2Pool(t *testing.T, h http.Handler, id string) sdkPool {
	t.Helper()
	code, r, body := c2Get(t, h, "/v1/pools/"+id)
	if code != http.StatusOK || !r.Success {
		t.Fatalf("GET pool %s: %d %s", id, code, body)
	}
	var p sdkPool
	decodeSDKInto(t, "pool "+id, r.Data, &p)
	return p
}

func c2Sub(t *testing.T, h http.Handler, id, sub string, v any) {
	t.Helper()
	code, r, body := c2Get(t, h, "/v1/pools/"+id+"/"+sub)
	if code != http.StatusOK || !r.Success {
		t.Fatalf("GET pool %s/%s: %d %s", id, sub, code, body)
	}
	decodeSDKInto(t, "pool "+id+"/"+sub, r.Data, v)
}

func bigOf(t *testing.T, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("%q is not an integer", s)
	}
	return v
}

func ratio(a, b *big.Int) float64 {
	if b.Sign() == 0 {
		return 0
	}
	f, _ := new(big.Rat).SetFrac(a, b).Float64()
	return f
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// c2PoolExtras checks the client SDK's pool routes and record superset
// against SQL written here, on both the stored and the on-demand server.
func c2PoolExtras(t *testing.T, s c2PoolServers) {
	c, m := s.chain, s.chain.manifest
	if m.Pools.WithMetadata.ID == "" || m.Pools.WithMetadata.MetadataName == "" {
		t.Fatal("the manifest names no pool with off-chain metadata")
	}
	unspent := `NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`
	if c.mode == chaingen.ModeConsumed {
		unspent = `o.consumed_by_tx_id IS NULL`
	}
	var epoch int64
	var activeTotal string
	if err := c.raw.QueryRow(`SELECT e, (SELECT COALESCE(sum(amount), 0)::text FROM epoch_stake WHERE epoch_no = e)
		FROM (SELECT max(epoch_no) AS e FROM block) x`).Scan(&epoch, &activeTotal); err != nil {
		t.Fatal(err)
	}
	// Every pool's stored live stake, summed: live_size's denominator.
	var allPools []string
	if err := c.raw.Select(&allPools, `SELECT ph.view FROM pool_hash ph WHERE EXISTS (SELECT 1 FROM pool_update pu WHERE pu.hash_id = ph.id)`); err != nil {
		t.Fatal(err)
	}
	networkLive := new(big.Int)
	for _, id := range allPools {
		networkLive.Add(networkLive, bigOf(t, c2Pool(t, s.stored, id).LiveStake))
	}
	sizes := 0.0
	for _, id := range allPools {
		sizes += c2Pool(t, s.stored, id).LiveSize
	}
	if math.Abs(sizes-1) > 1e-9 {
		t.Errorf("live_size of every pool sums to %v", sizes)
	}

	for label, ref := range c2PoolRefs(m) {
		for name, h := range map[string]http.Handler{"stored": s.stored, "on demand": s.onDemand} {
			what := label + " " + name
			p := c2Pool(t, h, ref.ID)
			// The SDK's names carry the spec's values.
			if p.Hex != p.PoolIDHex || p.VRFKey != p.VRFKeyHash || p.DeclaredPledge != p.Pledge || p.MarginCost != p.Margin ||
				p.LiveDelegators != p.DelegatorCount || p.LiveSaturation != p.Saturation {
				t.Errorf("%s: SDK names differ from the spec's: %+v", what, p)
			}
			if p.DelegatorCount != int64(ref.Delegators) {
				t.Errorf("%s: live_delegators %d, manifest %d", what, p.LiveDelegators, ref.Delegators)
			}
			// Certificates, oldest first (by slot, position in block, cert index).
			var regs, rets []string
			if err := c.raw.Select(&regs, `SELECT encode(t.hash, 'hex') FROM pool_update pu
				JOIN pool_hash ph ON ph.id = pu.hash_id JOIN tx t ON t.id = pu.registered_tx_id JOIN block b ON b.id = t.block_id
				WHERE ph.view = $1 ORDER BY b.slot_no, t.block_index, pu.cert_index`, ref.ID); err != nil {
				t.Fatal(err)
			}
			if err := c.raw.Select(&rets, `SELECT encode(t.hash, 'hex') FROM pool_retire pr
				JOIN pool_hash ph ON ph.id = pr.hash_id JOIN tx t ON t.id = pr.announced_tx_id JOIN block b ON b.id = t.block_id
				WHERE ph.view = $1 ORDER BY b.slot_no, t.block_index, pr.cert_index`, ref.ID); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Registration, regs) || !slices.Equal(p.Retirement, rets) || p.Registration == nil || p.Retirement == nil {
				t.Errorf("%s: registration %v retirement %v; SQL %v %v", what, p.Registration, p.Retirement, regs, rets)
			}
			if len(regs) == 0 || (ref.Status != "active" && len(rets) == 0) {
				t.Errorf("%s: %d registrations, %d retirements for a %s pool", what, len(regs), len(rets), ref.Status)
			}
			// live_pledge: the owners' unspent outputs + spendable rewards − withdrawals.
			var pledge string
			if err := c.raw.Get(&pledge, `WITH own AS (SELECT id FROM stake_address WHERE view = ANY($1)),
				cur AS (SELECT max(epoch_no) AS e FROM block)
				SELECT ((SELECT COALESCE(sum(o.value), 0) FROM tx_out o WHERE o.stake_address_id IN (SELECT id FROM own) AND `+unspent+`)
				 + (SELECT COALESCE(sum(amount), 0) FROM reward WHERE addr_id IN (SELECT id FROM own) AND spendable_epoch <= (SELECT e FROM cur))
				 + (SELECT COALESCE(sum(amount), 0) FROM reward_rest WHERE addr_id IN (SELECT id FROM own) AND spendable_epoch <= (SELECT e FROM cur))
				 - (SELECT COALESCE(sum(amount), 0) FROM withdrawal WHERE addr_id IN (SELECT id FROM own)))::text`,
				pq.Array(p.Owners)); err != nil {
				t.Fatal(err)
			}
			if p.LivePledge != pledge || len(p.Owners) == 0 {
				t.Errorf("%s: live_pledge %s, SQL %s (owners %v)", what, p.LivePledge, pledge, p.Owners)
			}
			// Shares of the active and live totals.
			if want := ratio(bigOf(t, p.ActiveStake), bigOf(t, activeTotal)); !near(p.ActiveSize, want) {
				t.Errorf("%s: active_size %v, want %v", what, p.ActiveSize, want)
			}
			liveTotal := networkLive
			if name == "on demand" {
				liveTotal = bigOf(t, activeTotal) // no refresh yet: DECISIONS.md
			}
			if want := ratio(bigOf(t, p.LiveStake), liveTotal); !near(p.LiveSize, want) {
				t.Errorf("%s: live_size %v, want %v", what, p.LiveSize, want)
			}

			// /delegators and /blocks: the record's figures, and SQL's.
			var d sdkPoolDelegators
			c2Sub(t, h, ref.ID, "delegators", &d)
			var active string
			if err := c.raw.Get(&active, `SELECT COALESCE(sum(es.amount), 0)::text FROM epoch_stake es
				JOIN pool_hash ph ON ph.id = es.pool_id WHERE ph.view = $1 AND es.epoch_no = $2`, ref.ID, epoch); err != nil {
				t.Fatal(err)
			}
			if d.PoolID != ref.ID || d.DelegatorCount != p.DelegatorCount || d.ActiveStake != p.ActiveStake || d.ActiveStake != active {
				t.Errorf("%s: delegators %+v; record %d %s, SQL active %s", what, d, p.DelegatorCount, p.ActiveStake, active)
			}
			var b sdkPoolBlocks
			c2Sub(t, h, ref.ID, "blocks", &b)
			var minted, inEpoch int64
			if err := c.raw.QueryRow(`SELECT count(*), count(*) FILTER (WHERE b.epoch_no = $2) FROM block b
				JOIN slot_leader sl ON sl.id = b.slot_leader_id JOIN pool_hash ph ON ph.id = sl.pool_hash_id
				WHERE ph.view = $1`, ref.ID, epoch).Scan(&minted, &inEpoch); err != nil {
				t.Fatal(err)
			}
			if b != (sdkPoolBlocks{PoolID: ref.ID, BlocksMinted: minted, BlocksEpoch: inEpoch, CurrentEpoch: epoch}) ||
				b.BlocksMinted != p.BlocksMinted || b.BlocksEpoch != p.BlocksEpoch {
				t.Errorf("%s: blocks %+v; SQL %d/%d epoch %d; record %d/%d", what, b, minted, inEpoch, epoch, p.BlocksMinted, p.BlocksEpoch)
			}

			// /metadata: off_chain_pool_data of the latest metadata ref.
			var md sdkPoolMetadata
			c2Sub(t, h, ref.ID, "metadata", &md)
			var want struct {
				Name, Ticker, Description, Homepage, Extended *string
			}
			if err := c.raw.QueryRow(`SELECT d.json->>'name', d.ticker_name, d.json->>'description', d.json->>'homepage', d.json->>'extended'
				FROM (SELECT pmr.id FROM pool_metadata_ref pmr JOIN pool_hash ph ON ph.id = pmr.pool_id
				      WHERE ph.view = $1 ORDER BY pmr.registered_tx_id DESC, pmr.id DESC LIMIT 1) latest
				LEFT JOIN off_chain_pool_data d ON d.pmr_id = latest.id`, ref.ID).Scan(
				&want.Name, &want.Ticker, &want.Description, &want.Homepage, &want.Extended); err != nil {
				t.Fatal(err)
			}
			got := []*string{md.Name, md.Ticker, md.Description, md.Homepage, md.Extended}
			exp := []*string{want.Name, want.Ticker, want.Description, want.Homepage, want.Extended}
			for i := range got {
				if (got[i] == nil) != (exp[i] == nil) || got[i] != nil && *got[i] != *exp[i] {
					t.Errorf("%s: metadata field %d = %v, SQL %v", what, i, strp(got[i]), strp(exp[i]))
				}
			}
			if md.PoolID == nil || *md.PoolID != ref.ID {
				t.Errorf("%s: metadata pool_id %v", what, strp(md.PoolID))
			}
		}
	}

	// The manifest's pool with metadata shows its latest registration's
	// document; pools without fetched metadata answer all nulls.
	var md sdkPoolMetadata
	c2Sub(t, s.stored, m.Pools.WithMetadata.ID, "metadata", &md)
	if strp(md.Name) != m.Pools.WithMetadata.MetadataName || strp(md.Ticker) != m.Pools.WithMetadata.MetadataTicker ||
		md.Description == nil || md.Homepage == nil {
		t.Errorf("with_metadata: %s / %s, manifest %s / %s", strp(md.Name), strp(md.Ticker),
			m.Pools.WithMetadata.MetadataName, m.Pools.WithMetadata.MetadataTicker)
	}
	for _, ref := range []chaingen.PoolRef{m.Pools.Small, m.Pools.Ordinary} {
		_, _, body := c2Get(t, s.stored, "/v1/pools/"+ref.ID+"/metadata")
		want := `{"success":true,"data":{"pool_id":"` + ref.ID + `","name":null,"ticker":null,"description":null,"homepage":null,"extended":null}}`
		if strings.TrimSpace(string(body)) != want {
			t.Errorf("%s without metadata: %s", ref.ID, body)
		}
	}
}

func strp(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
