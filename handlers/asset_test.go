package handlers

import (
	"context"
	"encoding/json"
	"github.com/syncgate/syncgate/internal/cardano"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/registry"
)

// chain2Key is the data API key the asset and pool tests use; chain2Creds
// maps it to a mainnet caller (a stand-in for the admin store).
const chain2Key = "sgk1_" + "c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2"

type chain2Creds struct{}

// chain2Log keeps the access log of thousands of test requests quiet.
var chain2Log = slog.New(slog.NewTextHandler(io.Discard, nil))

func (chain2Creds) Authenticate(_ context.Context, key string) (auth.Caller, error) {
	if key == chain2Key {
		return auth.Caller{NetworkID: 0, RateLimitPerMinute: 10_000}, nil
	}
	return auth.Caller{}, auth.ErrInvalidKey
}

// chain2Chain is one seeded db-sync database and its raw connection.
type chain2Chain struct {
	mode     chaingen.Mode
	dsn      string
	db       *dbsync.DB
	raw      *sqlx.DB
	manifest *chaingen.Manifest
}

// sharedChain2 is the package's seeded chain in mode (seededChains: the
// same seed and size as seedChain2's), for a test that only reads it.
func sharedChain2(t *testing.T, mode chaingen.Mode) *chain2Chain {
	t.Helper()
	for _, c := range seededChains(t) {
		if c.mode == mode {
			return &chain2Chain{mode: c.mode, dsn: c.dsn, db: c.db, raw: c.raw, manifest: c.manifest}
		}
	}
	t.Fatalf("no shared %s chain", mode)
	return nil
}

// seedChain2 seeds a chain of the test's own, for a test that writes to it.
func seedChain2(t *testing.T, mode chaingen.Mode) *chain2Chain {
	t.Helper()
	requireServices(t)
	dsn, m, drop, err := testdb.DBSync(mode, 4000)
	if err != nil {
		t.Fatalf("seed %s: %v", mode, err)
	}
	t.Cleanup(drop)
	db := testdb.MustOpenDBSync(t, dsn)
	return &chain2Chain{mode: mode, dsn: dsn, db: db, raw: testdb.Open(t, dsn), manifest: m}
}

// chain2Response is a whole response httpx.Envelope.
type chain2Response struct {
	Success    bool            `json:"success"`
	Error      string          `json:"error"`
	Data       json.RawMessage `json:"data"`
	Pagination *struct {
		Limit   int   `json:"limit"`
		Offset  int   `json:"offset"`
		Total   int64 `json:"total"`
		HasMore *bool `json:"hasMore"`
	} `json:"pagination"`
}

// c2Get sends an authenticated GET and decodes the httpx.Envelope.
func c2Get(t *testing.T, h http.Handler, path string) (int, chain2Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer "+chain2Key)
	w := httptest.NewRecorder()
	serveChecked(t, h, w, req)
	var r chain2Response
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatalf("GET %s: body is not JSON: %q", path, w.Body.String())
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json;charset=utf-8" {
		t.Errorf("GET %s: Content-Type %q", path, ct)
	}
	return w.Code, r, w.Body.Bytes()
}

// c2WantError checks an error response: status and exact message.
func c2WantError(t *testing.T, h http.Handler, path string, status int, msg string) {
	t.Helper()
	code, r, body := c2Get(t, h, path)
	if code != status || r.Success || r.Error != msg || r.Data != nil {
		t.Errorf("GET %s: %d %s, want %d %q", path, code, body, status, msg)
	}
}

// c2AssetBody is AssetInfo with metadata kept raw, so absent and null differ.
type c2AssetBody struct {
	PolicyID       string                     `json:"policy_id"`
	AssetName      string                     `json:"asset_name"`
	AssetNameASCII *string                    `json:"asset_name_ascii"`
	Fingerprint    string                     `json:"fingerprint"`
	TotalSupply    json.RawMessage            `json:"total_supply"`
	MintCount      json.RawMessage            `json:"mint_count"`
	BurnCount      json.RawMessage            `json:"burn_count"`
	FirstMintTx    string                     `json:"first_mint_tx"`
	FirstMintSlot  json.RawMessage            `json:"first_mint_slot"`
	FirstMintTime  string                     `json:"first_mint_time"`
	Metadata       map[string]json.RawMessage `json:"metadata"`
	MetadataSource *string                    `json:"metadata_source"`
}

