package handlers

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/nodetest"
)

// bfMempoolServer serves db as mainnet with a fake node whose mempool is
// raws, in that order (the node's order: oldest first). One snapshot
// serves a whole test, however slow the machine.
func bfMempoolServer(t *testing.T, db *dbsync.DB, raws ...[]byte) (http.Handler, *nodetest.Node) {
	t.Helper()
	mainnet, _ := cardano.NetworkByName("mainnet")
	n := nodetest.Start(t, mainnet.Magic)
	m := nodetest.Mempool{Slot: 1, Capacity: 1 << 20}
	for _, r := range raws {
		m.Txs = append(m.Txs, nodetest.MempoolTx(r))
	}
	n.SetMempool(m)
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": db}, Credentials: testCredentials, Log: quietLog,
		Mempool: node.NewMempool(map[string]string{"mainnet": n.Socket}, node.MempoolOptions{MaxAge: time.Minute})})
	return s.Handler(), n
}

// bfHashes is a mempool list's hashes.
func bfHashes(t *testing.T, h http.Handler, path string) []string {
	t.Helper()
	var items []struct {
		TxHash string `json:"tx_hash"`
	}
	bfJSON(t, h, path, &items)
	out := []string{}
	for _, it := range items {
		out = append(out, it.TxHash)
	}
	return out
}

// walkPages reads every page of count items, ascending then descending,
// and checks both against want (in the node's order).
func walkMempoolPages(t *testing.T, h http.Handler, path string, count int, want []string) {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	for _, order := range []string{"asc", "desc"} {
		var got []string
		for page := 1; ; page++ {
			items := bfHashes(t, h, path+sep+"count="+strconv.Itoa(count)+"&page="+strconv.Itoa(page)+"&order="+order)
			if len(items) > count {
				t.Fatalf("%s page %d: %d items, count %d", path, page, len(items), count)
			}
			got = append(got, items...)
			if len(items) < count {
				break
			}
		}
		w := slices.Clone(want)
		if order == "desc" {
			slices.Reverse(w)
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s by %d %s:\n got %v\nwant %v", path, count, order, got, w)
		}
	}
}

func TestBlockfrostMempoolLists(t *testing.T) {
	for _, c := range seededChains(t) {
		w := newMempoolWorld(t, c)
		h, n := bfMempoolServer(t, c.db, w.all...)
		t.Run(string(c.mode), func(t *testing.T) {
			if got := bfHashes(t, h, "/mempool"); !slices.Equal(got, w.hashes) {
				t.Errorf("/mempool: %v, want %v", got, w.hashes)
			}
			for _, count := range []int{1, 5, 26, 100} {
				walkMempoolPages(t, h, "/mempool", count, w.hashes)
			}
			if got := bfHashes(t, h, "/mempool?count=5&page=21474836"); len(got) != 0 {
				t.Errorf("the last page there is: %v", got)
			}
			// By address: x's outputs are spent by a (its regular
			// inputs; c spends x only as collateral), y is paid by a and
			// its output spent by b, z is paid by all three.
			aHash, bHash, cHash := w.hashes[len(w.hashes)-3], w.hashes[len(w.hashes)-2], w.hashes[len(w.hashes)-1]
			byAddress := map[string][]string{w.x[0].Address: {aHash}, w.y: {aHash, bHash}, w.z: {aHash, bHash, cHash}}
			// A Byron output of the first vector, in base58.
			byron := decodedVector(t, w.vectors[0]).Outputs[0].Address
			byAddress[byron] = []string{w.vectors[0].Hash}
			for addr, want := range byAddress {
				for _, count := range []int{1, 2, 100} {
					walkMempoolPages(t, h, "/mempool/addresses/"+addr, count, want)
				}
			}
			// Upper-case bech32 is the same address.
			if got := bfHashes(t, h, "/mempool/addresses/"+strings.ToUpper(w.y)); !slices.Equal(got, byAddress[w.y]) {
				t.Errorf("upper case: %v", got)
			}
			var quiet string
			if err := c.raw.Get(&quiet, `SELECT address FROM tx_out WHERE address LIKE 'addr1%' AND address <> ALL($1)
				ORDER BY id DESC LIMIT 1`, pq.Array([]string{w.x[0].Address, w.y, w.z})); err != nil {
				t.Fatal(err)
			}
			if r := bfGet(t, h, mainnetKey, "/mempool/addresses/"+quiet); r.Code != 200 || string(r.Body) != "[]\n" {
				t.Errorf("an address no mempool transaction touches: %d %s", r.Code, r.Body)
			}
			mempoolRefusals(t, h, w)
			if a := n.Acquires(); a != 1 {
				t.Errorf("%d snapshots for one walk, want 1 (shared)", a)
			}
		})
	}
}

