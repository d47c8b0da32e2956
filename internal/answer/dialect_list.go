package answer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/service/touched"
)

// Another dialect's lists paged by offset (Blockfrost's count and page
// over an address's UTxOs): a client walks every page of a list, each a
// request, so reading the whole list for each page would cost a list of n
// items n/100 reads. A list read once is stored under the tip in blocks of
// listBlock items (block 0 with the list's length), from which any page
// is cut (at most two blocks a page); a list about a subject (an address,
// a payment credential, a stake key, an asset) is also kept across tips
// while no block touches it (kept.go): block 0 as the kept record, naming
// the block it was read at, and the other blocks, for a list allowed more
// than one (MaxKept), where they were stored under that block.

// listBlock is the items of one stored block: Blockfrost's largest page,
// so a page of the default count is at most two blocks (one, oldest
// first).
const listBlock = 100

// maxListWindow bounds the items a read holds for a page counted from the
// newest end (whose place is known only at the list's end): deeper, the
// list is stored and the page read back from its blocks.
const maxListWindow = 10 * listBlock

// keptListMaxBytes bounds a list kept across tips (one block, as /v1's
// kept UTxO lists).
const keptListMaxBytes = keptUTxOMaxBytes

// DialectList is one list of another dialect's items.
type DialectList struct {
	// Params name the list in cache keys: the dialect's and the route's
	// names first, then what selects the list (not the page).
	Params []string
	// About, when set, is what the list is about: a list of one block
	// (MaxKept items when more) is then kept across tips.
	About *Subject
	// MaxKept is the most items of a list kept across tips (≤ listBlock:
	// one block, within keptListMaxBytes). A longer list is kept for
	// listKeptFor, its blocks with it (one copy in Redis in place of one
	// per tip); a list found longer than MaxKept is cached under the tip
	// only, as without About.
	MaxKept int
	// Each calls fn with the list's items in chain order, each one JSON
	// value as sent, reading through db in one snapshot; an error from fn
	// stops it and is returned.
	Each func(ctx context.Context, db *dbsync.DB, fn func(item []byte) error) error
}

// ListPage selects a page: Count items after Offset, counted from the
// oldest item, or from the newest when Desc (which also lists them
// newest first).
type ListPage struct {
	Offset, Count int
	Desc          bool
}

// DialectPage answers one page of the list as a JSON array (and a
// newline), read at the request's tip (readAt).
func (s *Service) DialectPage(ctx context.Context, db *dbsync.DB, l DialectList, p ListPage) ([]byte, error) {
	pinned, tip, err := s.readAt(ctx, db)
	if err != nil {
		if waitFailed(ctx, err) {
			return nil, err
		}
		return readListPage(ctx, db, l, p, nil)
	}
	name := pinned.Network.Name + ":" + strings.Join(l.Params, ":")
	var keep func(total int, head []byte)
	var blockTTL time.Duration
	// Any page of a kept list comes from it (Lucid asks for page 2 of
	// every wallet to learn that page 1 was the last).
	if l.About != nil && tip.BlockNo != nil {
		at := touched.Point{Height: *tip.BlockNo, Hash: tip.BlockHash}
		b, k, ttl, hit := s.keptListPage(ctx, db, name, l, at, p, func(hash string) string {
			return tipKey(pinned, dbsync.Tip{BlockHash: hash}, l.Params)
		})
		if hit {
			return b, nil
		}
		keep, blockTTL = k, ttl
	}
	st := &listStore{cache: s, ctx: ctx, base: tipKey(pinned, tip, l.Params), keep: keep, ttl: blockTTL}
	// Stored from the list's second ask (any page, any tip) on: a
	// client walking the pages asks for it again at once.
	if !s.admit.Again("dialectlist:" + name) {
		return readListPage(ctx, pinned, l, p, st)
	}
	if b, ok := st.page(p); ok {
		return b, nil
	}
	// One read stores the list for every request asking for it meanwhile
	// (blockfrost-js asks for ten pages at once); each then cuts its page.
	_, err = s.caches.dialectList.Load(ctx, st.key(0), "fill", false, func(ctx context.Context) ([]byte, time.Duration, error) {
		fill := &listStore{cache: s, ctx: ctx, base: st.base, keep: keep, ttl: blockTTL, on: true}
		_, err := readListPage(ctx, pinned, l, ListPage{Count: listBlock}, fill)
		return nil, 0, err
	})
	if err != nil {
		return nil, err
	}
	if b, ok := st.page(p); ok {
		return b, nil
	}
	st.on = true // not readable back (the cache is failing): read it here
	return readListPage(ctx, pinned, l, p, st)
}

