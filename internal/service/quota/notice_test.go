package quota_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/events"
	"github.com/syncgate/syncgate/internal/service/quota"
)

// TestQuotaNotices: a user with a daily quota of 10 and a pull-only
// webhook gets exactly one quota.warning (the 8th request) and one
// quota.exceeded (the 11th, the first refused) in its feed, however many
// requests follow.
func TestQuotaNotices(t *testing.T) {
	testdb.RequireServices(t)
	db := testdb.Open(t, testdb.New(t, "sg_test_quota_notice"))
	ctx := context.Background()
	if _, err := admin.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	var hook uuid.UUID
	user := testdb.AdminUser(t, db)
	if err := db.Get(&hook, `INSERT INTO syncgate.webhooks (user_account_id, network, depth, event_types, secret_sealed, scanned_through)
		VALUES ($1, 'mainnet', 0, '{tx.confirmed}', '\x00', 0) RETURNING id`, user); err != nil {
		t.Fatal(err)
	}
	rc, err := cache.New(testdb.RedisURL(), "sg-quota-notice:"+testdb.RandomSuffix(6)+":")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	fast := cache.NewFastClient(rc, cache.FastOptions{Timeout: 2 * time.Second})
	defer fast.Close()
	store := events.NewStore(db, events.Options{})
	adm := admin.NewStore(db, admin.Options{})
	defer adm.Close()
	noticed := make(chan string, 10)
	q := quota.New(quota.Options{Counter: cache.NewQuotaCounter(fast), Usage: adm,
		Notify: func(ctx context.Context, u uuid.UUID, notice string, p quota.Policy) {
			if _, err := store.UserNotice(ctx, u, notice, events.QuotaNotice{Policy: p.Name, Quota: p.Quota, Used: p.Used}); err != nil {
				t.Error(err)
			}
			noticed <- notice
		}})
	cred := uuid.New()
	refused := 0
	for range 15 {
		r, err := q.Check(ctx, user, cred, quota.Limits{Daily: 10})
		if err != nil {
			t.Fatal(err)
		}
		if r.Refused != nil {
			refused++
		}
		q.Done(r)
	}
	if refused != 5 {
		t.Fatalf("%d refused of 15 with a quota of 10", refused)
	}
	for range 2 {
		select {
		case <-noticed:
		case <-time.After(10 * time.Second):
			t.Fatal("notices not recorded")
		}
	}
	var got []struct {
		Type string `db:"type"`
		Body string `db:"body"`
	}
	if err := db.Select(&got, `SELECT type, body FROM syncgate.webhook_events WHERE webhook_id = $1 ORDER BY seq`, hook); err != nil {
		t.Fatal(err)
	}
	// (Each notice is recorded off the request's path: either may be first.)
	if len(got) != 2 || got[0].Type == got[1].Type ||
		(got[0].Type != quota.NoticeWarning && got[0].Type != quota.NoticeExceeded) ||
		(got[1].Type != quota.NoticeWarning && got[1].Type != quota.NoticeExceeded) {
		t.Fatalf("feed %+v", got)
	}
	for _, want := range []string{`"used":8`, `"used":11`} {
		found := false
		for _, g := range got {
			found = found || strings.Contains(g.Body, want)
		}
		if !found {
			t.Errorf("no event with %s in %+v", want, got)
		}
	}
}