func c2GetAsset(t *testing.T, h http.Handler, unit, src string) c2AssetBody {
	t.Helper()
	path := "/v1/assets/" + unit
	if src != "" {
		path += "?metadata_source=" + src
	}
	code, r, body := c2Get(t, h, path)
	if code != http.StatusOK || !r.Success {
		t.Fatalf("GET %s: %d %s", path, code, body)
	}
	var a c2AssetBody
	if err := json.Unmarshal(r.Data, &a); err != nil {
		t.Fatal(err)
	}
	// Every field of the Asset object (OpenAPI) is present with its type.
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(r.Data, &fields)
	for _, f := range []string{"policy_id", "asset_name", "asset_name_ascii", "fingerprint", "total_supply", "mint_count",
		"burn_count", "first_mint_tx", "first_mint_slot", "first_mint_time", "metadata", "metadata_source"} {
		if _, ok := fields[f]; !ok {
			t.Errorf("GET %s: field %s missing", path, f)
		}
	}
	if len(a.TotalSupply) == 0 || a.TotalSupply[0] != '"' || a.MintCount[0] == '"' || a.FirstMintSlot[0] == '"' ||
		!strings.HasSuffix(a.FirstMintTime, "Z") || !strings.HasPrefix(a.Fingerprint, "asset1") {
		t.Errorf("GET %s: field types wrong: %s", path, r.Data)
	}
	if _, err := time.Parse(time.RFC3339, a.FirstMintTime); err != nil {
		t.Errorf("first_mint_time %q: %v", a.FirstMintTime, err)
	}
	return a
}

func (a c2AssetBody) source() string {
	if a.MetadataSource == nil {
		return "null"
	}
	return *a.MetadataSource
}

