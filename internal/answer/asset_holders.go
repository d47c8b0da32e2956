package answer

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/cardano"
)

type assetHolderJSON struct {
	Address  string `json:"address"`
	Quantity string `json:"quantity"`
}

// AssetHolders answers GET /v1/assets/:asset/holders: one page of the
// addresses holding the asset, largest holding first, cached under the tip
// it was read at (caches.assetHolders).
func (s *Service) AssetHolders(ctx context.Context, db *dbsync.DB, id cardano.AssetID, q dbsync.AccountQuery) ([]byte, error) {
	params := []string{id.String(), strconv.Itoa(q.Limit), strconv.Itoa(q.Offset)}
	return s.byTipEnvelope(ctx, s.caches.assetHolders, db, params, func(ctx context.Context, db *dbsync.DB) (wire.Envelope, time.Duration, error) {
		page, err := db.AssetHolders(ctx, id, q)
		if errors.Is(err, dbsync.ErrNotFound) {
			return wire.Envelope{}, 0, ErrAssetNotFound
		}
		if err != nil {
			return wire.Envelope{}, 0, err
		}
		items := make([]assetHolderJSON, len(page.Items))
		for i, h := range page.Items {
			items[i] = assetHolderJSON{Address: h.Address, Quantity: h.Quantity}
		}
		p, lu := wire.NewPagination(q.Limit, q.Offset, len(items), page.Total), lastUpdatedOf(page.Tip)
		return wire.Envelope{Success: true, Data: items, Pagination: &p, LastUpdated: &lu}, assetCacheTTL, nil
	})
}
