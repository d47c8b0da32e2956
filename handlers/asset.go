package handlers

import (
	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
)

// assetInfo: GET /v1/assets/:asset?metadata_source=auto|cip68|cip25|registry.
func (s *Server) assetInfo(c *gin.Context) error {
	id, err := cardano.ParseAssetID(c.Param("asset"))
	if err != nil {
		return httpx.ErrInvalidAssetID
	}
	src := dbsync.SourceAuto
	if raw, present := c.GetQuery("metadata_source"); present {
		var valid bool
		if src, valid = dbsync.ParseMetadataSource(raw); !valid {
			return httpx.ErrInvalidMetaSrc
		}
	}
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.Asset(c.Request.Context(), db, id, src))
}

// assetHolders: GET /v1/assets/:asset/holders?limit&offset (largest
// holding first; the stake-account lists' paging rules).
func (s *Server) assetHolders(c *gin.Context) error {
	id, err := cardano.ParseAssetID(c.Param("asset"))
	if err != nil {
		return httpx.ErrInvalidAssetID
	}
	q, err := accountQuery(c, false)
	if err != nil {
		return err
	}
	db, err := s.chainDB(c)
	if err != nil {
		return err
	}
	return answered(c)(s.answers.AssetHolders(c.Request.Context(), db, id, q))
}
