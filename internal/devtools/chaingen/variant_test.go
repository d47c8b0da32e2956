package chaingen

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/blinklabs-io/gouroboros/ledger/common"
)

func TestParseVariant(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]Variant{
		"core":                   {Mode: ModeCore, Schema: Schema137},
		"consumed":               {Mode: ModeConsumed, Schema: Schema137},
		"prune":                  {Mode: ModePrune, Schema: Schema137},
		"bootstrap":              {Mode: ModeBootstrap, Schema: Schema137},
		"disable":                {Mode: ModeDisable, Schema: Schema137},
		"address":                {Mode: ModeCore, AddressTable: true, Schema: Schema137},
		"address+consumed":       {Mode: ModeConsumed, AddressTable: true, Schema: Schema137},
		"core@13.6":              {Mode: ModeCore, Schema: Schema136},
		"address+prune@13.6":     {Mode: ModePrune, AddressTable: true, Schema: Schema136},
		"address+bootstrap@13.7": {Mode: ModeBootstrap, AddressTable: true, Schema: Schema137},
	} {
		got, err := ParseVariant(name)
		if err != nil || got != want {
			t.Errorf("ParseVariant(%q) = %+v, %v; want %+v", name, got, err, want)
			continue
		}
		back, err := ParseVariant(got.String())
		if err != nil || back != got {
			t.Errorf("%q: String %q does not read back (%+v, %v)", name, got.String(), back, err)
		}
	}
	if v, err := ParseVariant("consumed+address"); err != nil || v.String() != "address+consumed" {
		t.Errorf("consumed+address: %v %v", v, err)
	}
	for _, bad := range []string{"", "enable", "address+address", "consumed+prune", "core@14.0", "core@", "+core", "address+"} {
		if v, err := ParseVariant(bad); err == nil {
			t.Errorf("ParseVariant(%q) = %+v, want an error", bad, v)
		}
	}
	if _, err := Seed(context.Background(), "postgres://unused", Options{Txs: 3000, Mode: "enable"}); err == nil {
		t.Error("Seed accepted mode enable")
	}
	if _, err := Seed(context.Background(), "postgres://unused", Options{Txs: 3000, Schema: "13.5"}); err == nil {
		t.Error("Seed accepted schema 13.5")
	}
}

// layoutCases are the layouts checked against db-sync's schema, with the
// extra_migrations tokens db-sync leaves for each (in the order a
// fresh database gets them).
var layoutCases = []struct {
	v      Variant
	tokens string
}{
	{Variant{Mode: ModeCore}, ""},
	{Variant{Mode: ModeConsumed}, "ConsumeTxOutPreviouslySet"},
	{Variant{Mode: ModeCore, AddressTable: true}, "TxOutAddressPreviouslySet"},
	{Variant{Mode: ModeConsumed, AddressTable: true}, "TxOutAddressPreviouslySet,ConsumeTxOutPreviouslySet"},
	{Variant{Mode: ModePrune}, "PruneTxOutFlagPreviouslySet,ConsumeTxOutPreviouslySet"},
	{Variant{Mode: ModeBootstrap}, "BootstrapStarted,PruneTxOutFlagPreviouslySet,ConsumeTxOutPreviouslySet,BootstrapFinished"},
	{Variant{Mode: ModeDisable}, ""},
	{Variant{Mode: ModeCore, Schema: Schema136}, ""},
	{Variant{Mode: ModePrune, AddressTable: true, Schema: Schema136}, "TxOutAddressPreviouslySet,PruneTxOutFlagPreviouslySet,ConsumeTxOutPreviouslySet"},
}

