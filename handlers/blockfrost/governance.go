package blockfrost

import (
	"encoding/hex"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Governance identifiers' 400s.
var (
	errDRepID      = httpx.NewAPIError(http.StatusBadRequest, "Invalid or malformed drep id: expected drep1… (CIP-105 or CIP-129), drep_script1…, its hex, drep_always_abstain or drep_always_no_confidence")
	errGovActionID = httpx.NewAPIError(http.StatusBadRequest, "Invalid or malformed governance action id: expected a CIP-129 gov_action1… id, or a transaction hash and a certificate index")
	errCertIndex   = httpx.ErrInvalidParam("cert_index", "must be an integer from 0 to 2147483647")
	errCCID        = httpx.NewAPIError(http.StatusBadRequest, "Invalid or malformed committee credential: expected a CIP-129 cc_hot1… or cc_cold1… id")
	errOrderBy     = httpx.ErrInvalidParam("order_by", "must be amount")
	errRetired     = httpx.ErrInvalidParam("retired", "must be true or false")
	errExpired     = httpx.ErrInvalidParam("expired", "must be true or false")
)

// governanceRoutes: gin needs one name for a path segment, so the
// proposal routes by {tx_hash}/{cert_index} are mounted under the name
// of {gov_action_id}'s segment (the handlers tell them apart by their
// second segment).
func (a *API) governanceRoutes() []Route {
	get := func(path string, h func(*gin.Context) error) Route {
		return Route{Method: http.MethodGet, Path: path, Group: admin.GroupChain, Chain: true, Handle: h}
	}
	live := func(r Route) Route { r.Needs = []dbsync.Facts{dbsync.FactsUnspent}; return r }
	ans := a.deps.Answers
	routes := []Route{
		get("/governance/dreps", a.dreps),
		get("/governance/dreps/:drep_id", one(a, drepID, ans.DRep)),
		live(get("/governance/dreps/:drep_id/delegators", paged(a, drepID, ans.DRepDelegators))),
		get("/governance/dreps/:drep_id/metadata", one(a, drepID, ans.DRepMetadata)),
		get("/governance/dreps/:drep_id/updates", paged(a, drepID, ans.DRepUpdates)),
		get("/governance/dreps/:drep_id/votes", paged(a, drepID, ans.DRepVotes)),
		get("/governance/proposals", a.list(ans.Proposals)),
		get("/governance/committee", a.whole(ans.Committee)),
		get("/governance/committee/votes", a.list(ans.CommitteeVotes)),
		get("/governance/committee/:cc_id/votes", paged(a, committeeID, ans.CommitteeMemberVotes)),
	}
	for _, byIndex := range []bool{false, true} {
		base := "/governance/proposals/:gov_action_id"
		if byIndex {
			base += "/:cert_index"
		}
		action := func(c *gin.Context) (cardano.GovActionID, error) { return govAction(c, byIndex) }
		routes = append(routes,
			get(base, one(a, action, ans.Proposal)),
			get(base+"/parameters", one(a, action, ans.ProposalParameters)),
			get(base+"/metadata", one(a, action, func(ctx ctxT, db *dbsync.DB, g cardano.GovActionID) ([]byte, error) {
				return ans.ProposalMetadata(ctx, db, g, !byIndex)
			})),
			get(base+"/votes", paged(a, action, ans.ProposalVotes)),
			get(base+"/withdrawals", paged(a, action, ans.ProposalWithdrawals)),
		)
	}
	return routes
}

// committeeID is the {cc_id} of a committee member's route.
func committeeID(c *gin.Context) (cardano.CommitteeID, error) {
	cc, err := cardano.ParseCommitteeID(c.Param("cc_id"))
	if err != nil {
		return cc, errCCID
	}
	return cc, nil
}

func drepID(c *gin.Context) (cardano.DRepID, error) {
	d, err := cardano.ParseDRepID(c.Param("drep_id"))
	if err != nil {
		return d, errDRepID
	}
	return d, nil
}

// govAction parses {gov_action_id}, or {tx_hash}/{cert_index} (byIndex).
func govAction(c *gin.Context, byIndex bool) (cardano.GovActionID, error) {
	first := c.Param("gov_action_id")
	if !byIndex {
		g, err := cardano.ParseGovActionID(first)
		if err != nil {
			return g, errGovActionID
		}
		return g, nil
	}
	var g cardano.GovActionID
	raw, err := hex.DecodeString(first)
	if err != nil || len(raw) != 32 {
		return g, httpx.ErrInvalidTxHash
	}
	copy(g.TxHash[:], raw)
	n, err := strconv.ParseUint(c.Param("cert_index"), 10, 31)
	if err != nil {
		return g, errCertIndex
	}
	g.Index = uint32(n)
	return g, nil
}

// boolParam parses an optional true|false query parameter.
func boolParam(c *gin.Context, name string, bad error) (*bool, error) {
	vs, ok := c.Request.URL.Query()[name]
	if !ok {
		return nil, nil
	}
	if len(vs) > 1 {
		return nil, bad
	}
	switch vs[0] {
	case "true":
		v := true
		return &v, nil
	case "false":
		v := false
		return &v, nil
	}
	return nil, bad
}

// dreps: GET /governance/dreps (count, page, order, order_by, retired,
// expired).
func (a *API) dreps(c *gin.Context) error {
	p, err := paging(c)
	if err != nil {
		return err
	}
	var q bf.DRepsQuery
	if vs, ok := c.Request.URL.Query()["order_by"]; ok {
		if len(vs) > 1 || vs[0] != "amount" {
			return errOrderBy
		}
		q.ByAmount = true
	}
	if q.Retired, err = boolParam(c, "retired", errRetired); err != nil {
		return err
	}
	if q.Expired, err = boolParam(c, "expired", errExpired); err != nil {
		return err
	}
	db, err := a.deps.ChainDB(c)
	if err != nil {
		return err
	}
	return ok(c)(a.deps.Answers.DReps(c.Request.Context(), db, q, p))
}
