package handlers

import (
	"context"
	"errors"
	"github.com/syncgate/syncgate/internal/cardano"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
)

// Asset answers are cached (caches.asset) under a key that holds the chain
// tip (block hash) they were read at, so a cached answer is never stale for
// its tip: a new mint, burn or reference-datum update is a new block, hence
// a new key. The TTL only bounds memory, and is short when the registry
// could not be asked (so its metadata appears once it is back).
const (
	assetCacheTTL         = 10 * time.Minute
	assetCacheDegradedTTL = 30 * time.Second
)

// assetInfoData is the asset record (OpenAPI schema Asset).
type assetInfoData struct {
	PolicyID       string                `json:"policy_id"`
	AssetName      string                `json:"asset_name"`
	AssetNameASCII *string               `json:"asset_name_ascii"`
	Fingerprint    string                `json:"fingerprint"`
	TotalSupply    string                `json:"total_supply"`
	MintCount      int64                 `json:"mint_count"`
	BurnCount      int64                 `json:"burn_count"`
	FirstMintTx    string                `json:"first_mint_tx"`
	FirstMintSlot  int64                 `json:"first_mint_slot"`
	FirstMintTime  string                `json:"first_mint_time"`
	Metadata       *dbsync.AssetMetadata `json:"metadata"`
	MetadataSource *string               `json:"metadata_source"`
}

// assetInfo: GET /v1/assets/:asset?metadata_source=auto|cip68|cip25|registry.
func (s *Server) assetInfo(c *gin.Context) error {
	id, err := cardano.ParseAssetID(c.Param("asset"))
	if err != nil {
		return errInvalidAssetID
	}
	src := dbsync.SourceAuto
	if raw, present := c.GetQuery("metadata_source"); present {
		var valid bool
		if src, valid = dbsync.ParseMetadataSource(raw); !valid {
			return errInvalidMetaSrc
		}
	}
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	return s.servedByTip(c, s.caches.asset, db, []string{id.String(), string(src)}, func(ctx context.Context) (envelope, time.Duration, error) {
		a, err := db.AssetInfo(ctx, id, src)
		if errors.Is(err, dbsync.ErrNotFound) {
			return envelope{}, 0, errAssetNotFound
		}
		if err != nil {
			return envelope{}, 0, err
		}
		data := assetData(a)
		ttl := assetCacheTTL
		if data.Metadata == nil && (src == dbsync.SourceAuto || src == dbsync.SourceRegistry) {
			md, definitive := s.deps.Registry.LookupStatus(ctx, id.Unit())
			if !definitive {
				ttl = assetCacheDegradedTTL // the registry did not answer: ask again soon
			}
			if md != nil {
				decimals := md.Decimals
				data.Metadata = &dbsync.AssetMetadata{
					Name: md.Name, Ticker: md.Ticker, URL: md.URL, Logo: md.Logo, Decimals: &decimals,
				}
				if md.Description != "" {
					data.Metadata.Description = &md.Description
				}
				source := string(dbsync.SourceRegistry)
				data.MetadataSource = &source
			}
		}
		return envelope{Success: true, Data: data}, ttl, nil
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

// servedByTip answers from the response cached in answers under (network,
// current tip, params) when there is one; otherwise build makes the
// envelope, which is sent and cached for the TTL build gives (its 404 too,
// for notFoundTTL). The request is pinned to one db-sync server
// (dbsync.Pin): the tip in the key is one that server had at most
// dbsync.RecentTipMaxAge ago, and the answer is read after it on the same
// server (or on the primary, which is ahead of every replica, if that
// server leaves rotation), so a cached answer is never older than its
// key's tip, even with replicas that lag each other. When the tip cannot
// be read it just builds.
func (s *Server) servedByTip(c *gin.Context, answers *cache.Cache[[]byte], db *dbsync.DB, params []string, build func(context.Context) (envelope, time.Duration, error)) error {
	return s.servedBytesByTip(c, answers, db, params, func(ctx context.Context) ([]byte, time.Duration, error) {
		env, ttl, err := build(ctx)
		if err != nil {
			return nil, 0, err
		}
		b, err := encodeJSON(env)
		return b, ttl, err
	})
}

// servedBytesByTip is servedByTip for answers build encodes itself.
func (s *Server) servedBytesByTip(c *gin.Context, answers *cache.Cache[[]byte], db *dbsync.DB, params []string, build func(context.Context) ([]byte, time.Duration, error)) error {
	ctx := db.Pin(c.Request.Context())
	var b []byte
	var err error
	if tip, tipErr := db.RecentTip(ctx); tipErr == nil {
		key := db.Network.Name + ":" + tip.BlockHash + ":" + strings.Join(params, ":")
		b, err = answers.GetTTL(ctx, key, build)
	} else {
		b, _, err = build(ctx)
	}
	if err != nil {
		return err
	}
	c.Data(http.StatusOK, contentType, b)
	return nil
}
