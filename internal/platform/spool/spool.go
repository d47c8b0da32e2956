// Package spool keeps whole copies of long cached answers (UTxO lists of
// tens of megabytes) in files of one private directory, bounded in bytes
// (files being written included) and in age. An instance that has
// produced or read such an answer once serves it again from the file, a
// small pooled buffer at a time: a repeated long answer costs no Redis
// round trips, and the bytes sit in the page cache, not in the Go heap
// (Redis replies of 256 kB segments made the heap, and the process's RSS,
// grow with every concurrent reader).
//
// Entries never change once committed (their keys name the chain tip they
// were read at), so a file can be served while it is being evicted: an
// open file outlives its name.
package spool

import (
	"container/list"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Spool is safe for concurrent use. A nil *Spool holds nothing.
type Spool struct {
	dir  string
	max  int64
	now  func() time.Time
	lock *os.File // held (flock) while the spool lives

	mu      sync.Mutex
	used    int64                    // bytes of committed entries
	pending int64                    // bytes written by Writers not committed yet
	entries map[string]*list.Element // key → *entry, oldest first in order
	order   *list.List
	filling map[string]bool // keys a Writer is writing
	serial  uint64          // file names
}

type entry struct {
	key     string
	path    string
	size    int64
	expires time.Time
}

// New makes a private directory under parent (os.TempDir() when empty)
// holding at most maxBytes of entries.
func New(parent string, maxBytes int64) (*Spool, error) {
	if maxBytes <= 0 {
		return nil, errors.New("spool: the bound must be positive")
	}
	if parent == "" {
		parent = os.TempDir()
	}
	removeOrphans(parent)
	dir, err := os.MkdirTemp(parent, dirPrefix)
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	// The owner holds an exclusive lock on the directory's lock file for
	// its life; the kernel drops it when the process ends however it ends,
	// so a later process can tell a directory left by a dead one from a
	// live one's (pids cannot: a restarted container's process is pid 1
	// again, and another container's pid means nothing here).
	lock, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err == nil {
		if err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			lock.Close()
		}
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("spool: %w", err)
	}
	return &Spool{dir: dir, max: maxBytes, now: time.Now, lock: lock,
		entries: map[string]*list.Element{}, order: list.New(), filling: map[string]bool{}}, nil
}

const (
	dirPrefix = "syncgate-spool-"
	lockFile  = "owner.lock"
)

// removeOrphans deletes the spool directories under parent whose owner
// is gone (its lock file can be locked): a service restarted after a
// crash would otherwise leave up to its bound on disk each time. A
// directory without a lock file is left alone (not ours to judge), as is
// one whose owner holds its lock.
func removeOrphans(parent string) {
	dirs, _ := filepath.Glob(filepath.Join(parent, dirPrefix+"*"))
	for _, dir := range dirs {
		f, err := os.Open(filepath.Join(dir, lockFile))
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			_ = os.RemoveAll(dir) // the lock goes with the file's close below
		}
		f.Close()
	}
}

// Dir is the spool's directory.
func (s *Spool) Dir() string { return s.dir }

// Close removes the directory and everything in it (files being served
// stay readable until they are closed).
func (s *Spool) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries, s.order, s.used = map[string]*list.Element{}, list.New(), 0
	err := os.RemoveAll(s.dir)
	if s.lock != nil {
		s.lock.Close()
	}
	return err
}

// Open returns key's committed file, positioned at its start, and its
// size; ok is false when there is none (missing, expired or evicted). The
// caller closes the file.
func (s *Spool) Open(key string) (f *os.File, size int64, ok bool) {
	if s == nil {
		return nil, 0, false
	}
	s.mu.Lock()
	el, found := s.entries[key]
	if !found {
		s.mu.Unlock()
		return nil, 0, false
	}
	e := el.Value.(*entry)
	if !s.now().Before(e.expires) {
		s.remove(el)
		s.mu.Unlock()
		return nil, 0, false
	}
	s.mu.Unlock()
	f, err := os.Open(e.path)
	if err != nil { // evicted between the lookup and the open
		return nil, 0, false
	}
	return f, e.size, true
}

