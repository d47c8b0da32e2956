package answer

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestDialectPage cuts every page of lists of several lengths, both ways,
// against the list itself, and checks that a list is read from the
// database only until it is stored: its first two asks (the second stores
// it), then never while the tip stays.
func TestDialectPage(t *testing.T) {
	db, _ := seededChain(t)
	s := New(Options{Redis: testdb.Redis(t)}) // blocks outlive the local copies (5 s)
	for _, n := range []int{0, 1, 99, 100, 101, 250, 2*maxListWindow + 37} {
		reads := 0
		list := DialectList{Params: []string{"test", "list", fmt.Sprint(n)},
			Each: func(ctx context.Context, _ *dbsync.DB, fn func([]byte) error) error {
				reads++
				for i := range n {
					if err := fn([]byte(fmt.Sprintf(`{"i":%d}`, i))); err != nil {
						return err
					}
				}
				return nil
			}}
		for _, count := range []int{100, 7, 1} {
			for _, desc := range []bool{false, true} {
				for page := 0; page*count <= n+count; page++ {
					b, err := s.DialectPage(t.Context(), db, list, ListPage{Offset: page * count, Count: count, Desc: desc})
					if err != nil {
						t.Fatalf("n %d count %d page %d desc %v: %v", n, count, page, desc, err)
					}
					var got []struct{ I int }
					if err := json.Unmarshal(b, &got); err != nil || b[len(b)-1] != '\n' {
						t.Fatalf("n %d: %q", n, b)
					}
					want := []struct{ I int }{}
					for k := page * count; k < min((page+1)*count, n); k++ {
						i := k
						if desc {
							i = n - 1 - k
						}
						want = append(want, struct{ I int }{i})
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("n %d count %d page %d desc %v: %v, want %v", n, count, page, desc, got, want)
					}
				}
				if count == 1 && n > 1000 {
					break // enough pages of the long list
				}
			}
		}
		if reads != 2 {
			t.Errorf("a list of %d read %d times, want 2 (the first ask, then the one that stored it)", n, reads)
		}
	}
}

// Pages asked for at once (blockfrost-js asks for ten) share one read of
// the list that stores it.
func TestDialectPageConcurrent(t *testing.T) {
	db, _ := seededChain(t)
	s := New(Options{Redis: testdb.Redis(t)}) // blocks outlive the local copies (5 s)
	// A page read back from Redis past its deadline is read from the
	// database instead (the cache failing must not fail the request), so
	// on a box saturated by other tests one try may read a third time:
	// a fresh list is tried again, and every try reading more fails it.
	var n int32
	for try := range 3 {
		if n = concurrentPagesReads(t, s, db, fmt.Sprint("concurrent", try)); n == 2 {
			return
		}
	}
	t.Errorf("the list was read %d times, want 2 (the first ask, then one read for the ten at once)", n)
}

// concurrentPagesReads asks a list of 1,000 items once, then its ten
// pages at once, and says how often the list was read.
func concurrentPagesReads(t *testing.T, s *Service, db *dbsync.DB, name string) int32 {
	var reads atomic.Int32
	list := DialectList{Params: []string{"test", name},
		Each: func(ctx context.Context, _ *dbsync.DB, fn func([]byte) error) error {
			reads.Add(1)
			for i := range 1000 {
				if err := fn([]byte(fmt.Sprintf(`{"i":%d}`, i))); err != nil {
					return err
				}
			}
			return nil
		}}
	if _, err := s.DialectPage(t.Context(), db, list, ListPage{Count: 100}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for page := range 10 {
		wg.Go(func() {
			b, err := s.DialectPage(t.Context(), db, list, ListPage{Offset: page * 100, Count: 100})
			var got []struct{ I int }
			if err != nil || json.Unmarshal(b, &got) != nil || len(got) != 100 || got[0].I != page*100 {
				t.Errorf("page %d: %v %.80s", page, err, b)
			}
		})
	}
	wg.Wait()
	return reads.Load()
}

// TestHeadPage cuts the pages it takes from block 0's bytes as cutPage
// cuts them from its items, and leaves every other page (and a head not
// in headOf's form) to cutPage.
func TestHeadPage(t *testing.T) {
	for _, n := range []int{0, 1, 3, 100, 101} {
		items := make([][]byte, min(n, listBlock))
		for i := range items {
			items[i] = []byte(fmt.Sprintf(`{"i":%d}`, i))
		}
		head := headOf(n, items)
		for _, p := range []ListPage{{0, 100, false}, {0, 3, false}, {0, 1, false}, {3, 100, false}, {100, 100, false},
			{101, 100, true}, {0, 100, true}, {1, 1, false}} {
			got, ok := headPage(head, p)
			if !ok {
				continue
			}
			if want := cutPage(n, p, func(int) [][]byte { return items }); string(got) != string(want) {
				t.Fatalf("n %d %+v: %s, want %s", n, p, got, want)
			}
		}
		if _, ok := headPage(head, ListPage{Count: 100}); !ok {
			t.Fatalf("n %d: the first page was not cut from the head", n)
		}
	}
	for _, bad := range []string{"", "[]", "[x,[]]", "[1,{}]", "[-1,[]]", `[2,["a"]`} {
		if _, ok := headPage([]byte(bad), ListPage{Count: 100}); ok {
			t.Fatalf("%q: cut", bad)
		}
	}
}

// TestSplitArray cuts arrays of the items encoding/json writes (strings
// holding every structural character, escapes, nesting, empty values)
// as encoding/json does, and refuses bytes not shaped as an array.
func TestSplitArray(t *testing.T) {
	values := []any{
		map[string]any{"a": `x,]}{["\`, "b": []any{1, "2", map[string]any{}}, "c": nil},
		"quote \" and \\ and \u2028", 0, -1.5e10, true, nil, []any{}, map[string]any{}, []any{[]any{","}},
	}
	for n := 0; n <= len(values); n++ {
		var items [][]byte
		for _, v := range values[:n] {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			items = append(items, b)
		}
		got, ok := splitArray(arrayOf(items))
		var want []json.RawMessage
		if err := json.Unmarshal(arrayOf(items), &want); err != nil || !ok || len(got) != len(want) {
			t.Fatalf("%d items: ok %v, %d items, want %d (%v)", n, ok, len(got), len(want), err)
		}
		for i := range got {
			if string(got[i]) != string(want[i]) {
				t.Fatalf("item %d: %s, want %s", i, got[i], want[i])
			}
		}
		total, head, err := parseHead(headOf(n+7, items))
		if err != nil || total != n+7 || len(head) != n {
			t.Fatalf("head of %d items: %d, %d items, %v", n, total, len(head), err)
		}
	}
	for _, bad := range []string{"", "[", "]", "{}", "[1,]", "[,1]", `["a]`, "[[1]", "[1]]", "[1,,2]"} {
		if items, ok := splitArray([]byte(bad)); ok {
			t.Errorf("%q: cut into %q", bad, items)
		}
	}
}
