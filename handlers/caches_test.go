package handlers

import (
	"strings"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer"
)

// TestNotFoundAnswersRemembered: a 404 for an unknown asset or pool is
// remembered under the tip (briefly, as ids can be invented without end)
// and answered the same from there.
func TestNotFoundAnswersRemembered(t *testing.T) {
	rc := testRedis(t)
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": seededChains(t)[0].db}, Credentials: testCredentials, Redis: rc, Log: quietLog})
	for _, tc := range []struct{ path, name, msg string }{
		{"/v1/assets/" + strings.Repeat("ab", 28) + ".00", "asset", "Asset not found"},
		{"/v1/pools/" + strings.Repeat("cd", 28), "poolinfo", "Pool not found"},
	} {
		first := get(t, s, tc.path)
		if first.Status != 404 || first.Error != tc.msg {
			t.Fatalf("%s: %d %q", tc.path, first.Status, first.Error)
		}
		keys, err := rc.Redis().Keys(t.Context(), rc.Key(tc.name, "mainnet", "*")).Result()
		if err != nil || len(keys) != 1 {
			t.Fatalf("%s: keys %v %v, want one remembered 404", tc.path, keys, err)
		}
		if ttl := rc.Redis().TTL(t.Context(), keys[0]).Val(); ttl <= 0 || ttl > answer.NotFoundTTL {
			t.Errorf("%s: remembered for %v, want at most %v", tc.path, ttl, answer.NotFoundTTL)
		}
		if again := get(t, s, tc.path); again.Status != 404 || string(again.Raw) != string(first.Raw) {
			t.Errorf("%s: remembered 404 answered %d %s, want %s", tc.path, again.Status, again.Raw, first.Raw)
		}
	}
}