// Every layout has db-sync's tables column for column, its keys and
// indexes, and the objects db-sync adds for the layout's options, and none
// it does not add.
func TestVariantShapes(t *testing.T) {
	t.Parallel()
	for _, c := range layoutCases {
		v := c.v.normal()
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			db, m := sharedFor(t, v)
			checkDBSyncSchema(t, db, v)
			if m.Variant != v.String() || m.Mode != v.Mode || m.AddressTable != v.AddressTable || m.Schema != v.Schema {
				t.Errorf("manifest layout %q %s %v %s", m.Variant, m.Mode, m.AddressTable, m.Schema)
			}
			if tok := queryString(t, db, `SELECT string_agg(token, ',' ORDER BY id) FROM extra_migrations`); tok != c.tokens {
				t.Errorf("extra_migrations: %q, want %q", tok, c.tokens)
			}
			index := func(name string) string {
				return queryString(t, db, `SELECT (SELECT am.amname || ' ' || c.relname || ' ' || t.relname FROM pg_class c
					JOIN pg_am am ON am.oid = c.relam JOIN pg_index i ON i.indexrelid = c.oid
					JOIN pg_class t ON t.oid = i.indrelid WHERE c.relname = $1)`, name)
			}
			want := func(name, def string, present bool) {
				t.Helper()
				got := index(name)
				if present && got != def || !present && got != "" {
					t.Errorf("index %s: %q (want present=%v: %q)", name, got, present, def)
				}
			}
			// Stage 4 (4-0001 is not run for the address variant).
			want("idx_tx_out_tx_id", "btree idx_tx_out_tx_id tx_out", true)
			want("idx_ma_tx_out_tx_out_id", "btree idx_ma_tx_out_tx_out_id ma_tx_out", true)
			want("idx_tx_out_payment_cred", "btree idx_tx_out_payment_cred tx_out", !v.AddressTable)
			want("idx_tx_out_stake_address_id", "btree idx_tx_out_stake_address_id tx_out", !v.AddressTable)
			want("collateral_tx_out_stake_address_id_idx", "btree collateral_tx_out_stake_address_id_idx collateral_tx_out", true)
			// Options: the address table's indexes, the consumed index.
			want("idx_address_raw", "hash idx_address_raw address", v.AddressTable)
			want("idx_address_payment_cred", "btree idx_address_payment_cred address", v.AddressTable)
			want("address_pkey", "btree address_pkey address", v.AddressTable)
			want("idx_tx_out_consumed_by_tx_id", "btree idx_tx_out_consumed_by_tx_id tx_out", v.Mode.fillsConsumed())
			// 13.6 indexes its epoch table; 13.7 has epoch_finalized's unique no.
			want("idx_epoch_no", "btree idx_epoch_no epoch", v.Schema == Schema136)
			want("unique_epoch_finalized_no", "btree unique_epoch_finalized_no epoch_finalized", v.Schema == Schema137)
			// 13.7.0.2 replaced drep_distr's unique key by an index.
			want("idx_drep_distr_hash_id_epoch_no", "btree idx_drep_distr_hash_id_epoch_no drep_distr", v.Schema == Schema137)
			want("unique_drep_distr", "btree unique_drep_distr drep_distr", v.Schema == Schema136)
			// Foreign keys: db-sync's only one, plus prune's.
			fks := queryString(t, db, `SELECT string_agg(conrelid::regclass || '.' || conname || ' ' || pg_get_constraintdef(oid), '; ' ORDER BY conname)
				FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace`)
			wantFK := "committee_member.committee_member_committee_id_fkey " + committeeFK
			if v.Mode.prunes() {
				wantFK += "; ma_tx_out.ma_tx_out_tx_out_id_fkey FOREIGN KEY (tx_out_id) REFERENCES tx_out(id) ON UPDATE RESTRICT ON DELETE CASCADE"
			}
			if fks != wantFK {
				t.Errorf("foreign keys: %q, want %q", fks, wantFK)
			}
			// Version rows of the release.
			sv := queryString(t, db, `SELECT stage_one || '.' || stage_two || '.' || stage_three FROM schema_version`)
			meta := queryString(t, db, `SELECT version FROM meta`)
			wantSV, wantMeta := "15.50.6", "Version {versionBranch = [13,7,2,1], versionTags = []}"
			if v.Schema == Schema136 {
				wantSV, wantMeta = "15.44.6", "Version {versionBranch = [13,6,0,8], versionTags = []}"
			}
			if sv != wantSV || meta != wantMeta {
				t.Errorf("schema_version %s, meta.version %s", sv, meta)
			}
			// Counts are the rows each table holds.
			for table, n := range map[string]int64{"tx_out": m.Counts.TxOut, "ma_tx_out": m.Counts.MaTxOut,
				"tx_in": m.Counts.TxIn, "tx": m.Counts.Txs} {
				if got := queryInt(t, db, "SELECT count(*) FROM "+table); got != n {
					t.Errorf("%s: %d rows, manifest %d", table, got, n)
				}
			}
			if v.AddressTable {
				if got := queryInt(t, db, `SELECT count(*) FROM address`); got != m.Counts.Addresses || got == 0 {
					t.Errorf("address: %d rows, manifest %d", got, m.Counts.Addresses)
				}
			}
			if got := queryInt(t, db, `SELECT last_value FROM tx_out_id_seq`); m.Counts.TxOut > 0 && got < m.Counts.TxOut {
				t.Errorf("tx_out sequence at %d, below %d rows", got, m.Counts.TxOut)
			}
		})
	}
}

