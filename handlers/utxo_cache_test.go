package handlers

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/platform/spool"
)

// UTxO lists and balances are cached under the tip (a balance: kept with
// its block, across tips) when asked for a second
// time (the first ask stores nothing: most keys are asked for
// once): the third answer is byte for byte the first, read from Redis (a
// list in several segments: the segment size is made small), and a list
// whose first segment is gone is read from the database again. Without
// the cache the answers are the same bytes too.
func TestUTxOAnswersCachedUnderTheTip(t *testing.T) {
	smp := testSamples(t)
	rc := testRedis(t)
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": seededChains(t)[0].db}, Credentials: testCredentials, Redis: rc, Log: quietLog,
		AnswerTuning: answer.Tuning{SegmentSize: 1 << 10}})
	plain := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": seededChains(t)[0].db}, Credentials: testCredentials, Log: quietLog})
	cred := seededChains(t)[0].manifest.Credentials.Payment.Hex
	for _, tc := range []struct{ path, cache string }{
		{"/v1/utxos/address/" + smp.Byron, "utxos"},
		{"/v1/utxos/address/" + smp.Small, "utxos"},
		{"/v1/utxos/stake/" + smp.Stake, "utxos"},
		{"/v1/utxos/credential/" + cred, "utxos"},
		{"/v1/assets/balance/address/" + smp.Byron, "balancekept"},
		{"/v1/assets/balance/stake/" + smp.Stake + "?groupByPolicy=true", "balancekept"},
	} {
		first := get(t, s, tc.path)
		if first.Status != 200 {
			t.Fatalf("%s: %d %s", tc.path, first.Status, first.Raw)
		}
		if keys, _ := rc.Redis().Keys(t.Context(), rc.Key(tc.cache, "mainnet", "*")).Result(); len(keys) != 0 {
			t.Fatalf("%s: cached at its first ask: %v", tc.path, keys)
		}
		if second := get(t, s, tc.path); !bytes.Equal(second.Raw, first.Raw) {
			t.Fatalf("%s: second answer differs", tc.path)
		}
		keys, err := rc.Redis().Keys(t.Context(), rc.Key(tc.cache, "mainnet", "*")).Result()
		if err != nil || len(keys) == 0 {
			t.Fatalf("%s: nothing cached at the second ask (%v)", tc.path, err)
		}
		again := get(t, s, tc.path)
		if !bytes.Equal(again.Raw, first.Raw) {
			t.Fatalf("%s: cached answer differs:\n%s\nwant\n%s", tc.path, again.Raw, first.Raw)
		}
		if direct := get(t, plain, tc.path); !bytes.Equal(direct.Raw, first.Raw) {
			t.Fatalf("%s: answer without the cache differs", tc.path)
		}
		rc.Redis().Del(t.Context(), keys...)
	}

	// A long list is stored in segments; with the first one gone the list
	// comes from the database, whole.
	path := "/v1/utxos/address/" + smp.Byron
	want := get(t, s, path)
	heads, _ := rc.Redis().Keys(t.Context(), rc.Key("utxos", "mainnet", "*", smp.Byron)).Result()
	segs, _ := rc.Redis().Keys(t.Context(), rc.Key("utxos", "mainnet", "*", smp.Byron, "*")).Result()
	if len(heads) != 1 || len(segs) < 2 {
		t.Fatalf("list of %d bytes stored as heads %v and %d segments; want one head and several segments", len(want.Raw), heads, len(segs))
	}
	rc.Redis().Del(t.Context(), heads[0]+":0")
	if got := get(t, s, path); !bytes.Equal(got.Raw, want.Raw) {
		t.Fatalf("with the first segment gone: %s", got.Raw)
	}

	// Concurrent requests for a list not cached yet all get it whole.
	rc.Redis().Del(t.Context(), append(heads, segs...)...)
	var wg sync.WaitGroup
	bodies := make([][]byte, 8)
	for i := range bodies {
		wg.Go(func() { bodies[i] = get(t, s, path).Raw })
	}
	wg.Wait()
	for i, b := range bodies {
		if !bytes.Equal(b, want.Raw) {
			t.Fatalf("concurrent request %d: %d bytes, want %d", i, len(b), len(want.Raw))
		}
	}
}

