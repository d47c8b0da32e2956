package cli

import (
	"errors"
	"flag"
	"fmt"

	"github.com/syncgate/syncgate/config"
)

// Config prints README.md's Configuration table from the settings table
// in package config (config's tests fail until the README matches it).
func Config(args []string) error {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	markdown := fs.Bool("markdown", false, "print the README's Configuration table")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if !*markdown || fs.NArg() > 0 {
		return errors.New("usage: syncgate config --markdown")
	}
	fmt.Print(config.Markdown())
	return nil
}
