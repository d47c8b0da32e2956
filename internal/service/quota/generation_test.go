package quota

import (
	"context"
	"testing"
	"time"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestStragglerKeepsGeneration: a request whose count reached a counter
// just before Redis lost it, and whose goroutine was descheduled until
// after this instance had rebuilt the counter (what heavy CPU load does),
// must neither move the instance back to the lost generation (its next
// request would then add every unflushed request of this instance a second
// time) nor be lost itself: the rebuilt counter ends at exactly the
// number of requests checked.
func TestStragglerKeepsGeneration(t *testing.T) {
	testdb.RequireServices(t)
	db := testdb.Open(t, testdb.New(t, "sg_test_quota_gen"))
	ctx := context.Background()
	if _, err := admin.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	user := testdb.AdminUser(t, db)
	var a admin.Admin
	if err := db.QueryRow(`SELECT admin_key_id, partner_id FROM syncgate.user_accounts WHERE id = $1`, user).Scan(&a.ID, &a.PartnerID); err != nil {
		t.Fatal(err)
	}
	adm := admin.NewStore(db, admin.Options{})
	defer adm.Close()
	c, _, err := adm.CreateCredential(ctx, a, admin.NewCredential{UserAccountID: user, Name: "k", RateLimitPerMinute: 60})
	if err != nil {
		t.Fatal(err)
	}
	rc, err := cache.New(testdb.RedisURL(), "sg-quota-gen:"+testdb.RandomSuffix(6)+":")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	fast := cache.NewFastClient(rc, cache.FastOptions{Timeout: 2 * time.Second})
	defer fast.Close()
	rec := admin.NewUsageRecorder(db, time.Hour, nil) // flushed by hand
	counter := cache.NewQuotaCounter(fast)
	s := New(Options{Counter: counter, Usage: adm, Recorder: rec})
	lim := Limits{Daily: 1000}
	checks := 0
	check := func() {
		t.Helper()
		r, err := s.Check(ctx, user, c.ID, lim)
		if err != nil {
			t.Fatal(err)
		}
		checks++
		s.Recorded(r, func() { rec.Record(c.ID, "chain", 200, 100, time.Millisecond, time.Now()) })
	}
	for range 10 {
		check()
	}
	if err := rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		check() // unflushed
	}

	// The straggler counts in the current generation, then stalls.
	stalled, release := make(chan struct{}), make(chan struct{})
	s.afterCount = func() {
		s.afterCount = nil
		close(stalled)
		<-release
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r, err := s.Check(ctx, user, c.ID, lim)
		if err != nil {
			t.Error(err)
			return
		}
		s.Recorded(r, func() { rec.Record(c.ID, "chain", 200, 100, time.Millisecond, time.Now()) })
	}()
	<-stalled
	checks++
	key := counter.Key(user.String(), "d:"+time.Now().UTC().Format("2006-01-02"))
	if err := rc.Redis().Del(ctx, key).Err(); err != nil { // Redis loses the counter
		t.Fatal(err)
	}
	check() // rebuilds it
	close(release)
	<-done
	for range 3 {
		check()
	}
	n, err := rc.Redis().HGet(ctx, key, "n").Int64()
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(checks) {
		t.Fatalf("counter %d after %d requests", n, checks)
	}
}
