// Package cli holds syncgate's commands, one file each: serve (the
// service), migrate, demo, seed, indexes, utxo-index, admin-key, sql and
// config. Each is a function of the command's arguments returning an
// error; package main only picks the command and turns the error into an
// exit code.
package cli

import (
	"os"

	_ "github.com/lib/pq" // the "postgres" driver of the commands' sqlx.Open
)

// Usage is what `syncgate help` prints.
const Usage = `usage: syncgate [serve|migrate|demo|seed|indexes|utxo-index|admin-key|sql|config] [flags]
  serve                      run the HTTP service (configuration: README)
  migrate                    apply admin schema migrations
  demo                       create, seed and serve a local demo database
  seed --db URL --txs N [--seed S] [--mode core|consumed] [--manifest FILE]  (creates the database if missing)
  indexes --db URL           create the recommended extra db-sync indexes
  utxo-index --db URL [--follow] [--batch N] [--lag N]   build the unspent-output index of a core-mode db-sync
  admin-key create --name N --permissions p1,p2 [--db URL]
  admin-key roll --id ID [--expires-in SECONDS] [--db URL]
  admin-key revoke --id ID [--db URL]
  sql [--layout L] [--param K=V] FILE   print a db-sync statement as it runs (to paste into psql)
  config --markdown          print the README's table of every setting`

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
