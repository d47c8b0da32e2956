package cache

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/redis/go-redis/v9"
)

// RouteLogs sends go-redis's own messages (pool and dial failures, which
// it otherwise prints as plain "redis: …" lines on stderr) to log as JSON
// warnings. It is process-wide, like go-redis's logger.
func RouteLogs(log *slog.Logger) {
	redis.SetLogger(slogLogger{log})
}

// slogLogger is go-redis's logging interface over slog.
type slogLogger struct{ log *slog.Logger }

func (l slogLogger) Printf(ctx context.Context, format string, v ...any) {
	msg := strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: ")
	l.log.WarnContext(ctx, "redis client", slog.String("detail", msg))
}
