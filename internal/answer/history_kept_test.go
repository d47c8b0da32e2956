package answer

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/service/touched"
)

// A history page kept for an address is answered at later tips, naming
// the later tip, while no block touches the address; a page of an address
// paid since, or kept before a rollback, is read again. Kept pages are
// byte for byte what a fresh read at the later tip gives; to tell a kept
// page from a fresh one, records are also planted with data no read gives.
func TestHistoryKeptAcrossTipsWhileUntouched(t *testing.T) {
	k := newKeptChain(t, chaingen.ModeConsumed)
	db, m, s, other := k.db, k.m, k.s, k.other
	tipNow, appendBlock, f := k.tipNow, k.appendBlock, k.f
	pointOf := func(tip dbsync.Tip) touched.Point { return touched.Point{Height: *tip.BlockNo, Hash: tip.BlockHash} }
	q := dbsync.HistoryQuery{Limit: 5}
	light := func(s *Service, addr string) []byte {
		t.Helper()
		b, err := s.LightHistory(t.Context(), db, mustParse(t, addr), q)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	detailed := func(s *Service, addr string) []byte {
		t.Helper()
		b, err := s.DetailedHistory(t.Context(), db, mustParse(t, addr), q, false)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// A service of its own for each fresh read: nothing kept, nothing cached.
	freshLight := func(addr string) []byte { return light(New(Options{}), addr) }
	freshDetailed := func(addr string) []byte { return detailed(New(Options{}), addr) }
	quiet, paid := m.ByronAddress.Address, m.Whale.Address
	light(other, quiet) // its first ask: not looked up, the next one is
	// Asked twice under one tip: kept from the second ask.
	for range 2 {
		for _, a := range []string{quiet, paid} {
			if b, want := light(s, a), freshLight(a); !bytes.Equal(b, want) {
				t.Fatalf("%s: %s, want %s", a, b, want)
			}
			detailed(s, a)
		}
	}
	start := tipNow()
	appendBlock("")
	later := tipNow()
	if later.BlockHash == start.BlockHash {
		t.Fatal("the tip did not move")
	}
	// The kept page names the later tip and is what a read there gives.
	for _, a := range []string{quiet, paid} {
		b, want := light(s, a), freshLight(a)
		if !bytes.Equal(b, want) {
			t.Errorf("%s at a later tip: %s, want %s", a, b, want)
		}
		if !bytes.Contains(b, []byte(later.BlockHash)) {
			t.Errorf("%s at a later tip: %s names another tip than %s", a, b, later.BlockHash)
		}
		if b, want := detailed(s, a), freshDetailed(a); !bytes.Equal(b, want) {
			t.Errorf("%s detailed at a later tip: %s, want %s", a, b, want)
		}
	}

	// Planted records tell kept answers from read ones.
	plantedData := `{"success":true,"data":[{"planted":true}],"pagination":{"limit":5,"offset":0,"total":1,"hasMore":false}`
	plant := func(addr string, at dbsync.Tip) {
		body := wire.AppendEnvelope(nil, func(b []byte) []byte { return append(b, `[{"planted":true}]`...) },
			&wire.Pagination{Limit: 5, Total: 1, HasMore: new(bool)}, &wire.LastUpdated{SlotNo: at.SlotNo, BlockHash: at.BlockHash, BlockTime: wire.BlockTime(at.BlockTime)})
		key := "mainnet:light:" + addressDigest(mustParse(t, addr)) + ":5:false"
		s.caches.historyKept.Put(t.Context(), key, keptRecord(pointOf(at), body), 0)
	}
	plant(quiet, later)
	plant(paid, later)
	appendBlock(paid)
	tip := tipNow()
	want := plantedData + `,"last_updated":{"slot_no":` + strconv.FormatInt(tip.SlotNo, 10) + `,"block_hash":"` + tip.BlockHash + `","block_time":"` + wire.BlockTime(tip.BlockTime) + `"}}` + "\n"
	if b := light(s, quiet); string(b) != want {
		t.Errorf("untouched address: %s, want its kept page at the new tip %s", b, want)
	}
	if b := light(other, quiet); string(b) != want {
		t.Errorf("untouched address on another instance: %s, want the kept page from Redis %s", b, want)
	}
	b := light(s, paid)
	if bytes.Contains(b, []byte("planted")) {
		t.Fatal("the paid address got its kept page")
	}
	if want := freshLight(paid); !bytes.Equal(b, want) {
		t.Errorf("the paid address: %s, want %s", b, want)
	}

	// A rollback of that block: nothing kept at it is answered.
	plant(quiet, tip)
	if _, err := f.Rollback(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	appendBlock("")
	if b, want := light(s, quiet), freshLight(quiet); !bytes.Equal(b, want) || strings.Contains(string(b), "planted") {
		t.Errorf("after a rollback: %s, want %s", b, want)
	}
}
