// Package assets reads native assets as Blockfrost's asset routes describe
// them: one asset with its mint history's sums and the metadata it carries
// on chain (CIP-25 label 721, CIP-68 reference datum), the assets of a
// policy or of the whole chain, an asset's mints and burns, and the
// addresses holding one. Pages are cut in an index alone (no rows read
// for the items skipped) and each answer is read in one snapshot.
package assets

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
)

var (
	sqlAsset       = engine.Fixed("dbsync/assets_asset.sql")
	sqlCIP68Datum  = engine.Template("dbsync/assets_cip68_datum.sql", engine.AlwaysGeneric, nil)
	sqlPolicyAsc   = engine.Template("dbsync/assets_policy.sql", engine.AlwaysGeneric, asc)
	sqlPolicyDesc  = engine.Template("dbsync/assets_policy.sql", engine.AlwaysGeneric, desc)
	sqlPolicyKnown = engine.Fixed("dbsync/assets_policy_known.sql")
	sqlListAsc     = engine.Template("dbsync/assets_list.sql", engine.AlwaysGeneric, asc)
	sqlListDesc    = engine.Template("dbsync/assets_list.sql", engine.AlwaysGeneric, desc)
	sqlHistoryAsc  = engine.Template("dbsync/assets_history.sql", engine.AlwaysGeneric, asc)
	sqlHistoryDesc = engine.Template("dbsync/assets_history.sql", engine.AlwaysGeneric, desc)
	sqlHolders     = engine.Template("dbsync/assets_holders.sql", engine.AlwaysGeneric, nil)
	sqlUTxOs       = engine.Template("dbsync/assets_utxos.sql", engine.AlwaysGeneric, nil)
	sqlTxsAsc      = engine.Template("dbsync/assets_txs.sql", engine.AlwaysGeneric, asc)
	sqlTxsDesc     = engine.Template("dbsync/assets_txs.sql", engine.AlwaysGeneric, desc)
)

// Each list is rendered in both directions: an ORDER BY that picks its
// direction from a parameter cannot walk an index.
var asc, desc = map[string]any{"Order": "ASC"}, map[string]any{"Order": "DESC"}

// Page selects Limit items after Offset, oldest first unless Desc (then
// counted from the newest).
type Page struct {
	Offset, Limit int
	Desc          bool
}

func ordered(db *dbsync.DB, desc bool, ascending, descending *dbsync.Statement) dbsync.Query {
	if desc {
		return db.SQL(descending)
	}
	return db.SQL(ascending)
}

// Asset is one asset as db-sync's mints describe it.
type Asset struct {
	Quantity          string `db:"quantity"` // the sum of its mints and burns
	MintOrBurnCount   int64  `db:"mint_or_burn_count"`
	InitialMintTxHash string `db:"initial_mint_tx_hash"`
	// CIP25JSON and CIP25CBOR are the label-721 metadata of the latest
	// minting transaction carrying one (db-sync's JSON; the CBOR of the
	// map {721: …}); nil when none does.
	CIP25JSON *string `db:"cip25_json"`
	CIP25CBOR []byte  `db:"cip25_cbor"`
	// CIP68Datum is the CBOR of a CIP-68 user token's reference datum
	// (nil for other assets, or when none is known).
	CIP68Datum []byte `db:"-"`
}

// Read returns the asset, or dbsync.ErrNotFound for one never minted.
func Read(ctx context.Context, db *dbsync.DB, id cardano.AssetID) (Asset, error) {
	var a Asset
	err := db.Reader().ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		if err := tx.GetContext(ctx, &a, sqlAsset, id.Policy[:], nonNil(id.Name)); err != nil {
			return err
		}
		ref, ok := id.CIP68Reference()
		if !ok {
			return nil
		}
		var datum []byte
		err := tx.GetContext(ctx, &datum, db.SQL(sqlCIP68Datum), ref.Policy[:], ref.Name)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		a.CIP68Datum = datum
		return nil
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Asset{}, dbsync.ErrNotFound
	}
	return a, wrap("Read", err)
}

// Quantity is one asset of a list with the sum of its mints and burns.
type Quantity struct {
	Asset    string `db:"asset" json:"asset"` // policy and name, hex
	Quantity string `db:"quantity" json:"quantity"`
}

// List returns a page of every asset, in the order db-sync first saw them
// (a deep page from a keyset anchor: anchors.go).
func List(ctx context.Context, db *dbsync.DB, p Page) ([]Quantity, error) {
	var items []Quantity
	err := db.Reader().ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		var err error
		items, err = listPage(ctx, db, tx, p)
		return err
	})
	return items, wrap("List", err)
}

