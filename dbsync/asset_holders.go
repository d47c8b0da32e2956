package dbsync

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/syncgate/syncgate/internal/cardano"
)

var (
	sqlAssetKnown   = load("dbsync/asset_known.sql")
	sqlAssetHolders = layoutStatement("dbsync/asset_holders.sql", alwaysGeneric, nil)
)

// AssetHolder is one address holding an asset in its unspent outputs.
type AssetHolder struct {
	Address  string
	Quantity string // the sum over the address's unspent outputs
}

// AssetHolders returns one page of the addresses whose unspent outputs hold
// the asset, largest holding first (address order breaks ties), with their
// count, read in one snapshot with its tip. An asset that was never minted
// is ErrNotFound; one that was, but is held by no unspent output (all
// burnt), is an empty page.
func (db *DB) AssetHolders(ctx context.Context, id cardano.AssetID, q AccountQuery) (AccountPage[AssetHolder], error) {
	page := AccountPage[AssetHolder]{Items: []AssetHolder{}}
	err := db.ReadTx(ctx, func(tx *Snapshot) error {
		var head struct {
			Tip
			Known bool `db:"known"`
		}
		switch err := tx.GetContext(ctx, &head, sqlAssetKnown, id.Policy[:], nonNil(id.Name)); {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("%w: db-sync holds no blocks yet", ErrUnavailable)
		case err != nil:
			return err
		case !head.Known:
			return ErrNotFound
		}
		head.BlockTime = AsUTC(head.BlockTime)
		page.Tip = head.Tip
		var rows []struct {
			pageRow
			Address  *string `db:"address"`
			Quantity *string `db:"quantity"`
		}
		if err := tx.SelectContext(ctx, &rows, db.sql(sqlAssetHolders), id.Policy[:], q.Limit, q.Offset, nonNil(id.Name)); err != nil {
			return err
		}
		for _, r := range rows {
			page.Total = r.Total
			if r.N != nil {
				page.Items = append(page.Items, AssetHolder{Address: *r.Address, Quantity: *r.Quantity})
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return AccountPage[AssetHolder]{}, fmt.Errorf("dbsync.AssetHolders: %w", err)
	}
	return page, err
}

// nonNil makes an empty asset name the empty bytea, not NULL.
func nonNil(b []byte) []byte { return append([]byte{}, b...) }
