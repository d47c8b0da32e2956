package dbsync

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/big"
	"time"
)

var (
	sqlAssetInfo       = load("dbsync/asset_info.sql")
	sqlAssetCIP25      = load("dbsync/asset_cip25.sql")
	sqlAssetCIP68Datum = layoutStatement("dbsync/asset_cip68_datum.sql", alwaysGeneric, nil)
)

// MetadataSource selects where asset metadata comes from (the metadata_source query parameter).
type MetadataSource string

const (
	SourceAuto     MetadataSource = "auto"
	SourceCIP68    MetadataSource = "cip68"
	SourceCIP25    MetadataSource = "cip25"
	SourceRegistry MetadataSource = "registry"
)

// ParseMetadataSource accepts exactly auto, cip68, cip25 or registry.
func ParseMetadataSource(s string) (MetadataSource, bool) {
	switch src := MetadataSource(s); src {
	case SourceAuto, SourceCIP68, SourceCIP25, SourceRegistry:
		return src, true
	}
	return "", false
}

// Asset is what db-sync knows about one native asset, read in one snapshot.
type Asset struct {
	ID            cardano.AssetID
	TotalSupply   *big.Int
	MintCount     int64
	BurnCount     int64
	FirstMintTx   string
	FirstMintSlot int64
	FirstMintTime time.Time
	// Metadata is the on-chain metadata the source asked for (nil when
	// none was found or the source is the registry), MetadataSource its
	// origin (SourceCIP68 or SourceCIP25).
	Metadata       *cardano.AssetMetadata
	MetadataSource MetadataSource
	// Tip is the chain tip of the snapshot the answer was read in.
	Tip Tip
}

type assetInfoRow struct {
	Ident         int64         `db:"ident"`
	TotalSupply   string        `db:"total_supply"`
	MintCount     int64         `db:"mint_count"`
	BurnCount     int64         `db:"burn_count"`
	LastMintTxID  sql.NullInt64 `db:"last_mint_tx_id"`
	FirstMintTx   string        `db:"first_mint_tx"`
	FirstMintSlot sql.NullInt64 `db:"first_mint_slot"`
	FirstMintTime time.Time     `db:"first_mint_time"`
}

type cip68Row struct {
	RefTxID int64          `db:"ref_tx_id"`
	Datum   sql.NullString `db:"datum"`
}

// AssetInfo returns an asset's supply, mint history and on-chain metadata
// for src: SourceCIP68 reads only the reference datum, SourceCIP25 only the
// latest mint's label 721, SourceAuto CIP-68 first then CIP-25, and
// SourceRegistry neither (the registry is not db-sync's business). All
// statements run in one REPEATABLE READ snapshot. An asset that was never
// minted is ErrNotFound.
func (db *DB) AssetInfo(ctx context.Context, id cardano.AssetID, src MetadataSource) (a Asset, err error) {
	defer func() {
		if err != nil && !errors.Is(err, ErrNotFound) {
			err = fmt.Errorf("dbsync.AssetInfo(%s): %w", id, err)
		}
	}()
	err = db.ReadTx(ctx, func(tx *Snapshot) error {
		var err error
		if a.Tip, err = tipIn(ctx, tx); err != nil {
			return err
		}
		var row assetInfoRow
		if err := tx.GetContext(ctx, &row, sqlAssetInfo, id.Policy[:], id.Name); err != nil {
			return err
		}
		supply, err := parseQuantity(row.TotalSupply)
		if err != nil {
			return err
		}
		a.ID, a.TotalSupply, a.MintCount, a.BurnCount = id, supply, row.MintCount, row.BurnCount
		a.FirstMintTx, a.FirstMintSlot, a.FirstMintTime = row.FirstMintTx, row.FirstMintSlot.Int64, AsUTC(row.FirstMintTime)

		if src == SourceAuto || src == SourceCIP68 {
			md, err := db.cip68Metadata(ctx, tx, id)
			if err != nil {
				return err
			}
			if md != nil {
				a.Metadata, a.MetadataSource = md, SourceCIP68
				return nil
			}
		}
		if (src == SourceAuto || src == SourceCIP25) && row.LastMintTxID.Valid {
			var label sql.NullString
			err := tx.GetContext(ctx, &label, sqlAssetCIP25, row.LastMintTxID.Int64)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			if label.Valid {
				if md, ok := cardano.DecodeCIP25([]byte(label.String), id); ok {
					a.Metadata, a.MetadataSource = md, SourceCIP25
				}
			}
		}
		return nil
	})
	return a, err
}

// cip68Metadata reads the current reference datum of a CIP-68 user token;
// nil for other assets, or when the reference NFT is not in the UTxO, has
// no known datum, or the datum is not CIP-68 metadata.
func (db *DB) cip68Metadata(ctx context.Context, tx *Snapshot, id cardano.AssetID) (*cardano.AssetMetadata, error) {
	ref, ok := id.CIP68Reference()
	if !ok {
		return nil, nil
	}
	var row cip68Row
	if err := tx.GetContext(ctx, &row, db.sql(sqlAssetCIP68Datum), ref.Policy[:], ref.Name); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		return nil, err
	}
	if !row.Datum.Valid {
		return nil, nil
	}
	md, ok := cardano.DecodeCIP68([]byte(row.Datum.String), id)
	if !ok {
		return nil, nil
	}
	return md, nil
}