// mempoolRefusals: the paging, address and hash refusals, each a 400 in
// Blockfrost's shape naming what was wrong; an unknown hash a 404.
func mempoolRefusals(t *testing.T, h http.Handler, w mempoolWorld) {
	t.Helper()
	for _, path := range []string{"/mempool", "/mempool/addresses/" + w.z} {
		for q, name := range map[string]string{"count=0": "count", "count=101": "count", "count=x": "count", "count=": "count",
			"page=0": "page", "page=21474837": "page", "page=-1": "page", "order=up": "order", "order=asc&order=desc": "order",
			"count=1&count=2": "count"} {
			r := bfGet(t, h, mainnetKey, path+"?"+q)
			if e := r.errorOf(t); r.Code != 400 || !strings.HasPrefix(e.Message, "Invalid "+name+":") || e.Error != "Bad Request" {
				t.Errorf("%s?%s: %d %+v", path, q, r.Code, e)
			}
		}
	}
	for _, bad := range []string{"addr_test1vpfwv0ezc5g8a4mkku8hhy3y3vp92t7s3ul8g778g5yegsgalc6gc", // preprod
		"stake1uyqzrkhp99ek4yzj8e2t0mjpkwsp40pvpvzf2p9e67thhyqjrq7qn", w.y[:len(w.y)-1], "xyz", strings.Repeat("a", 64)} {
		r := bfGet(t, h, mainnetKey, "/mempool/addresses/"+bad)
		if e := r.errorOf(t); r.Code != 400 || e.Message != "Invalid address format" {
			t.Errorf("address %q: %d %+v", bad, r.Code, e)
		}
	}
	for _, bad := range []string{w.hashes[0][:63], w.hashes[0] + "0", strings.Repeat("g", 64), "latest"} {
		r := bfGet(t, h, mainnetKey, "/mempool/"+bad)
		if e := r.errorOf(t); r.Code != 400 || e.Message != "Invalid transaction hash format (expected 64 hex characters)" {
			t.Errorf("hash %q: %d %+v", bad, r.Code, e)
		}
	}
	r := bfGet(t, h, mainnetKey, "/mempool/"+strings.Repeat("0", 64))
	if e := r.errorOf(t); r.Code != 404 || e.Message != "The requested component has not been found." {
		t.Errorf("unknown hash: %d %+v", r.Code, e)
	}
}

// Without a node, with a dead one, or with db-sync out of reach: the list
// needs only the node; a transaction's inputs need db-sync too.
func TestBlockfrostMempoolUnavailable(t *testing.T) {
	mainnet, _ := cardano.NetworkByName("mainnet")
	none := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": unqueriedDB(t, mainnet)}, Credentials: testCredentials, Log: quietLog}).Handler()
	dead, n := bfMempoolServer(t, unqueriedDB(t, mainnet))
	n.Close()
	txs := vectorTxs(t)
	payee := decodedVector(t, txs[3]).Outputs[0].Address
	for _, h := range []http.Handler{none, dead} {
		for _, path := range []string{"/mempool", "/mempool/" + strings.Repeat("a", 64), "/mempool/addresses/" + payee} {
			r := bfGet(t, h, mainnetKey, path)
			if e := r.errorOf(t); r.Code != 503 || e.Message != "Mempool is unavailable for network mainnet" || e.Error != "Service Unavailable" {
				t.Errorf("%s: %d %+v", path, r.Code, e)
			}
		}
	}
	h, _ := bfMempoolServer(t, unqueriedDB(t, mainnet), txs[3].CBOR)
	if got := bfHashes(t, h, "/mempool"); !slices.Equal(got, []string{txs[3].Hash}) {
		t.Errorf("the list without db-sync: %v", got)
	}
	r := bfGet(t, h, mainnetKey, "/mempool/"+txs[3].Hash)
	if e := r.errorOf(t); r.Code != 503 || e.Error != "Service Unavailable" {
		t.Errorf("a transaction without db-sync: %d %+v", r.Code, e)
	}
}

// Concurrent asks of one snapshot share it and its index of inputs: one
// acquisition, every answer the same.
func TestBlockfrostMempoolByAddressShared(t *testing.T) {
	c := seededChains(t)[0]
	w := newMempoolWorld(t, c)
	h, n := bfMempoolServer(t, c.db, w.all...)
	var wg sync.WaitGroup
	got := make([][]string, 16)
	for i := range got {
		wg.Go(func() { got[i] = bfHashes(t, h, "/mempool/addresses/"+w.y) })
	}
	wg.Wait()
	for i := range got {
		if !slices.Equal(got[i], got[0]) || len(got[i]) != 2 {
			t.Errorf("request %d: %v (first: %v)", i, got[i], got[0])
		}
	}
	if a := n.Acquires(); a != 1 {
		t.Errorf("%d acquisitions, want 1", a)
	}
}