// First history pages (offset 0, no cursor) are cached when asked for a
// second time, cursor pages near the tip at once, and answered
// the same from there; deeper pages and cursor pages further from the tip
// are not, until asked for again.
func TestFirstHistoryPagesCached(t *testing.T) {
	smp := testSamples(t)
	tip, err := seededChains(t)[0].db.RecentTip(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	recent := strconv.FormatInt(tip.SlotNo-10, 10)
	rc := testRedis(t)
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": seededChains(t)[0].db}, Credentials: testCredentials, Redis: rc, Log: quietLog,
		AnswerTuning: answer.Tuning{RecentCursorSlots: 10}})
	plain := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": seededChains(t)[0].db}, Credentials: testCredentials, Log: quietLog})
	waitTracked(t, s, rc, smp.Small)
	// Pages are kept across tips (historykept) once the server follows
	// the chain, under the tip (history) before.
	keys := func() int {
		n := 0
		for _, name := range []string{"history", "historykept"} {
			k, err := rc.Redis().Keys(t.Context(), rc.Key(name, "mainnet", "*")).Result()
			if err != nil {
				t.Fatal(err)
			}
			n += len(k)
		}
		return n
	}
	for _, path := range []string{"/v1/tx/history/" + smp.Whale, "/v1/tx/address/" + smp.Whale + "?limit=5&groupByPolicy=true", "/v1/tx/history/" + smp.Busy + "?order=asc",
		"/v1/tx/history/" + smp.Whale + "?fromSlot=" + recent, "/v1/tx/address/" + smp.Whale + "?fromSlot=" + recent + "&order=asc"} {
		before := keys()
		if !strings.Contains(path, "fromSlot") {
			if r := get(t, s, path); r.Status != 200 || keys() != before {
				t.Fatalf("%s: %d, %d cached pages after its first ask, want %d", path, r.Status, keys(), before)
			}
		}
		first := get(t, s, path)
		if first.Status != 200 || keys() != before+1 {
			t.Fatalf("%s: %d, %d cached pages after it, want %d", path, first.Status, keys(), before+1)
		}
		if again := get(t, s, path); !bytes.Equal(again.Raw, first.Raw) {
			t.Fatalf("%s: cached page differs", path)
		}
		if direct := get(t, plain, path); !bytes.Equal(direct.Raw, first.Raw) {
			t.Fatalf("%s: page without the cache differs:\n%s\nwant\n%s", path, direct.Raw, first.Raw)
		}
	}
	before := keys()
	for _, path := range []string{"/v1/tx/history/" + smp.Whale + "?offset=20", "/v1/tx/address/" + smp.Whale + "?fromSlot=" + strconv.FormatInt(smp.BusySlot, 10)} {
		if r := get(t, s, path); r.Status != 200 || keys() != before {
			t.Fatalf("%s: %d, cached pages %d, want %d (not cached)", path, r.Status, keys(), before)
		}
	}
	// Asked for again, such a page is cached too (hot pages), and the same.
	path := "/v1/tx/history/" + smp.Whale + "?offset=20"
	direct := get(t, plain, path)
	if r := get(t, s, path); r.Status != 200 || keys() != before+1 || !bytes.Equal(r.Raw, direct.Raw) {
		t.Fatalf("%s asked for again: %d, cached pages %d, want %d", path, r.Status, keys(), before+1)
	}
	// A page too big for the cache is built each time, however often asked.
	small := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": seededChains(t)[0].db}, Credentials: testCredentials, Redis: rc, Log: quietLog,
		AnswerTuning: answer.Tuning{RecentCursorSlots: 10, HotPageMaxBytes: 100}})
	path = "/v1/tx/history/" + smp.Whale + "?offset=25"
	for range 3 {
		if r := get(t, small, path); r.Status != 200 || keys() != before+1 {
			t.Fatalf("%s over the size bound: %d, cached pages %d, want %d", path, r.Status, keys(), before+1)
		}
	}
}

