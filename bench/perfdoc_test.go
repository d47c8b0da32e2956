package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// docs/PERFORMANCE.md reads its tables from docs/bench-results/. These
// tests keep the two in step: a cited file must be there, a file there
// must be cited, and every link into or out of the page must land.

const (
	perfDoc     = "../docs/PERFORMANCE.md"
	resultsDir  = "../docs/bench-results"
	resultsLink = "bench-results/"
)

var (
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	inlineCode = regexp.MustCompile("`([^`\n]+)`")
	fence      = regexp.MustCompile("(?ms)^```.*?^```")
	resultName = regexp.MustCompile(`^[\w.-]+\.(json|txt)$`)
	quotedPerf = regexp.MustCompile(`PERFORMANCE\.md "([^"]+)"`)
	perfAnchor = regexp.MustCompile(`PERFORMANCE\.md#([\w-]+)`)
)

// perfCitations returns the result files the page cites: link targets
// under bench-results/, and bare file names in inline code outside code
// blocks. A glob or brace list in inline code is reported in bad, since
// it cites files no one can check.
func perfCitations(doc string) (cited map[string]bool, bad []string) {
	cited = map[string]bool{}
	for _, m := range mdLink.FindAllStringSubmatch(doc, -1) {
		if name, ok := strings.CutPrefix(m[1], resultsLink); ok && name != "" {
			cited[name] = true
		}
	}
	for _, m := range inlineCode.FindAllStringSubmatch(fence.ReplaceAllString(doc, ""), -1) {
		code := m[1]
		switch {
		case resultName.MatchString(code):
			cited[code] = true
		case (strings.HasSuffix(code, ".json") || strings.HasSuffix(code, ".txt")) && strings.ContainsAny(code, "*{"):
			bad = append(bad, code)
		}
	}
	return cited, bad
}

func TestPerformanceDocCitesResults(t *testing.T) {
	raw, err := os.ReadFile(perfDoc)
	if err != nil {
		t.Fatal(err)
	}
	cited, bad := perfCitations(string(raw))
	for _, b := range bad {
		t.Errorf("PERFORMANCE.md cites %q: name each result file", b)
	}
	entries, err := os.ReadDir(resultsDir)
	if err != nil {
		t.Fatal(err)
	}
	present := map[string]bool{}
	for _, e := range entries {
		present[e.Name()] = true
		if !cited[e.Name()] {
			t.Errorf("docs/bench-results/%s is cited nowhere in PERFORMANCE.md: cite it or delete it", e.Name())
		}
	}
	for name := range cited {
		if !present[name] {
			t.Errorf("PERFORMANCE.md cites %s, which docs/bench-results/ does not hold", name)
		}
	}
	if len(cited) < 10 {
		t.Fatalf("only %d citations found: the citation pattern no longer matches the page", len(cited))
	}
}

// TestPerformanceDocLinks: every relative link of the page reaches a file
// (and heading), every link of docs/ and README.md into the page reaches a
// heading, and every code comment that names one of its sections (the
// page's path, then the section's title in double quotes) names a heading
// it has.
func TestPerformanceDocLinks(t *testing.T) {
	raw, err := os.ReadFile(perfDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	anchors, titles := headings(doc)
	for _, m := range mdLink.FindAllStringSubmatch(fence.ReplaceAllString(doc, ""), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(target, "#")
		want := anchors
		if file != "" {
			path := filepath.Join(filepath.Dir(perfDoc), file)
			if _, err := os.Stat(path); err != nil {
				t.Errorf("PERFORMANCE.md links to %s: %v", target, err)
				continue
			}
			if anchor != "" {
				other, err := os.ReadFile(path)
				if err != nil {
					t.Errorf("PERFORMANCE.md links to %s: %v", target, err)
					continue
				}
				want, _ = headings(string(other))
			}
		}
		if anchor != "" && !want[anchor] {
			t.Errorf("PERFORMANCE.md links to %s: no such heading", target)
		}
	}

	// Links from the other docs into the page.
	others, _ := filepath.Glob("../docs/*.md")
	others = append(others, "../README.md")
	for _, p := range others {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range perfAnchor.FindAllStringSubmatch(string(b), -1) {
			if !anchors[m[1]] {
				t.Errorf("%s links to PERFORMANCE.md#%s: no such heading", p, m[1])
			}
		}
	}

	// Sections named from code comments.
	named := 0
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != ".." && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range quotedPerf.FindAllStringSubmatch(string(b), -1) {
			named++
			if !titles[m[1]] {
				t.Errorf("%s names PERFORMANCE.md %q: no such heading", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if named == 0 {
		t.Error("no code comment names a PERFORMANCE.md section: the walk missed the tree")
	}
}

// headings returns a Markdown page's heading anchors (GitHub's rule:
// lower case, spaces to hyphens, punctuation dropped) and titles (the
// heading's text as written, inline code marks dropped).
func headings(doc string) (anchors, titles map[string]bool) {
	anchors, titles = map[string]bool{}, map[string]bool{}
	seen := map[string]int{}
	for _, line := range strings.Split(fence.ReplaceAllString(doc, ""), "\n") {
		text, ok := strings.CutPrefix(line, "#")
		if !ok {
			continue
		}
		text = strings.TrimSpace(strings.TrimLeft(text, "#"))
		titles[strings.ReplaceAll(text, "`", "")] = true
		var slug strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				slug.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				slug.WriteRune(r)
			}
		}
		s := slug.String()
		if n := seen[s]; n > 0 {
			anchors[s+"-"+itoa(n)] = true
		} else {
			anchors[s] = true
		}
		seen[s]++
	}
	return anchors, titles
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}

func TestHeadingAnchors(t *testing.T) {
	anchors, titles := headings("# A page\n## Commands\n### The wide workload\n## Cold path: PostgreSQL's share (`x.json`)\n## Commands\n```\n# not a heading\n```\n")
	for _, a := range []string{"a-page", "commands", "the-wide-workload", "cold-path-postgresqls-share-xjson", "commands-1"} {
		if !anchors[a] {
			t.Errorf("no anchor %q in %v", a, anchors)
		}
	}
	if anchors["not-a-heading"] || !titles["Cold path: PostgreSQL's share (x.json)"] {
		t.Errorf("anchors %v, titles %v", anchors, titles)
	}
}
