package spool

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func newSpool(t *testing.T, max int64) *Spool {
	t.Helper()
	s, err := New(t.TempDir(), max)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func write(t *testing.T, s *Spool, key, body string) bool {
	t.Helper()
	w := s.Create(key, time.Minute)
	if w == nil {
		t.Fatalf("Create(%q) = nil", key)
	}
	defer w.Abort()
	for _, part := range strings.SplitAfter(body, ",") {
		w.Write([]byte(part))
	}
	return w.Commit()
}

func read(t *testing.T, s *Spool, key string) (string, bool) {
	t.Helper()
	f, size, ok := s.Open(key)
	if !ok {
		return "", false
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(b)) != size {
		t.Fatalf("size %d, read %d bytes", size, len(b))
	}
	return string(b), true
}

func TestCommittedEntriesAreServedWhole(t *testing.T) {
	s := newSpool(t, 1<<20)
	if _, ok := read(t, s, "a"); ok {
		t.Fatal("an empty spool served an entry")
	}
	w := s.Create("a", time.Minute)
	w.Write([]byte(`{"data":[1,`))
	if _, ok := read(t, s, "a"); ok {
		t.Fatal("an entry was visible before its commit")
	}
	if s.Create("a", time.Minute) != nil {
		t.Fatal("a second writer was given a key being written")
	}
	w.Write([]byte(`2]}`))
	if !w.Commit() {
		t.Fatal("commit failed")
	}
	if got, ok := read(t, s, "a"); !ok || got != `{"data":[1,2]}` {
		t.Fatalf("read %q, %v", got, ok)
	}
	if s.Create("a", time.Minute) != nil {
		t.Fatal("a writer was given a key already held")
	}
	if s.Used() != int64(len(`{"data":[1,2]}`)) {
		t.Fatalf("used %d", s.Used())
	}
}

func TestAbortedAndOversizedEntriesLeaveNothing(t *testing.T) {
	s := newSpool(t, 10)
	w := s.Create("a", time.Minute)
	w.Write([]byte("12345"))
	w.Abort()
	if _, ok := read(t, s, "a"); ok {
		t.Fatal("an aborted entry was served")
	}
	if write(t, s, "b", "0123456789,x") {
		t.Fatal("an entry over the bound was committed")
	}
	if _, ok := read(t, s, "b"); ok {
		t.Fatal("an entry over the bound was served")
	}
	files, _ := os.ReadDir(s.Dir())
	if len(files) != 1 || s.Used() != 0 { // the owner file
		t.Fatalf("%d files and %d bytes left behind", len(files), s.Used())
	}
	if !write(t, s, "a", "again") {
		t.Fatal("a key could not be written after an abort")
	}
}

func TestOldestEntriesGoFirstAndOpenFilesSurvive(t *testing.T) {
	s := newSpool(t, 10)
	write(t, s, "a", "aaaa")
	write(t, s, "b", "bbbb")
	f, _, ok := s.Open("a")
	if !ok {
		t.Fatal("a missing")
	}
	defer f.Close()
	write(t, s, "c", "cccc") // 12 bytes > 10: a goes
	if _, ok := read(t, s, "a"); ok {
		t.Fatal("the oldest entry was not evicted")
	}
	for _, k := range []string{"b", "c"} {
		if _, ok := read(t, s, k); !ok {
			t.Fatalf("%s evicted", k)
		}
	}
	if b, _ := io.ReadAll(f); string(b) != "aaaa" {
		t.Fatalf("an evicted file being read gave %q", b)
	}
	files, _ := os.ReadDir(s.Dir())
	if len(files) != 3 || s.Used() != 8 { // b, c and the owner file
		t.Fatalf("%d files, %d bytes", len(files), s.Used())
	}
}

func TestEntriesExpire(t *testing.T) {
	s := newSpool(t, 100)
	now := time.Unix(1_700_000_000, 0)
	s.now = func() time.Time { return now }
	write(t, s, "a", "aaaa")
	now = now.Add(59 * time.Second)
	if _, ok := read(t, s, "a"); !ok {
		t.Fatal("expired early")
	}
	now = now.Add(time.Second)
	if _, ok := read(t, s, "a"); ok {
		t.Fatal("served after its age")
	}
	if s.Used() != 0 {
		t.Fatalf("an expired entry still counts %d bytes", s.Used())
	}
	write(t, s, "b", "bbbb")
	now = now.Add(2 * time.Minute)
	write(t, s, "c", "cccc")                              // commits sweep expired entries
	if files, _ := os.ReadDir(s.Dir()); len(files) != 2 { // c and the owner file
		t.Fatalf("%d files after the sweep", len(files))
	}
}

func TestNilSpoolHoldsNothing(t *testing.T) {
	var s *Spool
	if w := s.Create("a", time.Minute); w != nil {
		t.Fatal("nil spool gave a writer")
	}
	var w *Writer
	w.Write([]byte("x"))
	w.Abort()
	if w.Commit() {
		t.Fatal("nil writer committed")
	}
	if _, _, ok := s.Open("a"); ok {
		t.Fatal("nil spool served")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCloseRemovesTheDirectory(t *testing.T) {
	s, err := New(t.TempDir(), 100)
	if err != nil {
		t.Fatal(err)
	}
	write(t, s, "a", "aaaa")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Dir()); !os.IsNotExist(err) {
		t.Fatalf("directory still there: %v", err)
	}
	if _, err := New(t.TempDir(), 0); err == nil {
		t.Fatal("a zero bound was accepted")
	}
}

// A directory left by a process that died (its lock file unlocked) is
// removed by the next spool made under the same parent; one whose owner
// holds its lock, and a directory that is not a spool's, stay.
func TestOrphansAreRemoved(t *testing.T) {
	parent := t.TempDir()
	orphan := filepath.Join(parent, dirPrefix+"orphan")
	live := filepath.Join(parent, dirPrefix+"live")
	foreign := filepath.Join(parent, dirPrefix+"foreign")
	for _, dir := range []string{orphan, live, foreign} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "1"), []byte("old list"), 0o600)
		if dir != foreign {
			os.WriteFile(filepath.Join(dir, lockFile), nil, 0o600)
		}
	}
	held, err := os.Open(filepath.Join(live, lockFile))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	s, err := New(parent, 100)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatalf("the dead owner's spool is still there (%v)", err)
	}
	for _, dir := range []string{live, foreign, s.Dir()} {
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("%s removed: %v", dir, err)
		}
	}
	// A second spool in the same parent leaves the first, which is alive.
	s2, err := New(parent, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := os.Stat(s.Dir()); err != nil {
		t.Fatalf("a live spool was removed: %v", err)
	}
	// Once closed (its lock released with it), nothing is left behind.
	s.Close()
	if _, err := os.Stat(s.Dir()); !os.IsNotExist(err) {
		t.Fatalf("a closed spool's directory is still there (%v)", err)
	}
}

// Files being written count against the bound: a second writer cannot
// take more than what the first leaves, and committed entries are evicted
// to make room for new bytes.
func TestWritersInProgressCount(t *testing.T) {
	s := newSpool(t, 10)
	a := s.Create("a", time.Minute)
	b := s.Create("b", time.Minute)
	a.Write([]byte("123456"))
	b.Write([]byte("12345")) // 11 > 10: b gives up
	if b.Commit() {
		t.Fatal("a writer passed the bound with another in progress")
	}
	if !a.Commit() || s.Used() != 6 {
		t.Fatalf("used %d after a's commit", s.Used())
	}
	if !write(t, s, "c", "abcdefgh") { // evicts a
		t.Fatal("a new entry could not make room")
	}
	if _, ok := read(t, s, "a"); ok || s.Used() != 8 {
		t.Fatalf("a still served, or used %d", s.Used())
	}
	s.mu.Lock()
	pending := s.pending
	s.mu.Unlock()
	if pending != 0 {
		t.Fatalf("%d bytes still reserved with no writer left", pending)
	}
}
