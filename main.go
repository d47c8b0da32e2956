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
//	syncgate config --markdown   print the README's table of every setting
//
// The commands live in internal/cli; this file only dispatches.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/syncgate/syncgate/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the command named by args[0] (serve when there is none or it is
// a flag) and returns the process's exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "serve":
		err = cli.Serve(ctx, os.Environ(), args)
	case "migrate":
		err = cli.Migrate(ctx, args)
	case "demo":
		err = cli.Demo(ctx, args)
	case "seed":
		err = cli.Seed(ctx, args)
	case "indexes":
		err = cli.Indexes(ctx, args)
	case "utxo-index":
		err = cli.UTxOIndex(ctx, args)
	case "admin-key":
		err = cli.AdminKey(ctx, args)
	case "sql":
		err = cli.SQL(args)
	case "config":
		err = cli.Config(args)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, cli.Usage)
		return 0
	default:
		err = fmt.Errorf("unknown command %q\n%s", cmd, cli.Usage)
	}
	if err != nil {
		fmt.Fprintln(stderr, "syncgate:", err)
		return 1
	}
	return 0
}
