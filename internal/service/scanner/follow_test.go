package scanner

import (
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/events"
)

// hookRow is a webhook's row as stored: its transaction id changes with
// every write.
type hookRow struct {
	Xmin    string `db:"xmin"`
	Follows bool   `db:"follows"`
	Stored  int64  `db:"scanned_through"`
}

func (e *env) hookRow(id uuid.UUID) hookRow {
	e.t.Helper()
	var r hookRow
	if err := e.admin.Get(&r, `SELECT xmin::text AS xmin, follows, scanned_through FROM syncgate.webhooks WHERE id = $1`, id); err != nil {
		e.t.Fatal(err)
	}
	return r
}

// A webhook scanned in step with the scanner follows its checkpoint: its
// row is not written at a block that gives it no event, while the API
// still shows it scanned through the tip.
func TestFollowerRowNotWritten(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	e.scanner(t.Context(), nil)
	start := e.tip()
	e.waitScanned(start)
	quiet := e.webhook(1, []string{events.TypeTxConfirmed}, events.StatusActive, start-1,
		events.Item{Kind: events.KindAddress, Value: "addr_test1never"})
	e.waitScanned(e.appendBlocks(1).BlockNo)
	before := e.hookRow(quiet)
	if !before.Follows {
		t.Fatalf("a webhook in step does not follow: %+v", before)
	}
	tip := e.appendBlocks(4).BlockNo
	e.waitScanned(tip)
	if after := e.hookRow(quiet); after != before {
		t.Fatalf("row written at blocks without its events: %+v, then %+v", before, after)
	}
	w, err := e.store.Webhook(t.Context(), events.Owner{UserID: e.user, Network: e.net}, quiet, nil)
	if err != nil || w.ScannedThrough != tip-1 {
		t.Fatalf("scanned through %d at tip %d (depth 1) %v", w.ScannedThrough, tip, err)
	}
}

// Whatever stops or changes a following webhook's scanning writes its
// position first, even while steps run: with its depth changed, disabled
// and enabled again and again as blocks arrive, a block.added webhook is
// told of every block once, none skipped.
func TestFollowerChangesWhileScanning(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	e.scanner(t.Context(), nil)
	start := e.tip()
	e.waitScanned(start)
	hook := e.webhook(0, []string{events.TypeBlockAdded}, events.StatusActive, start)
	o := events.Owner{UserID: e.user, Network: e.net}
	ctx := t.Context()

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var changes int
	wg.Add(1)
	go func() {
		defer wg.Done()
		depth := 0
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			var err error
			switch i % 3 {
			case 0:
				depth = 1 - depth
				_, err = e.store.UpdateWebhook(ctx, o, hook, events.WebhookPatch{Depth: &depth})
			case 1:
				_, err = e.store.DisableWebhook(ctx, o, hook, "test", nil)
			case 2:
				_, err = e.store.UpdateWebhook(ctx, o, hook, events.WebhookPatch{Enable: true})
			}
			if err != nil {
				t.Errorf("change %d: %v", i, err)
				return
			}
			changes++
			time.Sleep(time.Duration(5+i%4*10) * time.Millisecond)
		}
	}()
	for range 40 {
		e.appendBlocks(1)
		time.Sleep(30 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	zero := 0
	if _, err := e.store.UpdateWebhook(ctx, o, hook, events.WebhookPatch{Depth: &zero, Enable: true}); err != nil {
		t.Fatal(err)
	}
	tip := e.tip()
	e.waitScanned(tip)
	e.checkSequences()
	var heights []int64
	for _, ev := range e.events(hook) {
		if ev.Type == events.TypeBlockAdded {
			heights = append(heights, ev.BlockNo)
		}
	}
	if int64(len(heights)) != tip-start {
		t.Fatalf("%d block.added events for %d blocks (%d changes meanwhile): %v", len(heights), tip-start, changes, heights)
	}
	for i, h := range heights {
		if h != start+1+int64(i) {
			t.Fatalf("event %d is for block %d, want %d: %v", i, h, start+1+int64(i), heights)
		}
	}
	if changes < 20 {
		t.Fatalf("only %d changes while the chain moved", changes)
	}
	t.Logf("%d blocks, each announced once, through %d changes", len(heights), changes)
}

// The scanner keeps the webhooks it read while their version stays: a
// webhook disabled, or told to want other events, stops getting blocks at
// the next block, and a new webhook starts getting them, though none of
// them moved a position the scanner wrote.
func TestKeptWebhooksSeeChanges(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	e.scanner(t.Context(), nil)
	start := e.tip()
	e.waitScanned(start)
	types := []string{events.TypeBlockAdded}
	disabled := e.webhook(0, types, events.StatusActive, start)
	retyped := e.webhook(0, types, events.StatusActive, start)
	e.waitScanned(e.appendBlocks(2).BlockNo)
	count := func(id uuid.UUID) int {
		n := 0
		for _, ev := range e.events(id) {
			if ev.Type == events.TypeBlockAdded {
				n++
			}
		}
		return n
	}
	if count(disabled) != 2 || count(retyped) != 2 {
		t.Fatalf("block.added before the changes: %d and %d, want 2 each", count(disabled), count(retyped))
	}
	o := events.Owner{UserID: e.user, Network: e.net}
	if _, err := e.store.DisableWebhook(t.Context(), o, disabled, "test", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.UpdateWebhook(t.Context(), o, retyped, events.WebhookPatch{EventTypes: []string{events.TypeEpochStarted}}); err != nil {
		t.Fatal(err)
	}
	tip := e.appendBlocks(2).BlockNo
	e.waitScanned(tip)
	if count(disabled) != 2 || count(retyped) != 2 {
		t.Fatalf("block.added after the changes: %d disabled, %d retyped, want 2 each", count(disabled), count(retyped))
	}
	added := e.webhook(0, types, events.StatusActive, tip)
	e.waitScanned(e.appendBlocks(2).BlockNo)
	if n := count(added); n != 2 {
		t.Fatalf("a new webhook got %d block.added, want 2", n)
	}
}
