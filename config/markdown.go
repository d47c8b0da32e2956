package config

import (
	"strings"
)

// Markdown is README.md's Configuration table, printed from the settings:
// one row per variable under a row naming its subsystem.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| variable | flag | meaning | default |\n|---|---|---|---|\n")
	for _, g := range groups {
		b.WriteString("| **" + g + "** | | | |\n")
		for _, s := range settings {
			if s.group != g {
				continue
			}
			def := s.defHelp
			switch {
			case def != "":
			case s.def != "":
				def = "`" + s.def + "`"
			default:
				def = "none"
			}
			b.WriteString("| `" + s.env + "` | `--" + flagName(s.env) + "` | " + cell(s.help) + " | " + cell(def) + " |\n")
		}
	}
	return b.String()
}

// cell escapes what would end a table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