// waitTracked waits until s follows the chain: its tracker of touched
// addresses starts in the background at the first request, and until it
// holds the tip answers are cached under the tip (other keys, admitted
// apart), so a first ask before it and a second after would store nothing.
func waitTracked(t *testing.T, s *Server, rc *cache.Client, addr string) {
	t.Helper()
	for range 200 {
		get(t, s, "/v1/assets/balance/address/"+addr)
		if keys, _ := rc.Redis().Keys(t.Context(), rc.Key("balancekept", "mainnet", "*")).Result(); len(keys) > 0 {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatal("the server never followed the chain")
}

// A transaction's answer, and its 404, are cached under the tip when
// asked for a second time and answered the same from there.
func TestTxByHashCached(t *testing.T) {
	smp := testSamples(t)
	rc := testRedis(t)
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": seededChains(t)[0].db}, Credentials: testCredentials, Redis: rc, Log: quietLog})
	plain := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": seededChains(t)[0].db}, Credentials: testCredentials, Log: quietLog})
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/v1/tx/hash/" + smp.AssetsTx + "?groupByPolicy=true", 200},
		{"/v1/tx/hash/" + smp.FailedTx, 200},
		{"/v1/tx/hash/" + strings.Repeat("ab", 32), 404},
	} {
		first := get(t, s, tc.path)
		if keys, _ := rc.Redis().Keys(t.Context(), rc.Key("tx", "mainnet", "*")).Result(); first.Status != tc.status || len(keys) != 0 {
			t.Fatalf("%s: %d, cached at its first ask: %v", tc.path, first.Status, keys)
		}
		get(t, s, tc.path)
		keys, err := rc.Redis().Keys(t.Context(), rc.Key("tx", "mainnet", "*")).Result()
		if first.Status != tc.status || err != nil || len(keys) != 1 {
			t.Fatalf("%s: %d, cached %v (%v)", tc.path, first.Status, keys, err)
		}
		if again := get(t, s, tc.path); again.Status != tc.status || !bytes.Equal(again.Raw, first.Raw) {
			t.Fatalf("%s: cached answer differs", tc.path)
		}
		if direct := get(t, plain, tc.path); !bytes.Equal(direct.Raw, first.Raw) {
			t.Fatalf("%s: answer without the cache differs", tc.path)
		}
		rc.Redis().Del(t.Context(), keys...)
	}
}

// A list cached in segments has a gzip copy: a client that accepts gzip
// gets it (Content-Encoding: gzip), and it decompresses to the very bytes
// other clients get; a list that fits one segment has no copy and is sent
// as it is; every UTxO answer varies by Accept-Encoding.
func TestUTxOListGzipCopy(t *testing.T) {
	smp := testSamples(t)
	const segmentSize = 4 << 10
	rc := testRedis(t)
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": seededChains(t)[0].db}, Credentials: testCredentials, Redis: rc, Log: quietLog,
		AnswerTuning: answer.Tuning{SegmentSize: segmentSize}})
	send := func(path, acceptEncoding string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+mainnetKey)
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		if w.Code != 200 || w.Header().Get("Vary") != "Accept-Encoding" {
			t.Fatalf("%s: %d, Vary %q", path, w.Code, w.Header().Get("Vary"))
		}
		return w
	}
	big := "/v1/utxos/address/" + smp.Byron
	// The first ask stores nothing: no copy to serve yet.
	if w := send(big, "gzip"); w.Header().Get("Content-Encoding") != "" {
		t.Fatalf("first ask answered %q", w.Header().Get("Content-Encoding"))
	}
	// The second produces the list (and its copy) as it answers.
	first := send(big, "gzip, deflate, br")
	if enc := first.Header().Get("Content-Encoding"); enc != "" {
		t.Fatalf("the producing request is answered plain, got %q", enc)
	}
	plainBody := first.Body.Bytes()
	if len(plainBody) < 2*segmentSize {
		t.Fatalf("the big list has %d bytes: not several segments", len(plainBody))
	}
	for _, ae := range []string{"gzip", "br;q=1.0, gzip;q=0.8, *;q=0.1", "*"} {
		w := send(big, ae)
		if w.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("Accept-Encoding %q: Content-Encoding %q", ae, w.Header().Get("Content-Encoding"))
		}
		if w.Body.Len() >= len(plainBody) {
			t.Fatalf("gzip copy of %d bytes for %d plain ones", w.Body.Len(), len(plainBody))
		}
		zr, err := gzip.NewReader(w.Body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("gzip copy does not decompress: %v", err)
		}
		if !bytes.Equal(got, plainBody) {
			t.Fatalf("gzip copy decompresses to %d bytes, want the %d plain ones", len(got), len(plainBody))
		}
	}
	for _, ae := range []string{"", "identity", "gzip;q=0", "gzip;q=0, *", "deflate, br"} {
		if w := send(big, ae); w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), plainBody) {
			t.Fatalf("Accept-Encoding %q: got Content-Encoding %q, %d bytes", ae, w.Header().Get("Content-Encoding"), w.Body.Len())
		}
	}
	// A one-segment list: no copy, plain for everyone.
	small := "/v1/utxos/address/" + smp.Small
	send(small, "gzip")
	if n := send(small, "gzip").Body.Len(); n > segmentSize {
		t.Fatalf("the small list has %d bytes, more than a segment", n)
	}
	if w := send(small, "gzip"); w.Header().Get("Content-Encoding") != "" {
		t.Fatalf("small list: Content-Encoding %q", w.Header().Get("Content-Encoding"))
	}
	if n, _ := rc.Redis().Keys(t.Context(), rc.Key("utxosgz", "mainnet", "*", smp.Small)).Result(); len(n) != 0 {
		t.Fatalf("small list has a gzip copy: %v", n)
	}
}

