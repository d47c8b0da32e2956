package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
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
	// chainTipMaxAge is how long an instance trusts the tip it last saw
	// before asking db-sync again; it bounds how stale a cached answer can
	// be served, and keeps the warm path to one Redis round trip.
	chainTipMaxAge = time.Second
)

// assetInfoData is the spec's AssetInfo (§2.8).
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
	id, err := dbsync.ParseAssetID(c.Param("asset"))
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

// chainTips remembers, per db-sync database, the last tip hash seen and
// when, so an answer cached under the tip can be found without asking
// db-sync (asset info, pool info, delegator pages).
var chainTips tipMemo

type tipMemo struct {
	mu sync.Mutex
	m  map[*dbsync.DB]tipSeen
}

type tipSeen struct {
	hash string
	at   time.Time
}

// get returns a tip hash no older than chainTipMaxAge, asking db-sync when
// the remembered one is older.
func (t *tipMemo) get(ctx context.Context, db *dbsync.DB) (string, bool) {
	t.mu.Lock()
	seen, found := t.m[db]
	t.mu.Unlock()
	if found && time.Since(seen.at) < chainTipMaxAge {
		return seen.hash, true
	}
	tip, err := db.Tip(ctx)
	if err != nil {
		return "", false
	}
	t.observe(db, tip.BlockHash)
	return tip.BlockHash, true
}

func (t *tipMemo) observe(db *dbsync.DB, hash string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[*dbsync.DB]tipSeen{}
	}
	t.m[db] = tipSeen{hash: hash, at: time.Now()}
}

// forget drops what is remembered for db (the next request asks db-sync).
func (t *tipMemo) forget(db *dbsync.DB) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, db)
}

// servedByTip answers from the response cached in answers under (network,
// current tip, params) when there is one; otherwise build makes the
// envelope, which is sent and cached for the TTL build gives (its 404 too,
// for notFoundTTL). The tip in the key is one the instance saw at most
// chainTipMaxAge ago and the answer is read after it, so a cached answer is
// never older than its key's tip. When the tip cannot be read it just
// builds.
func (s *Server) servedByTip(c *gin.Context, answers *cache.Cache[[]byte], db *dbsync.DB, params []string, build func(context.Context) (envelope, time.Duration, error)) error {
	ctx := c.Request.Context()
	encoded := func(ctx context.Context) ([]byte, time.Duration, error) {
		env, ttl, err := build(ctx)
		if err != nil {
			return nil, 0, err
		}
		b, err := encodeJSON(env)
		return b, ttl, err
	}
	var b []byte
	var err error
	if tip, known := chainTips.get(ctx, db); known {
		key := db.Network.Name + ":" + tip + ":" + strings.Join(params, ":")
		b, err = answers.GetTTL(ctx, key, encoded)
	} else {
		b, _, err = encoded(ctx)
	}
	if err != nil {
		return err
	}
	c.Data(http.StatusOK, contentType, b)
	return nil
}
