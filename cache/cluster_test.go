//go:build linux

package cache_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestCacheSharedOnRedisCluster: two instances (two clients) on a
// 3-master Redis Cluster share cached answers: what one instance loaded,
// under keys spread over every master, the other reads without loading.
func TestCacheSharedOnRedisCluster(t *testing.T) {
	rcl := testdb.NewRedisCluster(t, 3) // skips under -short
	prefix := "sg-cluster-cache:" + testdb.RandomSuffix(6) + ":"
	a, err := cache.New(rcl.URL(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := cache.New(rcl.URL(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ca, cb := cache.NewRawJSON(a, "answers", cache.Options{}), cache.NewRawJSON(b, "answers", cache.Options{})
	ctx := context.Background()
	loads := 0
	load := func(i int) func(context.Context) ([]byte, error) {
		return func(context.Context) ([]byte, error) {
			loads++
			return fmt.Appendf(nil, `{"n":%d}`, i), nil
		}
	}
	const keys = 64 // hash slots on every master
	for i := range keys {
		if _, err := ca.Get(ctx, fmt.Sprint("k", i), load(i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range keys {
		v, err := cb.Get(ctx, fmt.Sprint("k", i), load(-1))
		if err != nil || string(v) != fmt.Sprintf(`{"n":%d}`, i) {
			t.Fatalf("key %d on the other instance: %s %v", i, v, err)
		}
	}
	if loads != keys {
		t.Fatalf("%d loads for %d keys: the second instance did not read the first one's answers", loads, keys)
	}
}
