package blockfrost

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/bf"
)

// ctxT is a request's context.
type ctxT = context.Context

// The shapes most dialect routes take: parse what the path names (a 400
// before anything is read), then the paging, then the caller's network,
// and write the answer. A handler with more to parse is written out.

// whole: a route with nothing to parse.
func (a *API) whole(answer func(ctxT, *dbsync.DB) ([]byte, error)) func(*gin.Context) error {
	return func(c *gin.Context) error {
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		return ok(c)(answer(c.Request.Context(), db))
	}
}

// list: a list of the whole chain (count, page, order).
func (a *API) list(answer func(ctxT, *dbsync.DB, bf.Paging) ([]byte, error)) func(*gin.Context) error {
	return func(c *gin.Context) error {
		p, err := paging(c)
		if err != nil {
			return err
		}
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		return ok(c)(answer(c.Request.Context(), db, p))
	}
}

// one: a route about the one thing parse reads from the path.
func one[T any](a *API, parse func(*gin.Context) (T, error), answer func(ctxT, *dbsync.DB, T) ([]byte, error)) func(*gin.Context) error {
	return func(c *gin.Context) error {
		v, err := parse(c)
		if err != nil {
			return err
		}
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		return ok(c)(answer(c.Request.Context(), db, v))
	}
}

// pagedBy: a list about the one thing parse reads from the path, its
// paging read by pages (paging, or unordered where Blockfrost takes no
// order).
func pagedBy[T any](a *API, parse func(*gin.Context) (T, error), pages func(*gin.Context) (bf.Paging, error),
	answer func(ctxT, *dbsync.DB, T, bf.Paging) ([]byte, error)) func(*gin.Context) error {
	return func(c *gin.Context) error {
		v, err := parse(c)
		if err != nil {
			return err
		}
		p, err := pages(c)
		if err != nil {
			return err
		}
		db, err := a.deps.ChainDB(c)
		if err != nil {
			return err
		}
		return ok(c)(answer(c.Request.Context(), db, v, p))
	}
}

// paged: pagedBy with count, page and order.
func paged[T any](a *API, parse func(*gin.Context) (T, error), answer func(ctxT, *dbsync.DB, T, bf.Paging) ([]byte, error)) func(*gin.Context) error {
	return pagedBy(a, parse, paging, answer)
}
