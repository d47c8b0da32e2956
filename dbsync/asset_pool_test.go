package dbsync_test

import (
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/sql"
)

// c2SeedTxs is the size of the chain the asset and pool tests seed: big
// enough for every manifest entity, small enough to seed in about a second.
const c2SeedTxs = 4000

// c2Chain is one seeded db-sync database (core or consumed mode, same seed).
type c2Chain struct {
	mode     chaingen.Mode
	db       *dbsync.DB
	raw      *sqlx.DB
	manifest *chaingen.Manifest
}

// seedC2Chains seeds the chain in both modes for one top-level test and
// drops the databases when it ends.
func seedC2Chains(t *testing.T) []*c2Chain {
	t.Helper()
	var out []*c2Chain
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		dsn, m, drop, err := testdb.DBSync(mode, c2SeedTxs)
		if err != nil {
			t.Fatalf("seed %s: %v", mode, err)
		}
		t.Cleanup(drop)
		db, err := testdb.OpenDBSync(dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(db.Close)
		if capsOf(db).UTxOMode != dbsync.UTxOMode(mode) {
			t.Fatalf("%s database detected as %s", mode, capsOf(db).UTxOMode)
		}
		out = append(out, &c2Chain{mode: mode, db: db, raw: testdb.Open(t, dsn), manifest: m})
	}
	return out
}

func c2Asset(t *testing.T, unit string) cardano.AssetID {
	t.Helper()
	id, err := cardano.ParseAssetID(unit)
	if err != nil {
		t.Fatalf("manifest asset %q: %v", unit, err)
	}
	return id
}

func c2Pool(t *testing.T, s string) cardano.PoolID {
	t.Helper()
	id, err := cardano.ParsePoolID(s)
	if err != nil {
		t.Fatalf("manifest pool %q: %v", s, err)
	}
	return id
}

// TestAssetsAndPools checks the asset and pool queries against the seeded
// chain (both modes): supply and counts against direct SQL sums, metadata
// against the vectors the generator put on chain, pool status and
// delegators against the manifest, live stake against an independent
// per-address computation, and identical answers in both modes.
func TestAssetsAndPools(t *testing.T) {
	t.Parallel() // writes only to chains of its own
	needChains(t)
	chains := seedC2Chains(t)
	for _, c := range chains {
		t.Run(string(c.mode), func(t *testing.T) {
			t.Run("supply", func(t *testing.T) { c2AssetSupply(t, c) })
			t.Run("cip68", func(t *testing.T) { c2AssetCIP68(t, c) })
			t.Run("cip25", func(t *testing.T) { c2AssetCIP25(t, c) })
			t.Run("pool status", func(t *testing.T) { c2PoolStatus(t, c) })
			t.Run("pool delegators", func(t *testing.T) { c2PoolDelegators(t, c) })
			t.Run("pool on demand", func(t *testing.T) { c2PoolOnDemand(t, c) })
			t.Run("explain", func(t *testing.T) { c2Explain(t, c) })
		})
	}
	t.Run("modes agree", func(t *testing.T) { c2ModesAgree(t, chains[0], chains[1]) })
	// Last: it edits the core chain.
	t.Run("cip68 datum by hash", func(t *testing.T) { c2CIP68DatumByHash(t, chains[0]) })
}

// testCIP68DatumByHash: an output that carries only the datum hash (no
// inline datum) is resolved through datum.hash; an unknown hash gives no
// CIP-68 metadata (and auto falls through to the other sources).
func c2CIP68DatumByHash(t *testing.T, c *c2Chain) {
	ctx := t.Context()
	ref := c.manifest.Assets.CIP68
	user := c2Asset(t, ref.UserUnit)
	refID := c2Asset(t, ref.ReferenceUnit)
	before, err := c.db.AssetInfo(ctx, user, dbsync.SourceCIP68)
	if err != nil || before.Metadata == nil {
		t.Fatalf("before: %v %v", err, before.Metadata)
	}
	unspent := `NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`
	if c.mode == chaingen.ModeConsumed {
		unspent = `o.consumed_by_tx_id IS NULL`
	}
	var outID int64
	if err := c.raw.Get(&outID, `SELECT o.id FROM tx_out o JOIN ma_tx_out mto ON mto.tx_out_id = o.id
		JOIN multi_asset a ON a.id = mto.ident WHERE a.policy = $1 AND a.name = $2 AND `+unspent+`
		ORDER BY o.id DESC LIMIT 1`, refID.Policy[:], refID.Name); err != nil {
		t.Fatal(err)
	}
	res, err := c.raw.Exec(`UPDATE tx_out SET inline_datum_id = NULL WHERE id = $1 AND data_hash IS NOT NULL`, outID)
	if n, _ := res.RowsAffected(); err != nil || n != 1 {
		t.Fatalf("reference output %d has no datum hash: %v", outID, err)
	}
	after, err := c.db.AssetInfo(ctx, user, dbsync.SourceCIP68)
	if err != nil || !reflect.DeepEqual(after.Metadata, before.Metadata) {
		t.Errorf("datum by hash: %v %s, want %s", err, c2JS(after.Metadata), c2JS(before.Metadata))
	}
	if _, err := c.raw.Exec(`UPDATE tx_out SET data_hash = sha256(data_hash) WHERE id = $1`, outID); err != nil {
		t.Fatal(err)
	}
	for _, src := range []dbsync.MetadataSource{dbsync.SourceCIP68, dbsync.SourceAuto} {
		gone, err := c.db.AssetInfo(ctx, user, src)
		if err != nil || gone.Metadata != nil || gone.MetadataSource != "" {
			t.Errorf("unknown datum hash, %s: %v %s", src, err, c2JS(gone.Metadata))
		}
	}
}

