package cli

import (
	"context"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/syncgate/syncgate/internal/platform/logbuf"
)

func newLogger(level string) *slog.Logger {
	return slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{Level: logLevel(level)}))
}

// logLevel reads LOG_LEVEL (validated by config; anything else is info).
func logLevel(level string) slog.Level {
	var lv slog.Level
	_ = lv.UnmarshalText([]byte(level))
	return lv
}

// newServiceLogger is serve's logger: its lines (one access-log line per
// request) reach stdout in batches, at most 100 ms late (internal/platform/logbuf),
// except warnings and errors, which are written at once with what is held
// before them (the lines that explain a crash must not wait in a buffer);
// flush writes what is held.
func newServiceLogger(out io.Writer, level string) (log *slog.Logger, flush func()) {
	lines := logbuf.New(out, 100*time.Millisecond, 64<<10)
	h := flushingHandler{slog.NewJSONHandler(lines, &slog.HandlerOptions{Level: logLevel(level)}), lines}
	return slog.New(h), func() { _ = lines.Close() }
}

// flushingHandler writes a batched log out at every warning or error.
type flushingHandler struct {
	slog.Handler
	lines *logbuf.Writer
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		_ = h.lines.Flush()
	}
	return err
}

func (h flushingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return flushingHandler{h.Handler.WithAttrs(attrs), h.lines}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{h.Handler.WithGroup(name), h.lines}
}
