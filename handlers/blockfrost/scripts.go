package blockfrost

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/bf"
)

func (a *API) scriptRoutes() []Route {
	return []Route{
		{Method: http.MethodGet, Path: "/scripts", Group: admin.GroupChain, Chain: true, Handle: a.scripts},
		{Method: http.MethodGet, Path: "/scripts/:script_hash", Group: admin.GroupChain, Chain: true, Handle: a.script},
		{Method: http.MethodGet, Path: "/scripts/:script_hash/json", Group: admin.GroupChain, Chain: true, Handle: a.scriptJSON},
		{Method: http.MethodGet, Path: "/scripts/:script_hash/cbor", Group: admin.GroupChain, Chain: true, Handle: a.scriptCBOR},
		{Method: http.MethodGet, Path: "/scripts/:script_hash/redeemers", Group: admin.GroupHistory, Chain: true, Handle: a.scriptRedeemers},
		{Method: http.MethodGet, Path: "/scripts/:script_hash/utxos", Group: admin.GroupChain, Chain: true,
			Needs: []dbsync.Facts{dbsync.FactsUnspent}, Handle: a.scriptUTxOs},
		{Method: http.MethodGet, Path: "/scripts/datum/:datum_hash", Group: admin.GroupChain, Chain: true, Handle: a.datum},
		{Method: http.MethodGet, Path: "/scripts/datum/:datum_hash/cbor", Group: admin.GroupChain, Chain: true, Handle: a.datumCBOR},
	}
}

// scripts: GET /scripts.
func (a *API) scripts(c *gin.Context) error {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.Scripts(c.Request.Context(), db, p))
}

// scriptHash resolves the caller's network and parses {script_hash}.
func (a *API) scriptHash(c *gin.Context) (*dbsync.DB, bf.ScriptHash, error) {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return nil, bf.ScriptHash{}, err
	}
	h, valid := bf.ParseScriptHash(c.Param("script_hash"))
	if !valid {
		return nil, h, errScriptHash
	}
	return db, h, nil
}

// script: GET /scripts/{script_hash}.
func (a *API) script(c *gin.Context) error {
	db, h, err := a.scriptHash(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.Script(c.Request.Context(), db, h))
}

// scriptJSON: GET /scripts/{script_hash}/json.
func (a *API) scriptJSON(c *gin.Context) error {
	db, h, err := a.scriptHash(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.ScriptJSON(c.Request.Context(), db, h))
}

// scriptCBOR: GET /scripts/{script_hash}/cbor.
func (a *API) scriptCBOR(c *gin.Context) error {
	db, h, err := a.scriptHash(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.ScriptCBOR(c.Request.Context(), db, h))
}

// scriptRedeemers: GET /scripts/{script_hash}/redeemers.
func (a *API) scriptRedeemers(c *gin.Context) error {
	db, h, err := a.scriptHash(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.ScriptRedeemers(c.Request.Context(), db, h, p))
}

// scriptUTxOs: GET /scripts/{script_hash}/utxos.
func (a *API) scriptUTxOs(c *gin.Context) error {
	db, h, err := a.scriptHash(c)
	if err != nil {
		return err
	}
	p, err := paging(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.ScriptUTxOs(c.Request.Context(), db, h, p))
}

// datumHash resolves the caller's network and parses {datum_hash}.
func (a *API) datumHash(c *gin.Context) (*dbsync.DB, bf.DatumHash, error) {
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return nil, bf.DatumHash{}, err
	}
	h, valid := bf.ParseDatumHash(c.Param("datum_hash"))
	if !valid {
		return nil, h, errDatumHash
	}
	return db, h, nil
}

// datum: GET /scripts/datum/{datum_hash}.
func (a *API) datum(c *gin.Context) error {
	db, h, err := a.datumHash(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.Datum(c.Request.Context(), db, h))
}

// datumCBOR: GET /scripts/datum/{datum_hash}/cbor.
func (a *API) datumCBOR(c *gin.Context) error {
	db, h, err := a.datumHash(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.DatumCBOR(c.Request.Context(), db, h))
}