// listKeptFor: how long a list of more than one block is kept across tips
// at most, and its blocks with it (a block touching its subject ends it
// sooner). A list whose kept record was found moved is stored for the
// tip-keyed lists' time instead: its subject moves often, and each read
// would otherwise leave a copy for the longer time.
const listKeptFor = dialectCacheTTL

// keptListWait bounds how long a list allowed more than one block kept
// waits for the tracker to read a new tip's block (milliseconds, where
// the list's read can take hundreds).
const keptListWait = 250 * time.Millisecond

// keptListPage answers a page from the list kept across tips about the
// list's subject; otherwise it says how a list read now at block now is
// kept (nil: it is not) and how long its blocks are stored (0: as under
// the tip). A kept list's blocks after block 0 are under blockBase of
// the block it was read at.
func (s *Service) keptListPage(ctx context.Context, db *dbsync.DB, name string, l DialectList, now touched.Point, p ListPage, blockBase func(hash string) string) (page []byte, keep func(total int, head []byte), blockTTL time.Duration, hit bool) {
	wait := time.Duration(0)
	if l.MaxKept > listBlock {
		// The first request at a new tip mostly comes before the tracker
		// has read its block; building a long list costs far more.
		wait = keptListWait
	}
	w, tracked := s.keptWayWithin(ctx, db, wait)
	if !tracked || w.now != now {
		return nil, nil, 0, false
	}
	if _, long := s.longLists.Get("dialect:" + name); long {
		return nil, nil, 0, false
	}
	moved := false
	at, body, hit, again := w.lookup(ctx, s.caches.dialectKept, name, false, func(at touched.Point) bool {
		still := w.untouched(l.About.s, at)
		moved = moved || !still
		return still
	})
	if hit {
		if b, ok := headPage(body, p); ok {
			return b, nil, 0, true
		}
		if total, items, err := parseHead(body); err == nil && total <= len(items) {
			return cutPage(total, p, func(int) [][]byte { return items }), nil, 0, true
		}
		kept := &listStore{cache: s, ctx: ctx, base: blockBase(at.Hash)}
		if b, ok := kept.cut(body, p); ok {
			return b, nil, 0, true
		}
		// A block of it is gone (expired, evicted): read it again.
	}
	if !again {
		return nil, nil, 0, false
	}
	maxItems, ttl := max(l.MaxKept, listBlock), listKeptFor
	if moved {
		ttl = utxoCacheTTL
	}
	return nil, func(total int, head []byte) {
		if total > maxItems || len(head) > keptListMaxBytes {
			s.longLists.Set("dialect:"+name, time.Now(), len(name)+56)
			return
		}
		if total <= listBlock {
			s.caches.dialectKept.Put(ctx, name, keptRecord(now, head), utxoKeptTTL)
			return
		}
		s.caches.dialectKept.Put(ctx, name, keptRecord(now, head), ttl)
	}, ttl, false
}

// listStore is where a list read now is stored (on), under base.
type listStore struct {
	cache *Service
	ctx   context.Context
	base  string
	on    bool
	// keep, when set, is told block 0 as the list's last step (a list of
	// more than one block only when its blocks were stored: on).
	keep func(total int, head []byte)
	ttl  time.Duration // of the blocks stored (0: utxoCacheTTL)
}

func (st *listStore) key(block int) string { return st.base + ":" + strconv.Itoa(block) }