// Every layout holds the same chain: blocks, transactions (apart from the
// fee db-sync cannot compute without outputs), certificates and rewards are
// identical to the core layout's; what differs is what the layout keeps of
// the outputs.
func TestVariantsDescribeOneChain(t *testing.T) {
	t.Parallel()
	core, mc := sharedCore.get(t, ModeCore)
	digests := map[string]string{
		"block":         `SELECT md5(string_agg(id || encode(hash, 'hex') || COALESCE(block_no, -1) || "time", ',' ORDER BY id)) FROM block`,
		"tx":            `SELECT md5(string_agg(id || encode(hash, 'hex') || block_id || out_sum || size || valid_contract, ',' ORDER BY id)) FROM tx`,
		"stake_address": `SELECT md5(string_agg(id || view, ',' ORDER BY id)) FROM stake_address`,
		"multi_asset":   `SELECT md5(string_agg(id || fingerprint, ',' ORDER BY id)) FROM multi_asset`,
		"delegation":    `SELECT md5(string_agg(addr_id || ':' || pool_hash_id || ':' || tx_id, ',' ORDER BY id)) FROM delegation`,
		"reward":        `SELECT md5(string_agg(addr_id || type::text || amount || spendable_epoch, ',' ORDER BY addr_id, type, spendable_epoch, pool_id)) FROM reward`,
		"collateral":    `SELECT md5(string_agg(tx_id || ':' || index || ':' || value, ',' ORDER BY id)) FROM collateral_tx_out`,
		"ma_tx_mint":    `SELECT md5(string_agg(tx_id || ':' || ident || ':' || quantity, ',' ORDER BY id)) FROM ma_tx_mint`,
	}
	coreFee := queryString(t, core, `SELECT md5(string_agg(fee::text, ',' ORDER BY id)) FROM tx`)
	coreUnspent := outputDigest(t, core, Variant{Mode: ModeCore}, "unspent")
	for _, c := range layoutCases[1:] {
		v := c.v.normal()
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			db, m := sharedFor(t, v)
			for name, q := range digests {
				if a, b := queryString(t, core, q), queryString(t, db, q); a != b {
					t.Errorf("%s differs from the core layout", name)
				}
			}
			fee := queryString(t, db, `SELECT md5(string_agg(fee::text, ',' ORDER BY id)) FROM tx`)
			scriptHashes := queryInt(t, db, `SELECT count(script_hash) FROM redeemer`)
			if v.Mode.inOutDisabled() {
				// db-sync stores fee 0 and no redeemer script hash without outputs.
				if n := queryInt(t, db, `SELECT count(*) FROM tx WHERE fee <> 0`); n != 0 || scriptHashes != 0 {
					t.Errorf("%d non-zero fees, %d redeemer script hashes", n, scriptHashes)
				}
			} else if fee != coreFee || scriptHashes == 0 {
				t.Errorf("fees differ from the core layout, or no redeemer script hash (%d)", scriptHashes)
			}
			// The unspent outputs are those of the core layout, with their
			// addresses, in every layout that stores outputs.
			unspent := outputDigest(t, db, v, "unspent")
			if v.Mode == ModeDisable {
				if unspent != "" {
					t.Error("outputs stored with tx_out disabled")
				}
			} else if unspent != coreUnspent {
				t.Error("unspent outputs differ from the core layout")
			}
			if m.Tip != mc.Tip || m.Whale.Address != mc.Whale.Address || m.Whale.UTxOs != mc.Whale.UTxOs || m.Counts.Outputs != mc.Counts.Outputs {
				t.Error("the manifest describes another chain")
			}
		})
	}
}

