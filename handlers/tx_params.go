package handlers

import (
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// historyQuery reads limit, offset, fromSlot and order of the two history
// endpoints (OpenAPI parameters): limit defLimit (1..maxLimit), offset 0, no
// cursor, newest first.
func historyQuery(c *gin.Context, defLimit, maxLimit int) (dbsync.HistoryQuery, error) {
	limit, err := httpx.QueryInt(c, "limit", defLimit, 1, maxLimit)
	if err != nil {
		return dbsync.HistoryQuery{}, err
	}
	offset, err := httpx.QueryOffset(c)
	if err != nil {
		return dbsync.HistoryQuery{}, err
	}
	fromSlot, err := queryFromSlot(c)
	if err != nil {
		return dbsync.HistoryQuery{}, err
	}
	asc, err := queryOrderAsc(c)
	if err != nil {
		return dbsync.HistoryQuery{}, err
	}
	return dbsync.HistoryQuery{Limit: limit, Offset: offset, FromSlot: fromSlot, Ascending: asc}, nil
}

// queryFromSlot parses the optional slot cursor: a non-negative integer.
func queryFromSlot(c *gin.Context) (*int64, error) {
	raw, present := c.GetQuery("fromSlot")
	if !present {
		return nil, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || n < 0 {
		return nil, httpx.ErrInvalidParam("fromSlot", "must be a non-negative integer")
	}
	return &n, nil
}

// queryOrderAsc parses order: asc or desc (default desc), any case.
func queryOrderAsc(c *gin.Context) (bool, error) { return queryOrder(c, false) }

// queryOrder parses order: asc or desc (default ascending when defAsc),
// any case, with the history endpoints' wording when it is neither.
func queryOrder(c *gin.Context, defAsc bool) (bool, error) {
	raw, present := c.GetQuery("order")
	if !present {
		return defAsc, nil
	}
	switch strings.ToLower(strings.TrimSpace(raw)) {
	case "desc":
		return false, nil
	case "asc":
		return true, nil
	}
	return false, httpx.ErrInvalidParam("order", "must be asc or desc")
}
