package quota_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/service/quota"
)

// TestCurrent: Current reports the counters Check counts in without
// counting; a counter Redis lost is computed from usage_hourly and left
// uncreated; without Redis, the instance's own count.
func TestCurrent(t *testing.T) {
	testdb.RequireServices(t)
	db := testdb.Open(t, testdb.New(t, "sg_test_quota_current"))
	ctx := context.Background()
	if _, err := admin.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	user := testdb.AdminUser(t, db)
	var cred uuid.UUID
	if err := db.Get(&cred, `INSERT INTO syncgate.credentials (user_account_id, admin_key_id, partner_id, name, key_hash, api_key_prefix, network_id)
		SELECT u.id, u.admin_key_id, u.partner_id, 'c', sha256(u.id::text::bytea), 'sgk1_ccccccc', 0 FROM syncgate.user_accounts u WHERE u.id = $1
		RETURNING id`, user); err != nil {
		t.Fatal(err)
	}
	rc, err := cache.New(testdb.RedisURL(), "sg-quota-current:"+testdb.RandomSuffix(6)+":")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	fast := cache.NewFastClient(rc, cache.FastOptions{Timeout: 2 * time.Second})
	defer fast.Close()
	adm := admin.NewStore(db, admin.Options{})
	defer adm.Close()
	now := time.Date(2030, 3, 10, 15, 30, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	counter := cache.NewQuotaCounter(fast)
	q := quota.New(quota.Options{Counter: counter, Usage: adm, Now: clock})
	lim := quota.Limits{Daily: 10, Monthly: 100}

	want := func(q *quota.Service, daily, monthly int64) {
		t.Helper()
		ps, err := q.Current(ctx, user, lim)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != 2 || ps[0].Name != quota.Daily || ps[1].Name != quota.Monthly {
			t.Fatalf("policies %+v", ps)
		}
		if ps[0].Used != daily || ps[1].Used != monthly {
			t.Fatalf("used %d/%d, want %d/%d", ps[0].Used, ps[1].Used, daily, monthly)
		}
		if !ps[0].End.Equal(time.Date(2030, 3, 11, 0, 0, 0, 0, time.UTC)) || !ps[1].End.Equal(time.Date(2030, 4, 1, 0, 0, 0, 0, time.UTC)) ||
			!ps[0].Start.Equal(time.Date(2030, 3, 10, 0, 0, 0, 0, time.UTC)) || ps[0].Reset != 8*time.Hour+30*time.Minute || ps[0].Quota != 10 {
			t.Fatalf("periods %+v", ps)
		}
	}
	// Usage from earlier this month, none today: the first read computes it
	// and creates nothing.
	if _, err := db.Exec(`INSERT INTO syncgate.usage_hourly (credential_id, hour, total_requests, successful_requests, failed_requests)
		VALUES ($1, '2030-03-02 10:00Z', 7, 7, 0), ($1, '2030-02-27 10:00Z', 50, 50, 0)`, cred); err != nil {
		t.Fatal(err)
	}
	want(q, 0, 7)
	if n, err := rc.Redis().Exists(ctx, counter.Key(user.String(), "d:2030-03-10"), counter.Key(user.String(), "m:2030-03")).Result(); err != nil || n != 0 {
		t.Fatalf("Current created %d counters (%v)", n, err)
	}
	// Counted requests show; reading counts nothing.
	for range 3 {
		if _, err := q.Check(ctx, user, cred, lim); err != nil {
			t.Fatal(err)
		}
	}
	want(q, 3, 10)
	want(q, 3, 10)
	r, err := q.Check(ctx, user, cred, lim)
	if err != nil || r.Policies[0].Used != 4 {
		t.Fatalf("the next request counted as %+v (%v)", r.Policies, err)
	}
	q.Done(r)
	// Past the quota, as the refusals see it.
	for range 8 {
		r, err := q.Check(ctx, user, cred, lim)
		if err != nil {
			t.Fatal(err)
		}
		q.Done(r)
	}
	want(q, 12, 19)
	// Another instance reads the same counters.
	other := quota.New(quota.Options{Counter: counter, Usage: adm, Now: clock})
	want(other, 12, 19)

	// Without Redis: this instance's local count once it has one, else
	// usage_hourly.
	down := quota.New(quota.Options{Counter: nil, Usage: adm, Now: clock})
	want(down, 0, 7)
	for range 2 {
		r, err := down.Check(ctx, user, cred, lim)
		if err != nil {
			t.Fatal(err)
		}
		down.Done(r)
	}
	want(down, 2, 9)
}