// put stores a block of items (block 0 with the list's length).
func (st *listStore) put(block int, total int, items [][]byte) {
	ttl := st.ttl
	if ttl <= 0 {
		ttl = utxoCacheTTL
	}
	if block == 0 {
		head := headOf(total, items)
		if st.on {
			st.cache.caches.dialectList.Put(st.ctx, st.key(0), head, ttl)
		}
		if st.keep != nil && (total <= listBlock || st.on) {
			st.keep(total, head)
		}
		return
	}
	if st.on {
		st.cache.caches.dialectList.Put(st.ctx, st.key(block), arrayOf(items), ttl)
	}
}

// lookup reads a stored block.
func (st *listStore) lookup(block int) ([]byte, bool) {
	b, hit, _ := st.cache.caches.dialectList.LookupValid(st.ctx, st.key(block), true, func([]byte) bool { return true })
	return b, hit
}

// page cuts p from the stored blocks; ok is false when one is missing.
func (st *listStore) page(p ListPage) (_ []byte, ok bool) {
	head, hit := st.lookup(0)
	if !hit {
		return nil, false
	}
	return st.cut(head, p)
}

// cut cuts p from block 0 (head) and the stored blocks after it; ok is
// false when one is missing.
func (st *listStore) cut(head []byte, p ListPage) (_ []byte, ok bool) {
	if b, ok := headPage(head, p); ok {
		return b, true
	}
	total, first, ok := splitHead(head)
	if !ok {
		return nil, false
	}
	missing := false
	b := cutPage(total, p, func(block int) [][]byte {
		// Block 0's items are split only for a page that has some of them.
		raw, hit := first, true
		if block > 0 {
			raw, hit = st.lookup(block)
		}
		items, ok := splitArray(raw)
		if !hit || !ok {
			missing = true
			return nil
		}
		return items
	})
	return b, !missing
}

// errListRead stops a list's read once its page is had.
var errListRead = errors.New("answer: page read")

// readListPage reads the list (through db) for page p, storing it in st
// (nil: not stored) as it goes.
func readListPage(ctx context.Context, db *dbsync.DB, l DialectList, p ListPage, st *listStore) ([]byte, error) {
	stores := st != nil && (st.on || st.keep != nil)
	// Newest first, the page's place is known only at the list's end: the
	// newest Offset+Count items are held, or, for a deeper page, the list
	// is stored and the page read back from its blocks.
	useWindow := p.Desc && (p.Offset+p.Count <= maxListWindow || st == nil)
	if p.Desc && !useWindow {
		st.on, stores = true, true
	}
	var (
		n      int
		block  [][]byte // the items of the block being read
		first  [][]byte // block 0, stored last (it carries the length)
		window [][]byte // desc: the newest Offset+Count items seen
		asc    [][]byte // asc: the page
	)
	err := l.Each(ctx, db, func(item []byte) error {
		if !p.Desc && n >= p.Offset && n < p.Offset+p.Count {
			asc = append(asc, item)
		}
		if useWindow {
			window = append(window, item)
			if len(window) > 2*(p.Offset+p.Count) {
				window = append(window[:0], window[len(window)-(p.Offset+p.Count):]...)
			}
		}
		n++
		if stores {
			block = append(block, item)
			if len(block) == listBlock {
				if n == listBlock {
					first = block
				} else {
					st.put(n/listBlock-1, 0, block)
				}
				block = nil
			}
			return nil
		}
		if !p.Desc && n >= p.Offset+p.Count {
			return errListRead
		}
		return nil
	})
	if err != nil && !errors.Is(err, errListRead) {
		return nil, err
	}
	if stores {
		if len(block) > 0 {
			if n <= listBlock {
				first = block
			} else {
				st.put((n-1)/listBlock, 0, block)
			}
		}
		st.put(0, n, first)
	}
	switch {
	case !p.Desc:
		return arrayOfLine(asc), nil
	case useWindow:
		return cutPage(n, p, func(int) [][]byte { return nil }, window...), nil
	}
	b, ok := st.page(p)
	if !ok {
		return nil, fmt.Errorf("answer: a deep page of a %d-item list could not be read back from the cache", n)
	}
	return b, nil
}

