// Command syncgate serves a read-only REST API over cardano-db-sync
// databases with multi-tenant API key management on top.
//
//	syncgate [serve]   run the HTTP service (default)
//	syncgate migrate   apply the admin schema migrations and exit
//	syncgate demo      create, seed and serve a local demo (prints keys and curl commands)
//	syncgate seed      load a synthetic db-sync chain into a database
//	syncgate indexes   create syncgate's recommended extra db-sync indexes
//	syncgate utxo-index   build (and with --follow keep) the unspent-output index of a core-mode db-sync
//	syncgate admin-key create|roll|revoke   manage admin keys from the command line
//	syncgate sql FILE  print a db-sync statement as it runs in one layout
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	_ "github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/platform/logbuf"
)

func main() {
	args := os.Args[1:]
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	var err error
	switch cmd {
	case "serve":
		err = runServe(ctx, os.Environ(), args)
	case "migrate":
		err = runMigrate(ctx, args)
	case "demo":
		err = runDemo(ctx, args)
	case "seed":
		err = runSeed(ctx, args)
	case "indexes":
		err = runIndexes(ctx, args)
	case "utxo-index":
		err = runUTxOIndex(ctx, args)
	case "admin-key":
		err = runAdminKey(ctx, args)
	case "sql":
		err = runSQL(args)
	case "help", "-h", "--help":
		fmt.Println(usage)
		return
	default:
		err = fmt.Errorf("unknown command %q\n%s", cmd, usage)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "syncgate:", err)
		os.Exit(1)
	}
}

const usage = `usage: syncgate [serve|migrate|demo|seed|indexes|utxo-index|admin-key|sql] [flags]
  serve                      run the HTTP service (configuration: README)
  migrate                    apply admin schema migrations
  demo                       create, seed and serve a local demo database
  seed --db URL --txs N [--seed S] [--mode core|consumed] [--manifest FILE]  (creates the database if missing)
  indexes --db URL           create the recommended extra db-sync indexes
  utxo-index --db URL [--follow] [--batch N] [--lag N]   build the unspent-output index of a core-mode db-sync
  admin-key create --name N --permissions p1,p2 [--db URL]
  admin-key roll --id ID [--expires-in SECONDS] [--db URL]
  admin-key revoke --id ID [--db URL]
  sql [--layout L] [--param K=V] FILE   print a db-sync statement as it runs (to paste into psql)`

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

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
