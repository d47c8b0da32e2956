package config

import (
	"os"
	"strings"
	"testing"
)

// README markers around the generated Configuration table.
const (
	tableBegin = "<!-- BEGIN configuration table: printed by `syncgate config --markdown` from config/settings.go; edit there -->\n"
	tableEnd   = "<!-- END configuration table -->\n"
)

// README.md's Configuration table is what the settings print: a setting
// added, changed or documented in config/settings.go must be pasted there
// (`syncgate config --markdown`), and the README is not edited by hand.
func TestREADMEConfigurationTable(t *testing.T) {
	raw, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	_, rest, ok := strings.Cut(readme, tableBegin)
	table, _, ok2 := strings.Cut(rest, tableEnd)
	if !ok || !ok2 {
		t.Fatalf("README.md lacks the configuration table markers:\n%s%s", tableBegin, tableEnd)
	}
	if want := Markdown(); table != want {
		t.Errorf("README.md's configuration table differs from `syncgate config --markdown`; replace it with:\n%s", want)
	}
}

// Every setting is in a listed group, once, with help; its flag is what
// the README says serve accepts; groups print in one run each.
func TestSettingsTable(t *testing.T) {
	known := map[string]bool{}
	for _, g := range groups {
		known[g] = true
	}
	seen := map[string]bool{}
	last := -1
	for _, s := range settings {
		if !known[s.group] || s.help == "" || s.read == nil {
			t.Errorf("%s: group %q, help %q, read %v", s.env, s.group, s.help, s.read != nil)
		}
		if seen[s.env] {
			t.Errorf("%s twice", s.env)
		}
		seen[s.env] = true
		i := 0
		for groups[i] != s.group {
			i++
		}
		if i < last {
			t.Errorf("%s: group %q after a later group", s.env, s.group)
		}
		last = i
		if s.defFunc != nil && s.defHelp == "" {
			t.Errorf("%s: a computed default needs defHelp (the README must not depend on the host)", s.env)
		}
	}
}