// Policy returns a page of the policy's assets in the order db-sync first
// saw them (a deep page from a keyset anchor: anchors.go), or
// dbsync.ErrNotFound for a policy with none.
func Policy(ctx context.Context, db *dbsync.DB, policy []byte, p Page) ([]Quantity, error) {
	var items []Quantity
	err := db.Reader().ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		var err error
		if items, err = policyPage(ctx, db, tx, policy, p); err != nil {
			return err
		}
		if len(items) > 0 {
			return nil
		}
		var known bool
		if err := tx.GetContext(ctx, &known, sqlPolicyKnown, policy); err != nil {
			return err
		}
		if !known {
			return dbsync.ErrNotFound
		}
		return nil
	})
	return items, wrap("Policy", err)
}

// Action is one mint or burn of an asset.
type Action struct {
	TxHash   string `db:"tx_hash"`
	Quantity string `db:"quantity"` // negative for a burn
}

// History returns a page of the asset's mints and burns in chain order
// (empty for an asset never minted: the caller tells it apart).
func History(ctx context.Context, db *dbsync.DB, id cardano.AssetID, p Page) ([]Action, error) {
	items := []Action{}
	err := db.Reader().Select(ctx, &items, ordered(db, p.Desc, sqlHistoryAsc, sqlHistoryDesc), id.Policy[:], nonNil(id.Name), p.Limit, p.Offset)
	return items, wrap("History", err)
}

// Tx is a transaction with an output carrying an asset.
type Tx struct {
	TxHash      string `db:"tx_hash"`
	TxIndex     int    `db:"tx_index"`
	BlockHeight int64  `db:"block_height"`
	BlockTime   int64  `db:"block_time"`
}

// Txs returns a page of the transactions with an output carrying the
// asset, in chain order, with ids in [within[0], within[1]) when within is
// given (empty for an asset never minted: the caller tells it apart).
func Txs(ctx context.Context, db *dbsync.DB, id cardano.AssetID, p Page, within *[2]int64) ([]Tx, error) {
	lo, hi := int64(0), int64(math.MaxInt64)
	if within != nil {
		lo, hi = within[0], within[1]
	}
	items := []Tx{}
	err := db.Reader().Select(ctx, &items, ordered(db, p.Desc, sqlTxsAsc, sqlTxsDesc), id.Policy[:], nonNil(id.Name), p.Limit, p.Offset, lo, hi)
	return items, wrap("Txs", err)
}

// Holder is an address holding an asset in its unspent outputs.
type Holder struct {
	Address  string `db:"address" json:"address"`
	Quantity string `db:"quantity" json:"quantity"`
}

// Holders returns every address holding the asset in its unspent outputs,
// in the order of the first of them each still has.
func Holders(ctx context.Context, db *dbsync.DB, id cardano.AssetID) ([]Holder, error) {
	items := []Holder{}
	err := db.Reader().Select(ctx, &items, db.SQL(sqlHolders), id.Policy[:], nonNil(id.Name))
	return items, wrap("Holders", err)
}

// UTxO is an unspent output holding an asset.
type UTxO struct {
	Address             string  `db:"address"`
	TxHash              string  `db:"tx_hash"`
	OutputIndex         int     `db:"output_index"`
	Lovelace            string  `db:"lovelace"`
	Assets              string  `db:"assets"` // JSON [{unit, quantity}], by policy then name
	Block               string  `db:"block"`
	BlockHeight         *int64  `db:"block_height"`
	BlockTime           int64   `db:"block_time"`
	DataHash            *string `db:"data_hash"`
	InlineDatum         *string `db:"inline_datum"`
	InlineDatumJSON     *string `db:"inline_datum_json"`
	ReferenceScriptHash *string `db:"reference_script_hash"`
}

// UTxOs returns every unspent output holding the asset, in chain order.
func UTxOs(ctx context.Context, db *dbsync.DB, id cardano.AssetID) ([]UTxO, error) {
	items := []UTxO{}
	err := db.Reader().Select(ctx, &items, db.SQL(sqlUTxOs), id.Policy[:], nonNil(id.Name))
	return items, wrap("UTxOs", err)
}

// nonNil makes an empty asset name the empty bytea, not NULL.
func nonNil(b []byte) []byte { return append([]byte{}, b...) }

func wrap(call string, err error) error {
	if err == nil || errors.Is(err, dbsync.ErrNotFound) {
		return err
	}
	return fmt.Errorf("assets.%s: %w", call, err)
}