func (a c2AssetBody) field(name string) string {
	v, ok := a.Metadata[name]
	if !ok {
		return "<absent>"
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

// c2RegistryFixture writes mapping files (HOSKY verbatim, USDM and the
// CIP-25 v1 SpaceBud built from registry.json entries) into a directory
// and serves the same set over HTTP, counting calls per subject.
type c2RegistryFixture struct {
	dir   string
	srv   *httptest.Server
	mu    sync.Mutex
	calls map[string]int
}

const (
	c2HoskySubject = "a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235484f534b59"
	c2USDMSubject  = "c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad0014df105553444d"
)

func newC2RegistryFixture(t *testing.T, spaceBudSubject string) *c2RegistryFixture {
	t.Helper()
	b, err := os.ReadFile("../internal/service/registry/testdata/registry.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Format struct {
			Full struct {
				JSON json.RawMessage `json:"json"`
			} `json:"full_example_verbatim"`
		} `json:"mapping_file_format"`
		Entries []struct {
			Subject     string `json:"subject"`
			Name        string `json:"name"`
			Description string `json:"description"`
			Ticker      string `json:"ticker"`
			URL         string `json:"url"`
			Decimals    *int   `json:"decimals"`
		} `json:"entries"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{c2HoskySubject: v.Format.Full.JSON}
	prop := func(val any) map[string]any {
		return map[string]any{"sequenceNumber": 0, "value": val, "signatures": []any{}}
	}
	for _, e := range v.Entries {
		if e.Subject == c2USDMSubject {
			m := map[string]any{"subject": e.Subject, "name": prop(e.Name), "description": prop(e.Description),
				"ticker": prop(e.Ticker), "url": prop(e.URL), "decimals": prop(*e.Decimals)}
			files[e.Subject], _ = json.Marshal(m)
		}
	}
	if _, ok := files[c2USDMSubject]; !ok {
		t.Fatal("USDM entry missing from registry.json")
	}
	files[spaceBudSubject], _ = json.Marshal(map[string]any{"subject": spaceBudSubject, "name": prop("SpaceBud (registry)"),
		"description": prop("registered too")})

	f := &c2RegistryFixture{dir: t.TempDir(), calls: map[string]int{}}
	for subject, body := range files {
		if err := os.WriteFile(filepath.Join(f.dir, subject+".json"), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		subject := strings.TrimPrefix(r.URL.Path, "/metadata/")
		f.mu.Lock()
		f.calls[subject]++
		f.mu.Unlock()
		body, ok := files[subject]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *c2RegistryFixture) count(subject string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[subject]
}

func newChain2Server(t *testing.T, c *chain2Chain, reg *registry.Registry, withRedis bool) http.Handler {
	t.Helper()
	deps := Deps{Networks: map[string]*dbsync.DB{"mainnet": c.db}, Credentials: chain2Creds{}, Log: chain2Log, Registry: reg}
	if withRedis {
		deps.Redis = testRedis(t)
	}
	return New(deps).Handler()
}

func TestAssetInfo(t *testing.T) {
	t.Parallel() // reads the shared chains, changes nothing shared
	core, consumed := sharedChain2(t, chaingen.ModeCore), sharedChain2(t, chaingen.ModeConsumed)
	m := core.manifest
	spaceBud := strings.Replace(m.Assets.CIP25V1.Unit, ".", "", 1)
	rf := newC2RegistryFixture(t, spaceBud)
	dirReg, err := registry.New(registry.Options{Dir: rf.dir, Redis: testRedis(t)})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("errors", func(t *testing.T) {
		h := newChain2Server(t, core, dirReg, true)
		policy := strings.Split(m.Assets.Hosky.Unit, ".")[0]
		for _, bad := range []string{
			policy,                                         // no dot
			policy + "484f534b59",                          // unit form
			policy[:54] + ".484f534b59",                    // short policy
			policy + "00.484f534b59",                       // long policy
			"zz" + policy[2:] + ".484f534b59",              // non-hex policy
			policy + ".484f534b5",                          // odd name
			policy + ".zz",                                 // non-hex name
			policy + "." + strings.Repeat("00", 33),        // name over 32 bytes
			policy + ".48.4f",                              // two dots
			".484f534b59",                                  // no policy
			"asset17q7r59zlc3dgw0venc80pdv566q6yguw03f0d9", // a fingerprint
		} {
			c2WantError(t, h, "/v1/assets/"+bad, 400,
				"Invalid asset identifier format. Expected: {policy_id}.{asset_name} where policy_id is 56 hex characters")
		}
		for _, src := range []string{"foo", "CIP68", "", "auto,cip25", "registry%20"} {
			c2WantError(t, h, "/v1/assets/"+m.Assets.Hosky.Unit+"?metadata_source="+src, 400,
				"Invalid metadata_source: must be one of auto, cip68, cip25, registry")
		}
		// The identifier is checked before the source.
		c2WantError(t, h, "/v1/assets/nope?metadata_source=foo", 400,
			"Invalid asset identifier format. Expected: {policy_id}.{asset_name} where policy_id is 56 hex characters")
		for _, unknown := range []string{policy + ".00", strings.Repeat("ab", 28) + ".", strings.Repeat("AB", 28) + ".4142"} {
			c2WantError(t, h, "/v1/assets/"+unknown, 404, "Asset not found")
		}
	})

	for _, c := range []*chain2Chain{core, consumed} {
		t.Run(string(c.mode), func(t *testing.T) {
			h := newChain2Server(t, c, dirReg, true)
			c2AssetResponses(t, h, c.manifest)
		})
	}

	t.Run("modes agree", func(t *testing.T) {
		hc, hx := newChain2Server(t, core, dirReg, false), newChain2Server(t, consumed, dirReg, false)
		units := []string{m.Assets.CIP68.UserUnit, m.Assets.CIP25V1.Unit, m.Assets.CIP25V2.Unit, m.Assets.CIP25V2Empty.Unit,
			m.Assets.Hosky.Unit, m.Assets.BigQuantity.Unit, m.Assets.MintBurn.Unit}
		for _, u := range units {
			for _, src := range []string{"auto", "cip68", "cip25", "registry"} {
				_, _, a := c2Get(t, hc, "/v1/assets/"+u+"?metadata_source="+src)
				_, _, b := c2Get(t, hx, "/v1/assets/"+u+"?metadata_source="+src)
				if string(a) != string(b) {
					t.Errorf("%s %s:\ncore     %s\nconsumed %s", u, src, a, b)
				}
			}
		}
	})

	t.Run("registry by URL, cached once", func(t *testing.T) {
		rc := testRedis(t)
		urlReg, _ := registry.New(registry.Options{URL: rf.srv.URL, Redis: rc})
		// Two instances sharing Redis, asking in every way that reaches the registry.
		servers := []http.Handler{
			New(Deps{Networks: map[string]*dbsync.DB{"mainnet": core.db}, Credentials: chain2Creds{}, Log: chain2Log, Registry: urlReg, Redis: rc}).Handler(),
			New(Deps{Networks: map[string]*dbsync.DB{"mainnet": core.db}, Credentials: chain2Creds{}, Log: chain2Log, Registry: urlReg}).Handler(),
		}
		for i := range 6 {
			for _, src := range []string{"", "auto", "registry"} {
				a := c2GetAsset(t, servers[i%2], m.Assets.Hosky.Unit, src)
				if a.source() != "registry" || a.field("name") != "HOSKY Token" {
					t.Fatalf("hosky via URL: %s %v", a.source(), a.Metadata)
				}
			}
			a := c2GetAsset(t, servers[i%2], m.Assets.MintBurn.Unit, "")
			if a.Metadata != nil {
				t.Fatalf("unregistered asset got metadata %v", a.Metadata)
			}
		}
		mintBurn := strings.Replace(m.Assets.MintBurn.Unit, ".", "", 1)
		if n := rf.count(c2HoskySubject); n != 1 {
			t.Errorf("registry asked %d times for HOSKY, want 1", n)
		}
		if n := rf.count(mintBurn); n != 1 {
			t.Errorf("registry asked %d times for an unregistered asset, want 1", n)
		}
	})

	t.Run("registry down", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		down, _ := registry.New(registry.Options{URL: "http://" + addr, Timeout: 200 * time.Millisecond})
		rc := testRedis(t)
		h := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": core.db}, Credentials: chain2Creds{}, Log: chain2Log, Registry: down, Redis: rc}).Handler()
		for _, src := range []string{"auto", "registry"} {
			a := c2GetAsset(t, h, m.Assets.Hosky.Unit, src)
			if a.Metadata != nil || a.MetadataSource != nil {
				t.Errorf("registry down, %s: %v %v", src, a.Metadata, a.MetadataSource)
			}
			// Such an answer is kept only briefly: the registry may be back soon.
			key := rc.Key("asset", "mainnet", m.Tip.BlockHash, m.Assets.Hosky.Unit, src)
			if ttl, err := rc.Redis().TTL(t.Context(), key).Result(); err != nil || ttl <= 0 || ttl > answer.AssetDegradedTTL {
				t.Errorf("registry down, %s: cached for %v (%v), want at most %v", src, ttl, err, answer.AssetDegradedTTL)
			}
		}
		// On-chain sources still answer.
		if a := c2GetAsset(t, h, m.Assets.CIP68.UserUnit, ""); a.source() != "cip68" {
			t.Errorf("cip68 with the registry down: %s", a.source())
		}
	})

	t.Run("cache follows the tip", func(t *testing.T) {
		c := seedChain2(t, chaingen.ModeCore)
		rc := testRedis(t)
		h := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": c.db}, Credentials: chain2Creds{}, Log: chain2Log, Registry: dirReg, Redis: rc}).Handler()
		unit := c.manifest.Assets.MintBurn.Unit
		before := c2GetAsset(t, h, unit, "")
		key := rc.Key("asset", "mainnet", c.manifest.Tip.BlockHash, unit, "auto")
		if ttl, _ := rc.Redis().TTL(t.Context(), key).Result(); ttl <= answer.AssetDegradedTTL {
			t.Fatalf("answer not cached under %s for the full TTL (%v)", key, ttl)
		}
		// A cached answer (the whole httpx.Envelope) is served as stored: plant a marker.
		marker := `{"success":true,"data":` + strings.Replace(string(c2MustJSON(t, before)), `"mint_count":2`, `"mint_count":99`, 1) + "}\n"
		if err := rc.Redis().Set(t.Context(), key, marker, time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		// (by another instance: each serves the answers it holds first)
		other := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": c.db}, Credentials: chain2Creds{}, Log: chain2Log, Registry: dirReg, Redis: rc}).Handler()
		if got := c2GetAsset(t, other, unit, ""); string(got.MintCount) != "99" {
			t.Fatalf("cached answer not used: mint_count %s", got.MintCount)
		}
		// A new block minting 5 more: the next answer is fresh.
		c2MintInNewBlock(t, c, unit, 5)
		c.db.ForgetTips()
		after := c2GetAsset(t, h, unit, "")
		if string(after.MintCount) != "3" || string(after.TotalSupply) != `"1200000005"` {
			t.Errorf("after a new mint: mint_count %s, total_supply %s", after.MintCount, after.TotalSupply)
		}
	})
}

func c2MustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// c2MintInNewBlock appends a block at the tip holding one transaction that
// mints qty of unit, as db-sync would record it.
func c2MintInNewBlock(t *testing.T, c *chain2Chain, unit string, qty int) {
	t.Helper()
	id, _ := cardano.ParseAssetID(unit)
	_, err := c.raw.Exec(`
		WITH last AS (SELECT * FROM block ORDER BY id DESC LIMIT 1),
		nb AS (
		  INSERT INTO block (id, hash, epoch_no, slot_no, epoch_slot_no, block_no, previous_id, slot_leader_id, size, time,
		                     tx_count, proto_major, proto_minor, vrf_key, op_cert, op_cert_counter)
		  SELECT id + 1, sha256(hash), epoch_no, slot_no + 20, epoch_slot_no + 20, block_no + 1, id, slot_leader_id, 1000,
		         time + interval '20 seconds', 1, proto_major, proto_minor, vrf_key, op_cert, op_cert_counter
		  FROM last RETURNING id, hash),
		ntx AS (
		  INSERT INTO tx (id, hash, block_id, block_index, out_sum, fee, deposit, size, valid_contract, script_size, treasury_donation)
		  SELECT (SELECT max(id) + 1 FROM tx), sha256(nb.hash), nb.id, 0, 0, 200000, 0, 300, true, 0, 0 FROM nb RETURNING id)
		INSERT INTO ma_tx_mint (id, quantity, tx_id, ident)
		SELECT (SELECT max(id) + 1 FROM ma_tx_mint), $3, ntx.id, (SELECT id FROM multi_asset WHERE policy = $1 AND name = $2)
		FROM ntx`, id.Policy[:], id.Name, qty)
	if err != nil {
		t.Fatal(err)
	}
}

func c2AssetResponses(t *testing.T, h http.Handler, m *chaingen.Manifest) {
	// CIP-68: every token shows its reference datum's metadata.
	for _, ref := range m.Assets.CIP68All {
		a := c2GetAsset(t, h, ref.UserUnit, "")
		if a.source() != "cip68" || a.field("name") == "<absent>" || a.field("decimals") == "<absent>" || a.AssetNameASCII != nil {
			t.Errorf("%s: %s %v ascii %v", ref.Datum, a.source(), a.Metadata, a.AssetNameASCII)
		}
		if a.field("logo") != "<absent>" {
			t.Errorf("%s: logo from cip68", ref.Datum)
		}
		for _, src := range []string{"cip68"} {
			if b := c2GetAsset(t, h, ref.UserUnit, src); !reflect.DeepEqual(a, b) {
				t.Errorf("%s: forced %s differs from auto", ref.Datum, src)
			}
		}
	}
	upd := c2GetAsset(t, h, m.Assets.CIP68.UserUnit, "")
	if upd.field("name") != "Blockfrost NFT v2 testing token" || upd.field("image") != "ipfs://QmUCXMTcvuJpwHF3gABRr69ceQR2uEG2Fsik9CyWh8MUoQ" ||
		upd.field("decimals") != "0" {
		t.Errorf("updated CIP-68 token: %v", upd.Metadata)
	}

	// auto order: CIP-68 before the registry (USDM is in both; urls differ).
	usdm := ""
	for _, ref := range m.Assets.CIP68All {
		if strings.Replace(ref.UserUnit, ".", "", 1) == c2USDMSubject {
			usdm = ref.UserUnit
		}
	}
	if usdm == "" {
		t.Fatal("USDM not on the seeded chain")
	}
	if a := c2GetAsset(t, h, usdm, "auto"); a.source() != "cip68" || a.field("url") != "https://mehen.io/" || a.field("decimals") != "6" {
		t.Errorf("USDM auto: %s %v", a.source(), a.Metadata)
	}
	if a := c2GetAsset(t, h, usdm, "registry"); a.source() != "registry" || a.field("url") != "https://moneta.global/" ||
		a.field("ticker") != "USDM" || a.field("decimals") != "6" {
		t.Errorf("USDM registry: %s %v", a.source(), a.Metadata)
	}
	if a := c2GetAsset(t, h, usdm, "cip25"); a.Metadata != nil || a.MetadataSource != nil {
		t.Errorf("USDM cip25: %s %v", a.source(), a.Metadata)
	}

	// CIP-25 before the registry (SpaceBud is in both).
	v1 := c2GetAsset(t, h, m.Assets.CIP25V1.Unit, "")
	if v1.source() != "cip25" || v1.field("name") != "SpaceBud #3412" || v1.field("decimals") != "<absent>" ||
		v1.AssetNameASCII == nil || *v1.AssetNameASCII != "SpaceBud3412" {
		t.Errorf("cip25 v1: %s %v %v", v1.source(), v1.Metadata, v1.AssetNameASCII)
	}
	if string(v1.MintCount) != "2" || string(v1.BurnCount) != "1" || string(v1.TotalSupply) != `"1"` {
		t.Errorf("cip25 v1 counts: %s %s %s", v1.MintCount, v1.BurnCount, v1.TotalSupply)
	}
	if a := c2GetAsset(t, h, m.Assets.CIP25V1.Unit, "registry"); a.source() != "registry" || a.field("name") != "SpaceBud (registry)" ||
		a.field("decimals") != "0" {
		t.Errorf("cip25 v1 registry: %s %v", a.source(), a.Metadata)
	}
	if a := c2GetAsset(t, h, m.Assets.CIP25V1.Unit, "cip68"); a.Metadata != nil || a.MetadataSource != nil {
		t.Errorf("cip25 v1 forced cip68: %v", a.Metadata)
	}
	if a := c2GetAsset(t, h, m.Assets.CIP25V2.Unit, "cip25"); a.field("name") != "Optim EQT" || a.AssetNameASCII != nil {
		t.Errorf("cip25 v2: %v %v", a.Metadata, a.AssetNameASCII)
	}
	empty := c2GetAsset(t, h, m.Assets.CIP25V2Empty.Unit, "")
	if empty.AssetName != "" || empty.AssetNameASCII == nil || *empty.AssetNameASCII != "" || empty.source() != "cip25" ||
		empty.field("name") != "" || empty.Fingerprint != m.Assets.CIP25V2Empty.Fingerprint {
		t.Errorf("empty-name asset: %+v", empty)
	}

	// Registry only: HOSKY.
	hosky := c2GetAsset(t, h, m.Assets.Hosky.Unit, "")
	if hosky.source() != "registry" || hosky.field("name") != "HOSKY Token" || hosky.field("ticker") != "HOSKY" ||
		hosky.field("decimals") != "0" || !strings.HasPrefix(hosky.field("logo"), "iVBORw0KGgo") || hosky.field("url") != "https://hosky.io" {
		t.Errorf("hosky: %s %.200v", hosky.source(), hosky.Metadata)
	}
	for _, src := range []string{"cip68", "cip25"} {
		if a := c2GetAsset(t, h, m.Assets.Hosky.Unit, src); a.Metadata != nil || a.MetadataSource != nil {
			t.Errorf("hosky forced %s: %v", src, a.Metadata)
		}
	}
	if string(hosky.TotalSupply) != `"`+m.Assets.Hosky.Supply+`"` || hosky.Fingerprint != m.Assets.Hosky.Fingerprint {
		t.Errorf("hosky supply %s fingerprint %s", hosky.TotalSupply, hosky.Fingerprint)
	}

	// Exact big supply, mints and burns.
	if a := c2GetAsset(t, h, m.Assets.BigQuantity.Unit, ""); string(a.TotalSupply) != `"18446744073709551615"` {
		t.Errorf("big quantity: %s", a.TotalSupply)
	}
	mb := c2GetAsset(t, h, m.Assets.MintBurn.Unit, "")
	if string(mb.TotalSupply) != `"`+m.Assets.MintBurn.Supply+`"` || string(mb.MintCount) != "2" || string(mb.BurnCount) != "2" ||
		mb.Metadata != nil || mb.MetadataSource != nil {
		t.Errorf("mint/burn asset: %+v", mb)
	}
	// Upper-case input is answered in canonical lower case.
	if a := c2GetAsset(t, h, strings.ToUpper(m.Assets.MintBurn.Unit), ""); a.PolicyID+"."+a.AssetName != m.Assets.MintBurn.Unit {
		t.Errorf("upper case: %s.%s", a.PolicyID, a.AssetName)
	}
}