// cutPage is page p of a list of total items as a JSON array: its items
// from the blocks blockAt gives, or, when tail is given, from tail (the
// list's newest items).
func cutPage(total int, p ListPage, blockAt func(block int) [][]byte, tail ...[]byte) []byte {
	lo, hi := p.Offset, p.Offset+p.Count // oldest first
	if p.Desc {
		lo, hi = total-p.Offset-p.Count, total-p.Offset
	}
	lo, hi = max(lo, 0), min(hi, total)
	var items [][]byte
	var block [][]byte // the block of item i, read once
	for i, at := lo, -1; i < hi; i++ {
		if tail != nil {
			items = append(items, tail[len(tail)-(total-i)])
			continue
		}
		if at != i/listBlock {
			at = i / listBlock
			block = blockAt(at)
		}
		if i%listBlock >= len(block) {
			break
		}
		items = append(items, block[i%listBlock])
	}
	if p.Desc {
		for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
			items[i], items[j] = items[j], items[i]
		}
	}
	return arrayOfLine(items)
}

// headOf is block 0 as stored: [<total>,[<items>]].
func headOf(total int, items [][]byte) []byte {
	b := append([]byte{'['}, strconv.Itoa(total)...)
	b = append(b, ',')
	return append(append(b, arrayOf(items)...), ']')
}

// headPage cuts the pages most asked for straight from block 0's bytes,
// without reading its items: the first page, oldest first, when it is the
// whole block (a wallet's UTxOs at Blockfrost's default count) and any
// page past the list's end (the page a client asks to learn the list
// ended). ok is false for any other page, or a head not in headOf's form.
func headPage(head []byte, p ListPage) (_ []byte, ok bool) {
	total, items, ok := splitHead(head)
	if !ok {
		return nil, false
	}
	switch {
	case p.Offset >= total:
		return []byte("[]\n"), true
	case !p.Desc && p.Offset == 0 && (p.Count >= total || p.Count == listBlock):
		return append(items[:len(items):len(items)], '\n'), true
	}
	return nil, false
}

// splitHead reads block 0's length and the bytes of its items' array,
// which it does not split; ok is false for a head not in headOf's form.
func splitHead(head []byte) (total int, items []byte, ok bool) {
	comma := bytes.IndexByte(head, ',')
	if len(head) < 5 || head[0] != '[' || comma < 2 || head[comma+1] != '[' || string(head[len(head)-2:]) != "]]" {
		return 0, nil, false
	}
	total, err := strconv.Atoi(string(head[1:comma]))
	if err != nil || total < 0 {
		return 0, nil, false
	}
	return total, head[comma+1 : len(head)-1], true
}

// parseHead reads block 0.
func parseHead(b []byte) (total int, items [][]byte, err error) {
	total, array, ok := splitHead(b)
	if ok {
		items, ok = splitArray(array)
	}
	if !ok {
		return 0, nil, fmt.Errorf("answer: a list head that is not [total, items]")
	}
	return total, items, nil
}

// splitArray cuts a JSON array this package stored (arrayOf over items
// each encoding/json wrote) into its items, in one pass over the bytes:
// decoding it with encoding/json (which checks, then scans it again) was
// most of a deep page's cost. Only the structure is followed (strings,
// escapes, nesting); ok is false for bytes not shaped as such an array.
func splitArray(b []byte) (items [][]byte, ok bool) {
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return nil, false
	}
	body := b[1 : len(b)-1]
	if len(body) == 0 {
		return [][]byte{}, true
	}
	depth, start, inString := 0, 0, false
	for i := 0; i < len(body); i++ {
		c := body[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth < 0 {
				return nil, false
			}
		case ',':
			if depth == 0 {
				if i == start {
					return nil, false
				}
				items = append(items, body[start:i:i])
				start = i + 1
			}
		}
	}
	if inString || depth != 0 || start == len(body) {
		return nil, false
	}
	return append(items, body[start:len(body):len(body)]), true
}

// arrayOf is items as a JSON array.
func arrayOf(items [][]byte) []byte {
	size := 2
	for _, it := range items {
		size += len(it) + 1
	}
	b := make([]byte, 0, size+1)
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	return append(b, ']')
}

// arrayOfLine is arrayOf with the newline every answer ends with.
func arrayOfLine(items [][]byte) []byte { return append(arrayOf(items), '\n') }
