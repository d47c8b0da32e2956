package answer

import (
	"context"
	"errors"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Asset answers are cached (caches.asset) under a key that holds the chain
// tip (block hash) they were read at, so a cached answer is never stale for
// its tip: a new mint, burn or reference-datum update is a new block, hence
// a new key. The TTL only bounds memory, and is short when the registry
// could not be asked (so its metadata appears once it is back).
const (
	assetCacheTTL    = 10 * time.Minute
	AssetDegradedTTL = 30 * time.Second
)

// assetInfoData is the spec's AssetInfo (OpenAPI "Asset").
type assetInfoData struct {
	PolicyID       string                 `json:"policy_id"`
	AssetName      string                 `json:"asset_name"`
	AssetNameASCII *string                `json:"asset_name_ascii"`
	Fingerprint    string                 `json:"fingerprint"`
	TotalSupply    string                 `json:"total_supply"`
	MintCount      int64                  `json:"mint_count"`
	BurnCount      int64                  `json:"burn_count"`
	FirstMintTx    string                 `json:"first_mint_tx"`
	FirstMintSlot  int64                  `json:"first_mint_slot"`
	FirstMintTime  string                 `json:"first_mint_time"`
	Metadata       *cardano.AssetMetadata `json:"metadata"`
	MetadataSource *string                `json:"metadata_source"`
}

// Asset answers GET /v1/assets/:asset: the asset's record, its metadata
// from src (auto: the chain's CIP-68, else CIP-25, else the registry).
func (s *Service) Asset(ctx context.Context, db *dbsync.DB, id cardano.AssetID, src dbsync.MetadataSource) ([]byte, error) {
	return s.byTipEnvelope(ctx, s.caches.asset, db, []string{id.String(), string(src)}, func(ctx context.Context, db *dbsync.DB) (wire.Envelope, time.Duration, error) {
		a, err := db.AssetInfo(ctx, id, src)
		if errors.Is(err, dbsync.ErrNotFound) {
			return wire.Envelope{}, 0, ErrAssetNotFound
		}
		if err != nil {
			return wire.Envelope{}, 0, err
		}
		data := assetData(a)
		ttl := assetCacheTTL
		if data.Metadata == nil && (src == dbsync.SourceAuto || src == dbsync.SourceRegistry) {
			md, definitive := s.opts.Registry.LookupStatus(ctx, id.Unit())
			if !definitive {
				ttl = AssetDegradedTTL // the registry did not answer: ask again soon
			}
			if md != nil {
				decimals := md.Decimals
				data.Metadata = &cardano.AssetMetadata{
					Name: md.Name, Ticker: md.Ticker, URL: md.URL, Logo: md.Logo, Decimals: &decimals,
				}
				if md.Description != "" {
					data.Metadata.Description = &md.Description
				}
				source := string(dbsync.SourceRegistry)
				data.MetadataSource = &source
			}
		}
		return ok(data), ttl, nil
	})
}

func assetData(a dbsync.Asset) assetInfoData {
	d := assetInfoData{
		PolicyID:      a.ID.PolicyHex(),
		AssetName:     a.ID.NameHex(),
		Fingerprint:   a.ID.Fingerprint(),
		TotalSupply:   a.TotalSupply.String(),
		MintCount:     a.MintCount,
		BurnCount:     a.BurnCount,
		FirstMintTx:   a.FirstMintTx,
		FirstMintSlot: a.FirstMintSlot,
		FirstMintTime: a.FirstMintTime.UTC().Format(time.RFC3339),
		Metadata:      a.Metadata,
	}
	if text, ok := a.ID.NameText(); ok {
		d.AssetNameASCII = &text
	}
	if a.Metadata != nil {
		source := string(a.MetadataSource)
		d.MetadataSource = &source
	}
	return d
}
