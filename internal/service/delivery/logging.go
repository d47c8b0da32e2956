package delivery

import (
	"context"
	"log/slog"
)

// warnOnly passes river's warnings and errors on and drops its per-job
// information (a failing receiver would otherwise log every retry).
type warnOnly struct{ slog.Handler }

func (h warnOnly) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && h.Handler.Enabled(ctx, l)
}

func (h warnOnly) WithAttrs(as []slog.Attr) slog.Handler { return warnOnly{h.Handler.WithAttrs(as)} }
func (h warnOnly) WithGroup(g string) slog.Handler       { return warnOnly{h.Handler.WithGroup(g)} }
