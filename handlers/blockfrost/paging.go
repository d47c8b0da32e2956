package blockfrost

import (
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/answer/bf"
)

// Blockfrost's list parameters (its openapi.yaml): count 1-100 (default
// 100), page 1-21474836 (default 1), order asc|desc (default asc).
const (
	maxCount = 100
	maxPage  = 21474836
)

// Paging errors: 400 naming the parameter and its range.
var (
	errCount = httpx.ErrInvalidParam("count", "must be an integer from 1 to 100")
	errPage  = httpx.ErrInvalidParam("page", "must be an integer from 1 to 21474836")
	errOrder = httpx.ErrInvalidParam("order", "must be asc or desc")
)

// paging parses count, page and order. A parameter given empty, twice
// with different values, or out of range is a 400: a client that asks for
// something we cannot tell it apart from must not get a default instead.
func paging(c *gin.Context) (bf.Paging, error) {
	p := bf.Paging{Count: maxCount, Page: 1}
	q := c.Request.URL.Query()
	if vs, ok := q["count"]; ok {
		n, err := strconv.Atoi(vs[0])
		if err != nil || n < 1 || n > maxCount || len(vs) > 1 {
			return p, errCount
		}
		p.Count = n
	}
	if vs, ok := q["page"]; ok {
		n, err := strconv.Atoi(vs[0])
		if err != nil || n < 1 || n > maxPage || len(vs) > 1 {
			return p, errPage
		}
		p.Page = n
	}
	if vs, ok := q["order"]; ok {
		switch {
		case len(vs) > 1:
			return p, errOrder
		case vs[0] == "asc":
		case vs[0] == "desc":
			p.Desc = true
		default:
			return p, errOrder
		}
	}
	return p, nil
}