// outputDigest digests the outputs a layout stores ("all") or the unspent
// ones ("unspent"), as (tx hash, index, address, value, asset count),
// reading the address from wherever the layout keeps it and deciding
// "unspent" as the layout allows (tx_in in core mode, consumed_by_tx_id
// otherwise). "" when there are none.
func outputDigest(t *testing.T, db *sql.DB, v Variant, which string) string {
	t.Helper()
	addr, join := "o.address", ""
	if v.AddressTable {
		addr, join = "a.address", "JOIN address a ON a.id = o.address_id"
	}
	where := "true"
	if which == "unspent" {
		where = "o.consumed_by_tx_id IS NULL"
		if v.normal().Mode == ModeCore {
			where = "NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)"
		}
	}
	return queryString(t, db, fmt.Sprintf(`SELECT md5(string_agg(encode(t.hash, 'hex') || ':' || o.index || ':' || %s || ':' || o.value
		|| ':' || (SELECT count(*) FROM ma_tx_out m WHERE m.tx_out_id = o.id), ',' ORDER BY t.hash, o.index))
		FROM tx_out o JOIN tx t ON t.id = o.tx_id %s WHERE %s`, addr, join, where))
}

// The address table holds each address once, with what tx_out carried in
// the core layout, and raw is the address's binary form.
func TestAddressVariant(t *testing.T) {
	t.Parallel()
	core, _ := sharedCore.get(t, ModeCore)
	v := Variant{Mode: ModeCore, AddressTable: true}
	db, _ := sharedFor(t, v)
	if a, b := outputDigest(t, core, Variant{}, "all"), outputDigest(t, db, v, "all"); a != b {
		t.Error("outputs differ from the core layout")
	}
	q := `SELECT md5(string_agg(x, ',' ORDER BY x)) FROM (SELECT DISTINCT %s AS x FROM %s) d`
	coreAddrs := queryString(t, core, fmt.Sprintf(q,
		`address || ':' || address_has_script || ':' || COALESCE(encode(payment_cred, 'hex'), '-') || ':' || COALESCE(stake_address_id, 0)`,
		`(SELECT address, address_has_script, payment_cred, stake_address_id FROM tx_out UNION ALL
		  SELECT address, address_has_script, payment_cred, stake_address_id FROM collateral_tx_out) o`))
	addrs := queryString(t, db, fmt.Sprintf(q,
		`address || ':' || has_script || ':' || COALESCE(encode(payment_cred, 'hex'), '-') || ':' || COALESCE(stake_address_id, 0)`, "address"))
	if coreAddrs != addrs {
		t.Error("address rows differ from the core layout's tx_out address columns")
	}
	if n := queryInt(t, db, `SELECT count(*) - count(DISTINCT raw) FROM address`); n != 0 {
		t.Errorf("%d duplicate addresses", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM collateral_tx_out c LEFT JOIN address a ON a.id = c.address_id WHERE a.id IS NULL`); n != 0 {
		t.Errorf("%d collateral outputs without their address", n)
	}
	rows, err := db.Query(`SELECT address, raw FROM address`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var text string
		var raw []byte
		if err := rows.Scan(&text, &raw); err != nil {
			t.Fatal(err)
		}
		a, err := common.NewAddressFromBytes(raw)
		if err != nil || a.String() != text {
			t.Errorf("raw of %s decodes to %v (%v)", text, a, err)
		}
		n++
	}
	if err := rows.Err(); err != nil || n == 0 {
		t.Fatalf("%d addresses, %v", n, err)
	}
}

// Prune deletes what db-sync's last prune run deleted: every output spent
// by a transaction up to MaxPrunedTxID, with its assets; the rest carry
// consumed_by_tx_id. The foreign key cascades.
func TestPruneVariant(t *testing.T) {
	t.Parallel()
	core, mc := sharedCore.get(t, ModeCore)
	db, m := sharedFor(t, Variant{Mode: ModePrune})
	f := m.Prune
	if f == nil || f.SecurityParam < 2 || f.PruneInterval != 10*f.SecurityParam || f.LastPruneBlockNo == 0 ||
		f.LastPruneBlockNo%f.PruneInterval != 0 || f.LastPruneBlockNo > mc.Tip.BlockNo || f.MaxPrunedTxID == 0 {
		t.Fatalf("prune facts %+v (tip block %d)", f, mc.Tip.BlockNo)
	}
	// The cut-off transaction is the last one at or below 2k blocks before
	// the last prune run.
	if id := queryInt(t, core, `SELECT max(t.id) FROM tx t JOIN block b ON b.id = t.block_id WHERE b.block_no <= $1`,
		f.LastPruneBlockNo-2*f.SecurityParam); id != f.MaxPrunedTxID {
		t.Errorf("max pruned tx %d, the blocks say %d", f.MaxPrunedTxID, id)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM tx_out WHERE consumed_by_tx_id <= $1`, f.MaxPrunedTxID); n != 0 {
		t.Errorf("%d outputs spent before the cut-off are still there", n)
	}
	kept := `SELECT md5(string_agg(encode(t.hash, 'hex') || ':' || o.index || ':' || o.value || ':' || COALESCE(%s, 0), ',' ORDER BY t.hash, o.index))
		FROM tx_out o JOIN tx t ON t.id = o.tx_id %s`
	want := queryString(t, core, fmt.Sprintf(kept, "i.tx_in_id",
		`LEFT JOIN tx_in i ON i.tx_out_id = o.tx_id AND i.tx_out_index = o.index WHERE i.tx_in_id IS NULL OR i.tx_in_id > $1`), f.MaxPrunedTxID)
	if got := queryString(t, db, fmt.Sprintf(kept, "o.consumed_by_tx_id", "")); got != want {
		t.Error("kept outputs and their consumed_by_tx_id differ from the core layout's")
	}
	if n := queryInt(t, db, `SELECT count(*) FROM tx_out WHERE consumed_by_tx_id IS NOT NULL`); n == 0 {
		t.Error("no spent output survives the prune: the test chain should keep some")
	}
	if n := queryInt(t, db, `SELECT last_value FROM tx_out_id_seq`); n != m.Counts.Outputs {
		t.Errorf("tx_out sequence %d, %d outputs were inserted", n, m.Counts.Outputs)
	}
	// Deleting an output takes its assets (in a transaction rolled back).
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	var out, assets int64
	if err := tx.QueryRow(`SELECT tx_out_id, count(*) FROM ma_tx_out GROUP BY 1 ORDER BY 1 LIMIT 1`).Scan(&out, &assets); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`DELETE FROM tx_out WHERE id = $1`, out); err != nil {
		t.Fatal(err)
	}
	var left int64
	if err := tx.QueryRow(`SELECT count(*) FROM ma_tx_out WHERE tx_out_id = $1`, out).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d of %d assets left after deleting their output (%v)", left, assets, err)
	}
}