// Create returns a Writer for key, whose entry will be served for ttl
// after its commit, or nil when key is held or already being written (one
// copy is enough), or when there is no spool.
func (s *Spool) Create(key string, ttl time.Duration) *Writer {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.entries[key]; ok && s.now().Before(el.Value.(*entry).expires) {
		return nil
	}
	if s.filling[key] {
		return nil
	}
	s.serial++
	path := filepath.Join(s.dir, fmt.Sprintf("%d", s.serial))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil
	}
	s.filling[key] = true
	return &Writer{s: s, key: key, path: path, f: f, ttl: ttl}
}

// remove forgets an entry and deletes its file; s.mu is held.
func (s *Spool) remove(el *list.Element) {
	e := el.Value.(*entry)
	s.order.Remove(el)
	delete(s.entries, e.key)
	s.used -= e.size
	_ = os.Remove(e.path)
}

// reserve counts n more bytes of a Writer against the bound, evicting
// expired entries and then the oldest to make room; false when even an
// empty spool could not hold them. The bound covers files being written
// too, so many lists produced at once cannot overfill the disk.
func (s *Spool) reserve(n int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending+n > s.max {
		return false
	}
	now := s.now()
	for el := s.order.Front(); el != nil && s.used+s.pending+n > s.max; {
		next := el.Next()
		s.remove(el)
		el = next
	}
	for el := s.order.Front(); el != nil; { // expired entries go anyway
		next := el.Next()
		if !now.Before(el.Value.(*entry).expires) {
			s.remove(el)
		}
		el = next
	}
	s.pending += n
	return true
}

// commit adds a written file (its bytes reserved).
func (s *Spool) commit(key, path string, size int64, ttl time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.filling, key)
	s.pending -= size
	if el, ok := s.entries[key]; ok { // an expired copy
		s.remove(el)
	}
	e := &entry{key: key, path: path, size: size, expires: s.now().Add(ttl)}
	s.entries[key] = s.order.PushBack(e)
	s.used += size
	return true
}

// abandon drops a file not committed and releases its reserved bytes.
func (s *Spool) abandon(key, path string, reserved int64) {
	s.mu.Lock()
	delete(s.filling, key)
	s.pending -= reserved
	s.mu.Unlock()
	_ = os.Remove(path)
}

// Used reports the bytes of committed entries.
func (s *Spool) Used() int64 {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}

// Writer writes one entry. It gives up silently at the first failure
// (a full disk, an entry over the bound): the answer being served does
// not depend on its copy. A nil *Writer ignores every call.
type Writer struct {
	s        *Spool
	key      string
	path     string
	f        *os.File
	ttl      time.Duration
	size     int64 // written
	reserved int64 // counted against the bound
	failed   bool
	done     bool
}

// Write appends p.
func (w *Writer) Write(p []byte) {
	if w == nil || w.failed || w.done {
		return
	}
	if !w.s.reserve(int64(len(p))) {
		w.failed = true
		return
	}
	w.reserved += int64(len(p))
	n, err := w.f.Write(p)
	w.size += int64(n)
	if err != nil {
		w.failed = true
	}
}

// Commit makes the entry visible; it reports whether it did.
func (w *Writer) Commit() bool {
	if w == nil || w.done {
		return false
	}
	w.done = true
	if err := w.f.Close(); err != nil || w.failed || w.size != w.reserved {
		w.s.abandon(w.key, w.path, w.reserved)
		return false
	}
	return w.s.commit(w.key, w.path, w.size, w.ttl)
}

// Abort drops an entry not committed (after Commit it does nothing), so
// a deferred Abort ends every Writer.
func (w *Writer) Abort() {
	if w == nil || w.done {
		return
	}
	w.done = true
	_ = w.f.Close()
	w.s.abandon(w.key, w.path, w.reserved)
}