// c2ManifestAssets is every asset the manifest names.
func c2ManifestAssets(m *chaingen.Manifest) map[string]chaingen.AssetRef {
	a := m.Assets
	out := map[string]chaingen.AssetRef{
		"cip25_v1": a.CIP25V1, "cip25_v2": a.CIP25V2, "cip25_v2_empty_name": a.CIP25V2Empty,
		"cip25_chunked_image": a.CIP25Chunked, "hosky": a.Hosky, "big_quantity": a.BigQuantity, "mint_burn": a.MintBurn,
	}
	for _, c := range a.CIP68All {
		out["cip68 "+c.Label+" "+c.Datum] = chaingen.AssetRef{Unit: c.UserUnit}
	}
	return out
}

type c2SupplyRow struct {
	Supply        string    `db:"supply"`
	Mints         int64     `db:"mints"`
	Burns         int64     `db:"burns"`
	FirstMintTx   string    `db:"first_mint_tx"`
	FirstMintSlot int64     `db:"first_mint_slot"`
	FirstMintTime time.Time `db:"first_mint_time"`
}

// c2DirectSupply is the test's own SQL for supply, counts and first mint.
func c2DirectSupply(t *testing.T, raw *sqlx.DB, id cardano.AssetID) c2SupplyRow {
	t.Helper()
	var r c2SupplyRow
	err := raw.Get(&r, `
		SELECT sum(m.quantity)::text AS supply,
		       count(*) FILTER (WHERE m.quantity > 0) AS mints,
		       count(*) FILTER (WHERE m.quantity < 0) AS burns,
		       (SELECT encode(t.hash, 'hex') FROM ma_tx_mint m2 JOIN tx t ON t.id = m2.tx_id
		        WHERE m2.ident = a.id AND m2.quantity > 0 ORDER BY m2.tx_id LIMIT 1) AS first_mint_tx,
		       (SELECT b.slot_no FROM ma_tx_mint m2 JOIN tx t ON t.id = m2.tx_id JOIN block b ON b.id = t.block_id
		        WHERE m2.ident = a.id AND m2.quantity > 0 ORDER BY m2.tx_id LIMIT 1) AS first_mint_slot,
		       (SELECT b.time FROM ma_tx_mint m2 JOIN tx t ON t.id = m2.tx_id JOIN block b ON b.id = t.block_id
		        WHERE m2.ident = a.id AND m2.quantity > 0 ORDER BY m2.tx_id LIMIT 1) AS first_mint_time
		FROM multi_asset a JOIN ma_tx_mint m ON m.ident = a.id
		WHERE a.policy = $1 AND a.name = $2
		GROUP BY a.id`, id.Policy[:], id.Name)
	if err != nil {
		t.Fatalf("direct supply of %s: %v", id, err)
	}
	r.FirstMintTime = dbsync.AsUTC(r.FirstMintTime)
	return r
}

