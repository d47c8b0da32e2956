package answer

import (
	"context"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/service/registry"
)

// DialectHistoryPage is another dialect's page of an address's
// transaction history (build reads it with db.TxHistory, counting through
// counter, and encodes it),
// cached as /v1's history pages are (historyPage): first pages kept
// across tips while no block touches the address, pages asked for again
// under the tip, the others built each time. params name the page's list
// (the dialect's and the route's names first); q's page is added to them.
func (s *Service) DialectHistoryPage(ctx context.Context, db *dbsync.DB, addr cardano.Address, q dbsync.HistoryQuery, params []string, build func(context.Context, *dbsync.DB, dbsync.TotalCounter) ([]byte, dbsync.Tip, error)) ([]byte, error) {
	return s.historyPage(ctx, db, addr, q, params, func(ctx context.Context, db *dbsync.DB) ([]byte, dbsync.Tip, error) {
		return build(ctx, db, s.historyTotal(db, addr))
	})
}

// RegistryMetadata is the token registry's metadata of an asset (its
// unit: policy and name in hex), nil when it has none; answered is false
// when the registry could not be asked (then nil says nothing).
func (s *Service) RegistryMetadata(ctx context.Context, unit string) (md *registry.Metadata, answered bool) {
	return s.opts.Registry.LookupStatus(ctx, unit)
}