// Bootstrap holds the UTxO set loaded from the ledger at the tip: only the
// unspent outputs, numbered in (tx hash, index) order, their assets
// numbered after them; the epoch views are off.
func TestBootstrapVariant(t *testing.T) {
	t.Parallel()
	db, m := sharedFor(t, Variant{Mode: ModeBootstrap})
	if n := queryInt(t, db, `SELECT count(*) FROM tx_out WHERE consumed_by_tx_id IS NOT NULL`); n != 0 {
		t.Errorf("%d spent outputs", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM (SELECT o.id, row_number() OVER (ORDER BY t.hash, o.index) AS n
		FROM tx_out o JOIN tx t ON t.id = o.tx_id) x WHERE id <> n`); n != 0 {
		t.Errorf("%d outputs not numbered in ledger order", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM (SELECT id, row_number() OVER (ORDER BY tx_out_id, id) AS n FROM ma_tx_out) x WHERE id <> n`); n != 0 {
		t.Errorf("%d assets not numbered after their outputs", n)
	}
	if m.Counts.TxOut == 0 || m.Counts.TxOut >= m.Counts.Outputs || m.Counts.TxOut != int64(countUnspent(t)) {
		t.Errorf("%d tx_out rows of %d outputs", m.Counts.TxOut, m.Counts.Outputs)
	}
	checkEpochViewOff(t, db)
}

func countUnspent(t *testing.T) int64 {
	core, _ := sharedCore.get(t, ModeCore)
	return queryInt(t, core, `SELECT count(*) FROM tx_out o WHERE NOT EXISTS (
		SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`)
}

// checkEpochViewOff: db-sync switches the epoch views off for bootstrap
// and disabled outputs and keeps no epoch_finalized rows.
func checkEpochViewOff(t *testing.T, db *sql.DB) {
	t.Helper()
	if on := queryString(t, db, `SELECT enabled::text FROM epoch_sync_enabled`); on != "false" {
		t.Errorf("epoch_sync_enabled.enabled = %s", on)
	}
	if n := queryInt(t, db, `SELECT (SELECT count(*) FROM epoch) + (SELECT count(*) FROM epoch_finalized)`); n != 0 {
		t.Errorf("%d epoch rows with the epoch view off", n)
	}
}

// Disabled outputs: no tx_in, tx_out or ma_tx_out at all; collateral
// outputs and reference inputs are still stored.
func TestDisableVariant(t *testing.T) {
	t.Parallel()
	db, _ := sharedFor(t, Variant{Mode: ModeDisable})
	if n := queryInt(t, db, `SELECT (SELECT count(*) FROM tx_in) + (SELECT count(*) FROM tx_out) + (SELECT count(*) FROM ma_tx_out)`); n != 0 {
		t.Errorf("%d input/output rows", n)
	}
	if n := queryInt(t, db, `SELECT (SELECT count(*) FROM collateral_tx_out) * (SELECT count(*) FROM reference_tx_in) * (SELECT count(*) FROM collateral_tx_in)`); n == 0 {
		t.Error("collateral and reference rows missing")
	}
	checkEpochViewOff(t, db)
	core, _ := sharedCore.get(t, ModeCore)
	if on := queryString(t, core, `SELECT enabled::text FROM epoch_sync_enabled`); on != "true" {
		t.Errorf("core layout: epoch_sync_enabled.enabled = %s", on)
	}
}

// 13.6: epoch is a table holding every epoch, the current one included,
// with the same figures the 13.7 epoch view computes.
func TestSchema136Epochs(t *testing.T) {
	t.Parallel()
	core, _ := sharedCore.get(t, ModeCore)
	db, _ := sharedFor(t, Variant{Mode: ModeCore, Schema: Schema136})
	if kind := queryString(t, db, `SELECT relkind::text FROM pg_class WHERE relname = 'epoch' AND relnamespace = current_schema()::regnamespace`); kind != "r" {
		t.Errorf("epoch relkind %q, want a table", kind)
	}
	for _, gone := range []string{"epoch_finalized", "epoch_current", "epoch_sync_enabled"} {
		if queryString(t, db, `SELECT to_regclass($1)::text`, gone) != "" {
			t.Errorf("%s exists on 13.6", gone)
		}
	}
	q := `SELECT count(*) || ' ' || md5(string_agg(id || ':' || no || ':' || out_sum || ':' || fees || ':' || tx_count || ':' || blk_count
		|| ':' || start_time || ':' || end_time, ',' ORDER BY no)) FROM epoch`
	if a, b := queryString(t, core, q), queryString(t, db, q); a != b {
		t.Errorf("13.6 epoch table %s, 13.7 epoch view %s", b, a)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM epoch`); n != numEpochs {
		t.Errorf("%d epoch rows, want %d", n, numEpochs)
	}
	if n := queryInt(t, db, `SELECT last_value FROM epoch_id_seq`); n != numEpochs {
		t.Errorf("epoch sequence at %d", n)
	}
}

// A database db-sync initialised for a variant (emulated) is loaded as it
// is.
func TestSeedIntoExistingVariantSchema(t *testing.T) {
	t.Parallel()
	for _, v := range []Variant{{Mode: ModePrune, AddressTable: true}, {Mode: ModeBootstrap, Schema: Schema136}} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			dsn, db := newTestDB(t)
			ctx := context.Background()
			if err := CreateVariantSchema(ctx, db, v); err != nil {
				t.Fatal(err)
			}
			if _, err := Seed(ctx, dsn, testVariantOptions(v)); err != nil {
				t.Fatal(err)
			}
			shared, _ := sharedFor(t, v)
			if a, b := outputDigest(t, shared, v, "all"), outputDigest(t, db, v, "all"); a != b || a == "" {
				t.Error("outputs differ from the generator's own schema")
			}
			// Keys and indexes the generator builds after its own load
			// match what db-sync's schema had before it (except stage 4).
			checkDBSyncSchema(t, db, v)
		})
	}
}