func c2AssetSupply(t *testing.T, c *c2Chain) {
	ctx := t.Context()
	checked := 0
	for label, ref := range c2ManifestAssets(c.manifest) {
		id := c2Asset(t, ref.Unit)
		a, err := c.db.AssetInfo(ctx, id, dbsync.SourceAuto)
		if err != nil {
			t.Fatalf("%s %s: %v", label, ref.Unit, err)
		}
		d := c2DirectSupply(t, c.raw, id)
		if a.TotalSupply.String() != d.Supply || a.MintCount != d.Mints || a.BurnCount != d.Burns ||
			a.FirstMintTx != d.FirstMintTx || a.FirstMintSlot != d.FirstMintSlot || !a.FirstMintTime.Equal(d.FirstMintTime) {
			t.Errorf("%s: got %s/%d/%d/%s/%d/%s, direct SQL %+v", label, a.TotalSupply, a.MintCount, a.BurnCount,
				a.FirstMintTx, a.FirstMintSlot, a.FirstMintTime, d)
		}
		if a.FirstMintTime.Location() != time.UTC {
			t.Errorf("%s: first mint time not UTC", label)
		}
		if ref.Supply != "" && (a.TotalSupply.String() != ref.Supply || a.MintCount != int64(ref.MintTxs) || a.BurnCount != int64(ref.BurnTxs)) {
			t.Errorf("%s: %s minted in %d, burned in %d; manifest says %s, %d, %d", label, a.TotalSupply, a.MintCount,
				a.BurnCount, ref.Supply, ref.MintTxs, ref.BurnTxs)
		}
		if ref.Fingerprint != "" && id.Fingerprint() != ref.Fingerprint {
			t.Errorf("%s: fingerprint %s, manifest %s", label, id.Fingerprint(), ref.Fingerprint)
		}
		checked++
	}
	// Every other asset on the chain too (the fingerprints db-sync stored
	// included).
	var all []struct {
		Policy      []byte `db:"policy"`
		Name        []byte `db:"name"`
		Fingerprint string `db:"fingerprint"`
	}
	if err := c.raw.Select(&all, `SELECT policy, name, fingerprint FROM multi_asset ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	for _, row := range all {
		id := c2Asset(t, hex.EncodeToString(row.Policy)+"."+hex.EncodeToString(row.Name))
		if id.Fingerprint() != row.Fingerprint {
			t.Errorf("%s: fingerprint %s, db-sync %s", id, id.Fingerprint(), row.Fingerprint)
		}
		a, err := c.db.AssetInfo(ctx, id, dbsync.SourceCIP25)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if d := c2DirectSupply(t, c.raw, id); a.TotalSupply.String() != d.Supply || a.MintCount != d.Mints || a.BurnCount != d.Burns {
			t.Errorf("%s: %s/%d/%d, direct %+v", id, a.TotalSupply, a.MintCount, a.BurnCount, d)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d assets checked", checked)
	}
	// The 2^64-1 mint is exact.
	a, err := c.db.AssetInfo(ctx, c2Asset(t, c.manifest.Assets.BigQuantity.Unit), dbsync.SourceAuto)
	if err != nil || a.TotalSupply.String() != "18446744073709551615" {
		t.Errorf("big quantity: %v %v", a.TotalSupply, err)
	}
	// Unknown assets: a policy that exists with another name, and nothing at all.
	for _, unit := range []string{
		c2Asset(t, c.manifest.Assets.Hosky.Unit).PolicyHex() + ".00",
		strings.Repeat("ab", 28) + ".",
	} {
		if _, err := c.db.AssetInfo(ctx, c2Asset(t, unit), dbsync.SourceAuto); !errors.Is(err, dbsync.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", unit, err)
		}
	}
}

func c2AssetCIP68(t *testing.T, c *c2Chain) {
	ctx := t.Context()
	m := c.manifest.Assets
	if len(m.CIP68All) < 4 || m.CIP68.PreviousDatum == "" {
		t.Fatalf("manifest has %d CIP-68 tokens (updated one: %+v)", len(m.CIP68All), m.CIP68)
	}
	for _, ref := range m.CIP68All {
		id := c2Asset(t, ref.UserUnit)
		want, known := c2CIP68Want[ref.Name]
		if !known {
			t.Fatalf("no expectation for datum %q", ref.Name)
		}
		for _, src := range []dbsync.MetadataSource{dbsync.SourceAuto, dbsync.SourceCIP68} {
			a, err := c.db.AssetInfo(ctx, id, src)
			if err != nil {
				t.Fatalf("%s: %v", ref.UserUnit, err)
			}
			if a.MetadataSource != dbsync.SourceCIP68 || !reflect.DeepEqual(a.Metadata, want) {
				t.Errorf("%s (%s, %s): got %s %s, want %s", ref.Datum, ref.Label, src, a.MetadataSource, c2JS(a.Metadata), c2JS(want))
			}
		}
		// The reference NFT itself is not a user token: no CIP-68 metadata.
		a, err := c.db.AssetInfo(ctx, c2Asset(t, ref.ReferenceUnit), dbsync.SourceCIP68)
		if err != nil || a.Metadata != nil {
			t.Errorf("reference %s: %v %s", ref.ReferenceUnit, err, c2JS(a.Metadata))
		}
		// The datum on the reference NFT's unspent output is the manifest's.
		if hash := c2CurrentDatumHash(t, c, c2Asset(t, ref.ReferenceUnit)); hash != ref.DatumHash {
			t.Errorf("%s: current reference datum %s, manifest %s", ref.Datum, hash, ref.DatumHash)
		}
	}
	// The updated token shows its current datum, not the previous one.
	if m.CIP68.Name != c2CIP68Blockfrost || m.CIP68.Datum == m.CIP68.PreviousDatum {
		t.Fatalf("unexpected updated token %+v", m.CIP68)
	}
	// CIP-25 forced on a CIP-68 token finds nothing (it has no label 721).
	a, err := c.db.AssetInfo(ctx, c2Asset(t, m.CIP68.UserUnit), dbsync.SourceCIP25)
	if err != nil || a.Metadata != nil {
		t.Errorf("cip25 on a CIP-68 token: %v %s", err, c2JS(a.Metadata))
	}
}

const c2CIP68Blockfrost = "Blockfrost NFT v2 testing token #018 (preprod) - reference NFT (100) inline datum"

// c2CIP68Want is what each real datum of cip68.json must decode to.
var c2CIP68Want = map[string]*cardano.AssetMetadata{
	c2CIP68Blockfrost: {Name: "Blockfrost NFT v2 testing token", Description: c2Strp("Blockfrost NFT v2 testing token"),
		Image: c2Strp("ipfs://QmUCXMTcvuJpwHF3gABRr69ceQR2uEG2Fsik9CyWh8MUoQ"), Decimals: c2I64p(0)},
	"FLDT (FluidTokens) CIP-68 FT reference datum (mainnet)": {Name: "FLDT", Ticker: c2Strp("FLDT"), Decimals: c2I64p(6),
		URL:         c2Strp("https://fluidtokens.com/"),
		Description: c2Strp("The official token of FluidTokens, a leading DeFi ecosystem fueled by innovation and community backing.")},
	"USDM CIP-68 FT reference datum (mainnet)": {Name: "USDM", Ticker: c2Strp("USDM"), Decimals: c2I64p(6), URL: c2Strp("https://mehen.io/"),
		Description: c2Strp("Fiat-backed stablecoin native to the Cardano blockchain")},
	"PBG Token Voucher 89 (mainnet) - metadata map contains a Plutus constructor value (owner)": {Name: "PBG Token Voucher 89",
		Description: c2Strp("Success fee reimbursement voucher"), Decimals: c2I64p(0), URL: c2Strp("https://pbg.io/vouchers"),
		Image: c2Strp("https://token.pbg.io/voucher-logo.png")},
	"Greenland Reserve Coin GNRC (mainnet) - version 0 datum": {Name: "Greenland Reserve Coin", Ticker: c2Strp("GNRC"), Decimals: c2I64p(6),
		URL: c2Strp("https://www.the-mint.com/compliance"), Description: c2Strp("Asset backed token secured by Greenland rubies and sapphires")},
	"HOSKY 10K NFT 0002 (mainnet) - first datum with version 100": {Name: "HOSKY 10K NFT 0002",
		Description: c2Strp("This is a reference token for CIP-68."), Decimals: c2I64p(0),
		Image: c2Strp("ipfs://QmfRvX7ZA3FsCjoXWYfBXGSHFW6ARYaaux6GT3WtqLEX6g")},
	"Preprod NFT #1 with constructor property (from bloxbean/yaci-store#1159)": {Name: "NFT #1", Decimals: c2I64p(0)},
}

func c2CurrentDatumHash(t *testing.T, c *c2Chain, ref cardano.AssetID) string {
	t.Helper()
	unspent := `NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`
	if c.mode == chaingen.ModeConsumed {
		unspent = `o.consumed_by_tx_id IS NULL`
	}
	var hash sql.NullString
	err := c.raw.Get(&hash, `SELECT encode(o.data_hash, 'hex') FROM tx_out o
		JOIN ma_tx_out mto ON mto.tx_out_id = o.id JOIN multi_asset a ON a.id = mto.ident
		WHERE a.policy = $1 AND a.name = $2 AND `+unspent+` ORDER BY o.id DESC LIMIT 1`, ref.Policy[:], ref.Name)
	if err != nil {
		t.Fatalf("current datum of %s: %v", ref, err)
	}
	return hash.String
}

func c2AssetCIP25(t *testing.T, c *c2Chain) {
	ctx := t.Context()
	m := c.manifest.Assets
	chunked := c2ChunkedImage(t, c, m.CIP25Chunked.Unit)
	cases := []struct {
		label string
		unit  string
		want  *cardano.AssetMetadata
	}{
		{"v1 (minted, burned, minted again)", m.CIP25V1.Unit, &cardano.AssetMetadata{Name: "SpaceBud #3412",
			Image: c2Strp("ipfs://QmPQWCUh9abUP2NQ2svMsRgcehez1VN6QGAcBCpuVQNdKp")}},
		{"v2, chunked image", m.CIP25V2.Unit, &cardano.AssetMetadata{Name: "Optim EQT",
			Image: c2Strp("ipfs://bafkreif5iapksurpzoegyxl7jybdlxbqsz2upsagu2dmbygj4qbf6cfcdi")}},
		{"v2, empty asset name", m.CIP25V2Empty.Unit, &cardano.AssetMetadata{Name: "",
			Image: c2Strp("ipfs://todo"), Description: c2Strp("Change the world with FinanceBinaries!")}},
		{"v1, data: image in chunks", m.CIP25Chunked.Unit, &cardano.AssetMetadata{Name: "SyncGate Art #001", Image: &chunked}},
	}
	for _, tc := range cases {
		for _, src := range []dbsync.MetadataSource{dbsync.SourceAuto, dbsync.SourceCIP25} {
			a, err := c.db.AssetInfo(ctx, c2Asset(t, tc.unit), src)
			if err != nil {
				t.Fatalf("%s: %v", tc.label, err)
			}
			got := a.Metadata
			if got != nil && got.Description != nil && tc.want.Description == nil {
				got = &cardano.AssetMetadata{Name: got.Name, Image: got.Image, Ticker: got.Ticker, URL: got.URL} // description optional
			}
			if a.MetadataSource != dbsync.SourceCIP25 || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s (%s): got %s %s, want %s", tc.label, src, a.MetadataSource, c2JS(a.Metadata), c2JS(tc.want))
			}
		}
		// CIP-68 forced on a CIP-25 asset: nothing.
		a, err := c.db.AssetInfo(ctx, c2Asset(t, tc.unit), dbsync.SourceCIP68)
		if err != nil || a.Metadata != nil {
			t.Errorf("%s, cip68: %v %s", tc.label, err, c2JS(a.Metadata))
		}
		// Registry: db-sync reads nothing.
		a, err = c.db.AssetInfo(ctx, c2Asset(t, tc.unit), dbsync.SourceRegistry)
		if err != nil || a.Metadata != nil {
			t.Errorf("%s, registry: %v %s", tc.label, err, c2JS(a.Metadata))
		}
	}
	// HOSKY has no on-chain metadata.
	a, err := c.db.AssetInfo(ctx, c2Asset(t, m.Hosky.Unit), dbsync.SourceAuto)
	if err != nil || a.Metadata != nil {
		t.Errorf("hosky: %v %s", err, c2JS(a.Metadata))
	}
}

// c2ChunkedImage reads the chunked image of the label-721 entry with
// plain JSON decoding (independently of the decoder under test).
func c2ChunkedImage(t *testing.T, c *c2Chain, unit string) string {
	t.Helper()
	id := c2Asset(t, unit)
	var raw string
	err := c.raw.Get(&raw, `SELECT tm.json::text FROM tx_metadata tm WHERE tm.key = 721 AND tm.tx_id =
		(SELECT max(m.tx_id) FROM ma_tx_mint m JOIN multi_asset a ON a.id = m.ident
		 WHERE a.policy = $1 AND a.name = $2 AND m.quantity > 0)`, id.Policy[:], id.Name)
	if err != nil {
		t.Fatal(err)
	}
	var label map[string]map[string]struct {
		Image []string `json:"image"`
	}
	if err := json.Unmarshal([]byte(raw), &label); err != nil {
		t.Fatalf("label 721 of %s: %v", unit, err)
	}
	chunks := label[id.PolicyHex()][string(id.Name)].Image
	if len(chunks) < 2 {
		t.Fatalf("%s: image is not chunked: %v", unit, chunks)
	}
	return strings.Join(chunks, "")
}

func c2ManifestPools(m *chaingen.Manifest) map[string]chaingen.PoolRef {
	p := m.Pools
	return map[string]chaingen.PoolRef{"biggest": p.Biggest, "small": p.Small, "retired": p.Retired, "retiring": p.Retiring,
		"re_registered": p.ReRegistered, "cancelled_retirement": p.CancelledRetirement, "ordinary": p.Ordinary}
}

func c2PoolStatus(t *testing.T, c *c2Chain) {
	ctx := t.Context()
	wantStatus := map[string]string{"biggest": "active", "small": "active", "retired": "retired", "retiring": "retiring",
		"re_registered": "active", "cancelled_retirement": "active", "ordinary": "active"}
	for label, ref := range c2ManifestPools(c.manifest) {
		for _, in := range []string{ref.ID, ref.Hash} {
			p, err := c.db.PoolInfo(ctx, c2Pool(t, in))
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			if p.Status != ref.Status || p.Status != wantStatus[label] {
				t.Errorf("%s: status %s, manifest %s", label, p.Status, ref.Status)
			}
			if !reflect.DeepEqual(p.RetiringEpoch, c2IntPtr(ref.RetiringEpoch)) {
				t.Errorf("%s: retiring epoch %v, manifest %v", label, p.RetiringEpoch, ref.RetiringEpoch)
			}
			if p.ID.Hex() != ref.Hash || p.ID.String() != ref.ID {
				t.Errorf("%s: id %s/%s", label, p.ID.Hex(), p.ID)
			}
			if p.CurrentEpoch != int64(c.manifest.Tip.Epoch) || p.VRFKeyHash == "" || p.Pledge == nil || p.FixedCost == nil ||
				p.RewardAccount == nil || len(p.Owners) == 0 || p.OptimalPoolCount == nil || p.Reserves == nil {
				t.Errorf("%s: incomplete pool %+v", label, p)
			}
			registered, err := c.db.PoolRegistered(ctx, p.ID)
			if err != nil || !registered {
				t.Errorf("%s: registered %v %v", label, registered, err)
			}
		}
	}
	// Parameters come from the latest registration; counts and active stake
	// match direct SQL: for the biggest pool (by delegators, registered
	// more than once), and for the pool that made the tip block, whose
	// block counts are never zero (one pool's stake may lead nearly every
	// block of a seeded chain, leaving the biggest one none).
	var tipLeader []byte
	if err := c.raw.Get(&tipLeader, `SELECT ph.hash_raw FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id
		JOIN pool_hash ph ON ph.id = sl.pool_hash_id ORDER BY b.id DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	big := c2Pool(t, c.manifest.Pools.Biggest.ID)
	for _, pool := range []struct {
		label     string
		id        cardano.PoolID
		hasBlocks bool
	}{{"biggest pool", big, false}, {"tip block's pool", cardano.PoolID(tipLeader), true}} {
		p, _ := c.db.PoolInfo(ctx, pool.id)
		totals, err := c.db.PoolEpochTotals(ctx, pool.id, p.CurrentEpoch)
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			Pledge  string  `db:"pledge"`
			Margin  float64 `db:"margin"`
			Active  string  `db:"active"`
			Blocks  int64   `db:"blocks"`
			BlocksE int64   `db:"blocks_epoch"`
			Relays  int     `db:"relays"`
		}
		err = c.raw.Get(&d, `WITH ph AS (SELECT id FROM pool_hash WHERE hash_raw = $1),
			u AS (SELECT * FROM pool_update WHERE hash_id = (SELECT id FROM ph) ORDER BY registered_tx_id DESC, cert_index DESC LIMIT 1),
			e AS (SELECT max(epoch_no) AS e FROM block)
			SELECT (SELECT pledge::text FROM u) AS pledge, (SELECT margin FROM u) AS margin,
			  (SELECT COALESCE(sum(amount), 0)::text FROM epoch_stake WHERE pool_id = (SELECT id FROM ph) AND epoch_no = (SELECT e FROM e)) AS active,
			  (SELECT count(*) FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id WHERE sl.pool_hash_id = (SELECT id FROM ph)) AS blocks,
			  (SELECT count(*) FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id
			   WHERE sl.pool_hash_id = (SELECT id FROM ph) AND b.epoch_no = (SELECT e FROM e)) AS blocks_epoch,
			  (SELECT count(*) FROM pool_relay WHERE update_id = (SELECT id FROM u)) AS relays`, pool.id[:])
		if err != nil {
			t.Fatal(err)
		}
		if p.Pledge.String() != d.Pledge || p.Margin != d.Margin || totals.ActiveStake != d.Active ||
			totals.BlocksBefore+p.BlocksEpoch != d.Blocks || p.BlocksEpoch != d.BlocksE || len(p.Relays) != d.Relays ||
			d.Active == "0" || pool.hasBlocks && (d.Blocks == 0 || d.BlocksE == 0) {
			t.Errorf("%s: %s %v %s %d+%d %d relays; direct %+v", pool.label, p.Pledge, p.Margin, totals.ActiveStake,
				totals.BlocksBefore, p.BlocksEpoch, len(p.Relays), d)
		}
		for _, r := range p.Relays {
			if r.Port != nil && (*r.Port < 0 || *r.Port > 65535) {
				t.Errorf("relay port %d", *r.Port)
			}
		}
	}
	// Never registered: unknown.
	for _, id := range []string{strings.Repeat("ab", 28), "pool1y6chk7x7fup4ms9leesdr57r4qy9cwxuee0msan72x976a6u0nc"} {
		if _, err := c.db.PoolInfo(ctx, c2Pool(t, id)); !errors.Is(err, dbsync.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", id, err)
		}
		if ok, err := c.db.PoolRegistered(ctx, c2Pool(t, id)); ok || err != nil {
			t.Errorf("%s: registered %v %v", id, ok, err)
		}
	}
}

