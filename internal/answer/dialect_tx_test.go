package answer

import (
	"context"
	"strconv"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// A dialect's answer about a transaction is kept across tips from its
// second ask on while its block stays on the chain, and read again after a
// rollback; one that watches addresses is read again once a block pays to
// one of them, and so is one whose watch cannot read it. Every answer
// read names the tip it was read at, so a kept one is told apart by
// that name.
func TestDialectTxKeptAcrossTips(t *testing.T) {
	k := newKeptChain(t, chaingen.ModeCore)
	watched := k.m.Addresses[0].Address
	reads := 0
	build := func(ctx context.Context, db *dbsync.DB) ([]byte, error) {
		reads++
		tip, err := db.Tip(ctx)
		if err != nil {
			return nil, err
		}
		return []byte(strconv.Quote(tip.BlockHash)), nil
	}
	ask := func(route string, watch func([]byte) ([]string, bool)) string {
		t.Helper()
		b, err := k.s.DialectTx(t.Context(), k.db, []string{"test", route, k.m.Txs.Ordinary.Hash}, watch, build)
		if err != nil {
			t.Fatal(err)
		}
		s, err := strconv.Unquote(string(b))
		if err != nil {
			t.Fatalf("%s: %s", route, b)
		}
		return s
	}
	watching := func([]byte) ([]string, bool) { return []string{watched}, true }
	unreadable := func([]byte) ([]string, bool) { return nil, false }

	first := k.tipNow().BlockHash
	for _, route := range []string{"plain", "watching", "unreadable"} {
		for range 3 { // the second ask keeps it, the third finds this instance's copy
			if got := ask(route, map[string]func([]byte) ([]string, bool){"watching": watching, "unreadable": unreadable}[route]); got != first {
				t.Fatalf("%s at the first tip: read at %s", route, got)
			}
		}
	}
	if reads != 6 {
		t.Fatalf("%d reads for three answers asked three times, want 6", reads)
	}
	k.appendBlock("")
	k.requireTracked()
	if got := ask("plain", nil); got != first {
		t.Errorf("plain at the next tip: read at %s, want the kept answer", got)
	}
	if got := ask("watching", watching); got != first {
		t.Errorf("watching at the next tip, nothing moved: read at %s, want the kept answer", got)
	}
	if got := ask("unreadable", unreadable); got == first {
		t.Errorf("an answer its watch cannot read was answered from the kept record")
	}
	k.appendBlock(watched)
	k.requireTracked()
	if got := ask("plain", nil); got != first {
		t.Errorf("plain after a payment: read at %s, want the kept answer", got)
	}
	if got := ask("watching", watching); got == first {
		t.Errorf("watching after a payment to its address: answered from the kept record")
	}
	// A rollback past the block it was kept at: read again.
	if _, err := k.f.Rollback(t.Context(), 3); err != nil {
		t.Fatal(err)
	}
	k.appendBlock("")
	k.requireTracked()
	if got := ask("plain", nil); got == first {
		t.Errorf("plain after a rollback past its block: answered from the kept record")
	}
}
