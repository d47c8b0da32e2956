package dbsync

import (
	"strings"
	"time"

	"github.com/syncgate/syncgate/internal/platform/metrics"
	"github.com/syncgate/syncgate/sql"
)

// instrument names the pool for its metrics (statement latency, gate,
// connection pool statistics).
func (p *pool) instrument(network, server string) {
	p.network, p.server = network, server
	p.untrack = metrics.TrackPool(network+"/"+server, p.DB.DB)
}

// observe records one statement run since start; *err is its outcome.
// The statement is labelled by its SQL file ("utxos_by_address.sql"), so the
// label set is bounded by the files in sql/dbsync.
func observe(network, query string, start time.Time, err *error) {
	if network == "" {
		return // a pool made outside Open (tests of internals)
	}
	metrics.ObserveQuery(network, statementName(query), start, *err)
}

func statementName(query string) string {
	n := sqlfiles.NameOf(query)
	if n == "" {
		return "other"
	}
	return strings.TrimPrefix(n, "dbsync/")
}
