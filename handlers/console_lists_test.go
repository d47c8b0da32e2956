package handlers

import (
	"io/fs"
	"regexp"
	"slices"
	"testing"

	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/events"
)

// jsList reads `export const name = [ 'a', 'b', … ];` from a console file.
func jsList(t *testing.T, file, name string) []string {
	t.Helper()
	src, err := fs.ReadFile(consoleFiles, file)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)export const ` + name + ` = \[(.*?)\];`).FindSubmatch(src)
	if m == nil {
		t.Fatalf("%s: no list %s", file, name)
	}
	var out []string
	for _, q := range regexp.MustCompile(`'([^']*)'`).FindAllSubmatch(m[1], -1) {
		out = append(out, string(q[1]))
	}
	return out
}

// The New webhook form offers exactly what the creation accepts: every
// event type, format, watch item kind and network, in the API's order.
func TestConsoleWebhookFormLists(t *testing.T) {
	var networks []string
	for _, n := range cardano.Networks {
		networks = append(networks, n.Name)
	}
	for _, c := range []struct {
		name string
		want []string
	}{
		{"EVENT_TYPES", events.SubscribableTypes},
		{"FORMATS", events.Formats},
		{"ITEM_KINDS", events.Kinds},
		{"HOOK_NETWORKS", networks},
	} {
		if got := jsList(t, "js/webhookform.js", c.name); !slices.Equal(got, c.want) {
			t.Errorf("console %s %q, the API takes %q", c.name, got, c.want)
		}
	}
}
