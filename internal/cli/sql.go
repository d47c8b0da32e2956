package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/syncgate/syncgate/dbsync"
)

// SQL prints a db-sync statement as it runs in one layout, to paste
// into psql: the files under sql/dbsync are templates over the layout
// (dbsync.Statement).
func SQL(args []string) error {
	fs := flag.NewFlagSet("sql", flag.ContinueOnError)
	layout := fs.String("layout", "core", "db-sync layout: core, consumed, core+address or consumed+address; core layouts may add +utxoindex (reading syncgate's unspent-output index)")
	var params stringList
	fs.Var(&params, "param", "template parameter NAME=VALUE (repeatable), e.g. Order=DESC or OnePool=true")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("sql: name one statement file, e.g. sql/dbsync/utxos_by_address.sql")
	}
	var l dbsync.Layout
	name, index := strings.CutSuffix(*layout, "+utxoindex")
	spends, table := strings.CutSuffix(name, "+address")
	l.AddressTable, l.SpentIndex = table, index
	switch {
	case spends == "core":
	case spends == "consumed" && !index:
		l.Consumed = true
	default:
		return fmt.Errorf("sql: unknown layout %q (core, consumed, core+address or consumed+address; core and core+address may add +utxoindex)", *layout)
	}
	values := map[string]any{}
	for _, p := range params {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return fmt.Errorf("sql: --param %q is not NAME=VALUE", p)
		}
		switch v {
		case "true":
			values[k] = true
		case "false":
			values[k] = false
		default:
			values[k] = v
		}
	}
	file := strings.TrimPrefix(fs.Arg(0), "sql/")
	text, err := dbsync.Render(file, l, values)
	if err != nil {
		return fmt.Errorf("sql: %w", err)
	}
	fmt.Print(text)
	return nil
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
