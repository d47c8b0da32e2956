package engine

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

// observe records one run of q since start; *err is its outcome. The
// statement is labelled by its name without the directory
// ("utxo_page.sql"), so the label set is bounded by the files in
// sql/dbsync and their parameters.
func observe(network string, q sqlfiles.Statement, start time.Time, err *error) {
	if network == "" {
		return // a pool made outside New (tests of internals)
	}
	metrics.ObserveQuery(network, metricName(q), start, *err)
}

// metricName is q's metric label ("other" for a statement without a name).
func metricName(q sqlfiles.Statement) string {
	if q.Name == "" {
		return "other"
	}
	return strings.TrimPrefix(q.Name, "dbsync/")
}