func c2IntPtr(p *int) *int64 {
	if p == nil {
		return nil
	}
	v := int64(*p)
	return &v
}

// c2LiveStakeDirect is the test's own computation of one stake address's
// live stake (outputs still unspent + rewards available now − withdrawals).
func c2LiveStakeDirect(t *testing.T, c *c2Chain, stakeAddress string) string {
	t.Helper()
	unspent := `NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`
	if c.mode == chaingen.ModeConsumed {
		unspent = `o.consumed_by_tx_id IS NULL`
	}
	var v string
	err := c.raw.Get(&v, `WITH sa AS (SELECT id FROM stake_address WHERE view = $1), e AS (SELECT max(epoch_no) AS e FROM block)
		SELECT ((SELECT COALESCE(sum(o.value), 0) FROM tx_out o WHERE o.stake_address_id = (SELECT id FROM sa) AND `+unspent+`)
		  + (SELECT COALESCE(sum(amount), 0) FROM reward WHERE addr_id = (SELECT id FROM sa) AND spendable_epoch <= (SELECT e FROM e))
		  + (SELECT COALESCE(sum(amount), 0) FROM reward_rest WHERE addr_id = (SELECT id FROM sa) AND spendable_epoch <= (SELECT e FROM e))
		  - (SELECT COALESCE(sum(amount), 0) FROM withdrawal WHERE addr_id = (SELECT id FROM sa)))::text`, stakeAddress)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func c2PoolDelegators(t *testing.T, c *c2Chain) {
	ctx := t.Context()
	perPool := map[string][]dbsync.PoolStake{}
	for label, ref := range c2ManifestPools(c.manifest) {
		rows, err := c.db.PoolStakeOne(ctx, c2Pool(t, ref.ID))
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		if len(rows) != ref.Delegators {
			t.Errorf("%s (%s): %d delegators, manifest %d", label, ref.Status, len(rows), ref.Delegators)
		}
		for i, r := range rows {
			if r.PoolIDHex != ref.Hash {
				t.Errorf("%s: row for pool %s", label, r.PoolIDHex)
			}
			if i > 0 {
				prev, cur := c2Big(t, rows[i-1].Amount), c2Big(t, r.Amount)
				if prev.Cmp(cur) < 0 || prev.Cmp(cur) == 0 && rows[i-1].StakeAddress >= r.StakeAddress {
					t.Errorf("%s: rows %d and %d out of order", label, i-1, i)
				}
			}
		}
		// A few addresses against the independent computation: the first,
		// the middle and the last.
		for _, i := range []int{0, len(rows) / 2, len(rows) - 1} {
			if i < 0 || i >= len(rows) {
				continue
			}
			if want := c2LiveStakeDirect(t, c, rows[i].StakeAddress); rows[i].Amount != want {
				t.Errorf("%s %s: live %s, direct %s", label, rows[i].StakeAddress, rows[i].Amount, want)
			}
		}
		perPool[ref.Hash] = rows
	}
	if c.manifest.Pools.Biggest.Delegators < 20 || c.manifest.Pools.Retired.Delegators != 0 {
		t.Fatalf("manifest pools not as expected: %+v", c.manifest.Pools)
	}
	// Registered stake keys the manifest says delegate to a pool are in its
	// list; deregistered ones are in none.
	inPool := map[string]string{}
	all := map[string][]dbsync.PoolStake{}
	tip, err := c.db.PoolStakeAll(ctx, time.Minute, func(r dbsync.PoolStake) error {
		if prev, dup := inPool[r.StakeAddress]; dup {
			return fmt.Errorf("%s delegated to %s and %s", r.StakeAddress, prev, r.PoolIDHex)
		}
		inPool[r.StakeAddress] = r.PoolIDHex
		all[r.PoolIDHex] = append(all[r.PoolIDHex], r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tip.BlockHash != c.manifest.Tip.BlockHash {
		t.Errorf("PoolStakeAll tip %s, manifest %s", tip.BlockHash, c.manifest.Tip.BlockHash)
	}
	checkedKeys := 0
	for _, k := range c.manifest.StakeKeys {
		got, delegated := inPool[k.StakeAddress]
		switch {
		case !k.Registered && delegated:
			t.Errorf("deregistered %s delegates to %s", k.StakeAddress, got)
		case k.Registered && k.Pool != "":
			want := c2Pool(t, k.Pool).Hex()
			if got != want {
				t.Errorf("%s: delegated to %q, manifest %s", k.StakeAddress, got, k.Pool)
			}
			checkedKeys++
		}
	}
	if checkedKeys == 0 {
		t.Error("no manifest stake key with a pool")
	}
	c2DelegatorRules(t, c, inPool)
	// The full pass and the one-pool query agree for every pool.
	for hash, rows := range perPool {
		got := all[hash]
		slices.SortFunc(got, func(a, b dbsync.PoolStake) int { return strings.Compare(a.StakeAddress, b.StakeAddress) })
		want := slices.Clone(rows)
		slices.SortFunc(want, func(a, b dbsync.PoolStake) int { return strings.Compare(a.StakeAddress, b.StakeAddress) })
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("pool %s: full pass %d rows, one-pool %d rows differ", hash, len(got), len(want))
		}
	}
}

// testPoolOnDemand: before the first refresh, the exact computation
// answers when it fits the budget; when it does not (here: blocked by a
// lock until its statement timeout), the active stake snapshot answers.
func c2PoolOnDemand(t *testing.T, c *c2Chain) {
	ctx := t.Context()
	big := c2Pool(t, c.manifest.Pools.Biggest.ID)
	exact, err := c.db.PoolStakeOne(ctx, big)
	if err != nil {
		t.Fatal(err)
	}
	rows, isExact, err := c.db.PoolStakeOnDemand(ctx, big, 30*time.Second)
	if err != nil || !isExact || !reflect.DeepEqual(rows, exact) {
		t.Fatalf("on demand within budget: exact %v, %d rows (want %d), %v", isExact, len(rows), len(exact), err)
	}

	snap, err := c.db.PoolStakeSnapshot(ctx, big)
	if err != nil {
		t.Fatal(err)
	}
	var direct []struct {
		View   string `db:"view"`
		Amount string `db:"amount"`
	}
	if err := c.raw.Select(&direct, `SELECT sa.view, es.amount::text AS amount FROM epoch_stake es
		JOIN stake_address sa ON sa.id = es.addr_id JOIN pool_hash ph ON ph.id = es.pool_id
		WHERE ph.hash_raw = $1 AND es.epoch_no = (SELECT max(epoch_no) FROM block)
		ORDER BY es.amount DESC, sa.view COLLATE "C"`, big[:]); err != nil {
		t.Fatal(err)
	}
	if len(snap) != len(direct) || len(snap) == 0 {
		t.Fatalf("snapshot %d rows, direct %d", len(snap), len(direct))
	}
	for i := range snap {
		if snap[i].StakeAddress != direct[i].View || snap[i].Amount != direct[i].Amount || snap[i].ActiveEpochNo <= 0 {
			t.Errorf("snapshot row %d: %+v, direct %+v", i, snap[i], direct[i])
		}
	}

	lock, err := c.raw.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Rollback() //nolint:errcheck
	if _, err := lock.Exec(`LOCK TABLE reward_rest IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	rows, isExact, err = c.db.PoolStakeOnDemand(ctx, big, 200*time.Millisecond)
	if err != nil || isExact || !reflect.DeepEqual(rows, snap) {
		t.Fatalf("on demand over budget: exact %v, %d rows (snapshot %d), %v", isExact, len(rows), len(snap), err)
	}
}

// c2DelegatorRules checks the exclusion rules with the test's own SQL:
// a stake address deregistered after its latest delegation delegates to
// nobody; delegations made before a pool's retirement took effect are gone
// (retired and re-registered pools), those before a cancelled retirement
// are not.
func c2DelegatorRules(t *testing.T, c *c2Chain, inPool map[string]string) {
	const latest = `WITH latest AS (SELECT DISTINCT ON (d.addr_id) d.addr_id, d.pool_hash_id, d.tx_id, d.cert_index
		FROM delegation d ORDER BY d.addr_id, d.tx_id DESC, d.cert_index DESC),
		registered AS (SELECT l.* FROM latest l WHERE NOT EXISTS (SELECT 1 FROM stake_deregistration sd
		  WHERE sd.addr_id = l.addr_id AND (sd.tx_id, sd.cert_index) > (l.tx_id, l.cert_index)))`
	var dereg []string
	if err := c.raw.Select(&dereg, latest+` SELECT sa.view FROM latest l JOIN stake_address sa ON sa.id = l.addr_id
		WHERE l.addr_id NOT IN (SELECT addr_id FROM registered)`); err != nil {
		t.Fatal(err)
	}
	if len(dereg) == 0 {
		t.Error("the chain has no deregistered delegator to check")
	}
	for _, v := range dereg {
		if p, ok := inPool[v]; ok {
			t.Errorf("deregistered %s delegates to %s", v, p)
		}
	}
	beforeRetirement := func(poolID string) []string {
		t.Helper()
		var out []string
		id := c2Pool(t, poolID)
		if err := c.raw.Select(&out, latest+` SELECT DISTINCT sa.view FROM registered l
			JOIN stake_address sa ON sa.id = l.addr_id JOIN pool_hash ph ON ph.id = l.pool_hash_id
			JOIN tx t ON t.id = l.tx_id JOIN block b ON b.id = t.block_id
			JOIN pool_retire r ON r.hash_id = ph.id
			WHERE ph.hash_raw = $1 AND b.epoch_no < r.retiring_epoch`, id[:]); err != nil {
			t.Fatal(err)
		}
		return out
	}
	p := c.manifest.Pools
	wiped := 0
	for _, ref := range []chaingen.PoolRef{p.Retired, p.ReRegistered} {
		for _, v := range beforeRetirement(ref.ID) {
			wiped++
			if got, ok := inPool[v]; ok {
				t.Errorf("%s delegated to %s before it retired, still counted (for %s)", v, ref.Ticker, got)
			}
		}
	}
	kept := beforeRetirement(p.CancelledRetirement.ID)
	for _, v := range kept {
		if inPool[v] != p.CancelledRetirement.Hash {
			t.Errorf("%s delegated to %s before a cancelled retirement, not counted", v, p.CancelledRetirement.Ticker)
		}
	}
	if wiped == 0 || len(kept) == 0 {
		t.Errorf("nothing to check: %d wiped, %d kept", wiped, len(kept))
	}
}

func c2Big(t *testing.T, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("not an integer: %q", s)
	}
	return v
}

// testModesAgree: the same seed in core and consumed mode gives the same
// answers.
func c2ModesAgree(t *testing.T, core, consumed *c2Chain) {
	ctx := t.Context()
	for label, ref := range c2ManifestAssets(core.manifest) {
		id := c2Asset(t, ref.Unit)
		for _, src := range []dbsync.MetadataSource{dbsync.SourceAuto, dbsync.SourceCIP68, dbsync.SourceCIP25} {
			a, err1 := core.db.AssetInfo(ctx, id, src)
			b, err2 := consumed.db.AssetInfo(ctx, id, src)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
				t.Errorf("%s %s: core %+v %v; consumed %+v %v", label, src, a, err1, b, err2)
			}
		}
	}
	for label, ref := range c2ManifestPools(core.manifest) {
		id := c2Pool(t, ref.ID)
		a, err1 := core.db.PoolInfo(ctx, id)
		b, err2 := consumed.db.PoolInfo(ctx, id)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("%s: core %+v %v; consumed %+v %v", label, a, err1, b, err2)
		}
		ta, err1 := core.db.PoolEpochTotals(ctx, id, a.CurrentEpoch)
		tb, err2 := consumed.db.PoolEpochTotals(ctx, id, b.CurrentEpoch)
		if err1 != nil || err2 != nil || ta != tb {
			t.Errorf("%s totals: core %+v %v; consumed %+v %v", label, ta, err1, tb, err2)
		}
		x, err1 := core.db.PoolStakeOne(ctx, id)
		y, err2 := consumed.db.PoolStakeOne(ctx, id)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(x, y) {
			t.Errorf("%s delegators: core %d %v; consumed %d %v", label, len(x), err1, len(y), err2)
		}
	}
}

// Tables whose sequential scan means a missing index (spec: "fail on a Seq
// Scan of tx_out, tx_in, tx, ma_tx_out, ma_tx_mint, block, delegation,
// epoch_stake").
var c2BigTables = map[string]bool{"tx_out": true, "tx_in": true, "tx": true, "ma_tx_out": true, "ma_tx_mint": true,
	"block": true, "delegation": true, "epoch_stake": true}

// c2Explain runs EXPLAIN on every request-path query of the asset and
// pool endpoints with sequential scans disabled, and fails on any Seq Scan
// of a big table. pool_stake.sql for every pool (OnePool false) is not
// checked: it is the background full pass over every delegation (it may
// and should scan).
func c2Explain(t *testing.T, c *c2Chain) {
	m := c.manifest
	cip68 := c2Asset(t, m.Assets.CIP68.UserUnit)
	ref, _ := cip68.CIP68Reference()
	v1 := c2Asset(t, m.Assets.CIP25V1.Unit)
	hosky := c2Asset(t, m.Assets.Hosky.Unit) // held by many outputs
	pool := c2Pool(t, m.Pools.Biggest.ID)
	var lastMint int64
	if err := c.raw.Get(&lastMint, `SELECT max(tx_id) FROM ma_tx_mint`); err != nil {
		t.Fatal(err)
	}
	queries := []struct {
		file   string
		args   []any
		params map[string]any
	}{
		{"dbsync/asset_info.sql", []any{v1.Policy[:], v1.Name}, nil},
		{"dbsync/asset_cip25.sql", []any{lastMint}, nil},
		{"dbsync/asset_cip68_datum.sql", []any{ref.Policy[:], ref.Name}, nil},
		{"dbsync/asset_known.sql", []any{v1.Policy[:], v1.Name}, nil},
		{"dbsync/asset_holders.sql", []any{hosky.Policy[:], 100, 0, hosky.Name}, nil},
		{"dbsync/pool_info.sql", []any{pool[:]}, nil},
		{"dbsync/pool_exists.sql", []any{pool[:]}, nil},
		{"dbsync/pool_epoch_totals.sql", []any{pool[:], m.Tip.Epoch}, nil},
		{"dbsync/pool_stake.sql", []any{pool[:]}, map[string]any{"OnePool": true}},
		{"dbsync/pool_stake_snapshot.sql", []any{pool[:]}, nil},
		{"dbsync/pool_metadata.sql", []any{pool[:]}, nil},
		{"dbsync/pool_live_pledge.sql", []any{pool[:]}, nil},
		// The Blockfrost dialect's (dbsync/pools, planned there too).
		{"dbsync/pool_history.sql", []any{pool[:], 0, m.Tip.Epoch - 2}, nil},
		{"dbsync/pool_blocks.sql", []any{pool[:]}, nil},
		{"dbsync/pool_updates.sql", []any{pool[:]}, nil},
		{"dbsync/pool_votes.sql", []any{pool[:]}, nil},
		{"dbsync/epoch_active_stake.sql", []any{m.Tip.Epoch}, nil},
		{"dbsync/tip.sql", nil, nil},
	}
	exempt := map[string]bool{} // pool_stake.sql for every pool: the background full pass
	covered := map[string]bool{}
	for _, q := range queries {
		covered[q.file] = true
		query := statementFor(q.file, c.mode, q.params)
		t.Run(q.file, func(t *testing.T) {
			tx, err := c.raw.Beginx()
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback() //nolint:errcheck
			if _, err := tx.Exec(`SET LOCAL enable_seqscan = off`); err != nil {
				t.Fatal(err)
			}
			var plan string
			if err := tx.Get(&plan, `EXPLAIN (FORMAT JSON) `+query, q.args...); err != nil {
				t.Fatal(err)
			}
			var nodes []map[string]any
			if err := json.Unmarshal([]byte(plan), &nodes); err != nil {
				t.Fatal(err)
			}
			for _, scan := range c2SeqScans(nodes[0]["Plan"]) {
				if c2BigTables[scan] {
					t.Errorf("Seq Scan on %s:\n%s", scan, plan)
				}
			}
			if !isPreparable(query) {
				return
			}
			plan = genericPlan(t, tx, query, q.args)
			if err := json.Unmarshal([]byte(plan), &nodes); err != nil {
				t.Fatal(err)
			}
			for _, scan := range c2SeqScans(nodes[0]["Plan"]) {
				if c2BigTables[scan] {
					t.Errorf("generic plan: Seq Scan on %s:\n%s", scan, plan)
				}
			}
			// The generic plan serves every value, so also no walk of a
			// whole index of a big table (in id order to satisfy a LIMIT).
			if bad := unindexedScans(plan); len(bad) > 0 {
				t.Errorf("generic plan: %s\n%s", strings.Join(bad, "; "), plan)
			}
		})
	}
	// Every asset/pool query file is either checked or explicitly exempt.
	for _, f := range sqlfiles.Dir("dbsync") {
		name := f[len("dbsync/"):]
		if (strings.HasPrefix(name, "asset_") || strings.HasPrefix(name, "pool_")) && !covered[f] && !exempt[f] {
			t.Errorf("%s has no EXPLAIN check", f)
		}
	}
}

// c2SeqScans lists the relations a plan scans sequentially.
func c2SeqScans(node any) []string {
	n, ok := node.(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	if n["Node Type"] == "Seq Scan" {
		rel, _ := n["Relation Name"].(string)
		out = append(out, rel)
	}
	if kids, ok := n["Plans"].([]any); ok {
		for _, k := range kids {
			out = append(out, c2SeqScans(k)...)
		}
	}
	return out
}

func c2Strp(s string) *string { return &s }
func c2I64p(i int64) *int64   { return &i }

func c2JS(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
