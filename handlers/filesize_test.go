package handlers

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxHandlerFileLines is the house rule for handler files: past it a file
// holds more than one job and is split by topic.
const maxHandlerFileLines = 300

// TestHandlerFilesShort fails for any non-test Go file under handlers/
// (subpackages included) longer than maxHandlerFileLines.
func TestHandlerFilesShort(t *testing.T) {
	seen := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		seen++
		if n := lineCount(data); n > maxHandlerFileLines {
			t.Errorf("handlers/%s: %d lines, over %d: split it by topic", filepath.ToSlash(path), n, maxHandlerFileLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The walk must have reached this package's and the subpackages' files.
	for _, f := range []string{"routes.go", "adminapi/api.go", "webhookapi/api.go"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("walk root is not handlers/: %v", err)
		}
	}
	if seen < 10 {
		t.Errorf("walked only %d Go files under handlers/", seen)
	}
}

// lineCount counts lines as wc -l does, plus an unterminated last line.
func lineCount(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

func TestLineCount(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "a\nb\n\n": 3} {
		if got := lineCount([]byte(in)); got != want {
			t.Errorf("lineCount(%q) = %d, want %d", in, got, want)
		}
	}
}
