package scanner

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/internal/events"
)

// keptHooks is the network's webhooks as a step read them, kept while
// their version stays (migration 0020) and the scanner has not itself
// written a position since: in step with the checkpoint, the webhooks are
// grouped anew from it at every block without being read.
type keptHooks struct {
	version, positions int64
	hooks              []events.ScanHook
}

// groups is the network's webhooks grouped at checkpoint cp: the kept
// ones when neither their version nor the scanners' position writes
// counted in cp have moved, else read again.
func (s *Scanner) groups(ctx context.Context, conn *sqlx.Conn, cp *events.Checkpoint) ([]events.ScanGroup, error) {
	// The version first: a change committed after it is seen at the next
	// step at the latest, never kept under the version it moved past.
	v, err := events.ScanVersion(ctx, conn, s.o.Network)
	if err != nil {
		return nil, err
	}
	if s.kept == nil || s.kept.version != v || s.kept.positions != cp.Positions {
		hooks, err := events.ReadScanWebhooks(ctx, conn, s.o.Network)
		if err != nil {
			return nil, err
		}
		s.kept = &keptHooks{version: v, positions: cp.Positions, hooks: hooks}
	}
	return events.GroupScan(s.kept.hooks, cp.Height), nil
}

// keepAfter is whether the kept webhooks still hold after a step that
// moved work's groups: only when every one of them followed the
// checkpoint and still does (the step wrote no position of its own).
func keepAfter(work []groupWork, tip int64) bool {
	for _, w := range work {
		for _, h := range w.g.Hooks {
			if !h.StaysInStep(w.to, tip) {
				return false
			}
		}
	}
	return true
}