// With a spool, each instance keeps the long lists it produced or read
// whole from Redis (plain and gzip) on disk and answers repeats from
// there, with their length: they come back byte for byte with Redis
// emptied. A list that fits one segment is not spooled.
func TestUTxOListsSpooled(t *testing.T) {
	smp := testSamples(t)
	segmentSize := 512 // the gzip copy too spans several
	rc := testRedis(t)
	newInstance := func() (*Server, *spool.Spool) {
		sp, err := spool.New(t.TempDir(), 64<<20)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sp.Close() })
		return New(Deps{Networks: map[string]*dbsync.DB{"mainnet": seededChains(t)[0].db}, Credentials: testCredentials, Redis: rc, Spool: sp, Log: quietLog,
			AnswerTuning: answer.Tuning{SegmentSize: segmentSize}}), sp
	}
	send := func(s *Server, path, acceptEncoding string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+mainnetKey)
		req.Header.Set("Accept-Encoding", acceptEncoding)
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		if w.Code != 200 {
			t.Fatalf("%s: %d %s", path, w.Code, w.Body.String())
		}
		return w
	}
	dropRedis := func() {
		for _, name := range []string{"utxos", "utxosgz"} {
			keys, _ := rc.Redis().Keys(t.Context(), rc.Key(name, "*")).Result()
			rc.Redis().Del(t.Context(), keys...)
		}
	}
	dropRedis()
	producer, producerSpool := newInstance()
	reader, readerSpool := newInstance()
	big := "/v1/utxos/address/" + smp.Byron
	send(producer, big, "") // a first ask stores nothing
	if producerSpool.Used() != 0 {
		t.Fatalf("first ask spooled %d bytes", producerSpool.Used())
	}
	want := send(producer, big, "").Body.Bytes()
	if len(want) < 2*segmentSize || producerSpool.Used() <= int64(len(want)) {
		t.Fatalf("list of %d bytes, producer's spool %d bytes: want the list and its gzip copy", len(want), producerSpool.Used())
	}
	// The other instance's first ask reads the database (admission: never
	// looked up), its next ones read both copies from Redis, so spool them.
	if w := send(reader, big, ""); !bytes.Equal(w.Body.Bytes(), want) || readerSpool.Used() != 0 {
		t.Fatalf("another instance's first ask: %d bytes, spooled %d", w.Body.Len(), readerSpool.Used())
	}
	if w := send(reader, big, ""); w.Header().Get("Content-Length") != "" || !bytes.Equal(w.Body.Bytes(), want) {
		t.Fatalf("read from Redis: Content-Length %q, %d bytes", w.Header().Get("Content-Length"), w.Body.Len())
	}
	send(reader, big, "gzip")
	if readerSpool.Used() != producerSpool.Used() {
		t.Fatalf("reader spooled %d bytes, producer %d", readerSpool.Used(), producerSpool.Used())
	}

	dropRedis()
	for name, s := range map[string]*Server{"producer": producer, "reader": reader} {
		w := send(s, big, "")
		if !bytes.Equal(w.Body.Bytes(), want) || w.Header().Get("Content-Length") != strconv.Itoa(len(want)) {
			t.Fatalf("%s, spooled plain list: %d bytes, Content-Length %q, want %d", name, w.Body.Len(), w.Header().Get("Content-Length"), len(want))
		}
		w = send(s, big, "gzip")
		if w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Content-Length") != strconv.Itoa(w.Body.Len()) {
			t.Fatalf("%s, spooled gzip copy: Content-Encoding %q, Content-Length %q for %d bytes", name, w.Header().Get("Content-Encoding"), w.Header().Get("Content-Length"), w.Body.Len())
		}
		zr, err := gzip.NewReader(w.Body)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: spooled gzip copy gives %d bytes (%v), want %d", name, len(got), err, len(want))
		}
	}

	segmentSize = 4 << 10
	third, thirdSpool := newInstance()
	send(third, "/v1/utxos/address/"+smp.Small, "")
	if w := send(third, "/v1/utxos/address/"+smp.Small, ""); w.Body.Len() > segmentSize || thirdSpool.Used() != 0 {
		t.Fatalf("a one-segment list (%d bytes) took %d bytes of spool", w.Body.Len(), thirdSpool.Used())
	}
}
