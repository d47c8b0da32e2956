package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// rootFile is the top of the source tree: the document's own fields, with
// an include object wherever a map is assembled from several files.
const rootFile = "root.json"

// includeKey marks an include object in root.json: {"$include": [files]}
// stands for one JSON object holding the members of every listed file, in
// list order. It is honoured in root.json only; fragments are copied as
// they are, so a fragment may not use it.
const includeKey = "$include"

// bundle assembles the source tree in fsys into the served document,
// indented by two spaces and ending in a newline. Object members keep
// the order of the sources, so the same tree always gives the same bytes.
//
// It refuses what hand-editing gets wrong and encoding/json would let
// through silently: a key twice in one object (in a file, or across the
// files of one include), a file listed twice, and a .json file under the
// tree that root.json never includes (an edit that would not be served).
func bundle(fsys fs.FS) ([]byte, error) {
	b := &bundler{fsys: fsys, used: map[string]bool{rootFile: true}}
	root, err := b.read(rootFile, true)
	if err != nil {
		return nil, err
	}
	var compact bytes.Buffer
	if err := b.expand(&compact, root); err != nil {
		return nil, fmt.Errorf("%s: %w", rootFile, err)
	}
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && path.Ext(p) == ".json" && !b.used[p] {
			return fmt.Errorf("%s: not included by %s", p, rootFile)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

type bundler struct {
	fsys fs.FS
	used map[string]bool // files already read, by their path in fsys
}

// read returns a file of the tree after checking it is one valid JSON
// value without a repeated key.
func (b *bundler) read(name string, isRoot bool) ([]byte, error) {
	raw, err := fs.ReadFile(b.fsys, name)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%s: not valid JSON: %v", name, err)
	}
	if err := checkKeys(raw, isRoot); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return raw, nil
}

// expand writes raw compactly, replacing each include object by the
// merged members of its files.
func (b *bundler) expand(w *bytes.Buffer, raw json.RawMessage) error {
	switch firstByte(raw) {
	case '{':
		ms, err := members(raw)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m.key == includeKey && len(ms) > 1 {
				return fmt.Errorf("an object with %s holds nothing else", includeKey)
			}
		}
		if len(ms) == 1 && ms[0].key == includeKey {
			return b.include(w, ms[0].value)
		}
		w.WriteByte('{')
		for i, m := range ms {
			if i > 0 {
				w.WriteByte(',')
			}
			writeKey(w, m.key)
			if err := b.expand(w, m.value); err != nil {
				return err
			}
		}
		w.WriteByte('}')
	case '[':
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return err
		}
		w.WriteByte('[')
		for i, item := range items {
			if i > 0 {
				w.WriteByte(',')
			}
			if err := b.expand(w, item); err != nil {
				return err
			}
		}
		w.WriteByte(']')
	default:
		w.Write(bytes.TrimSpace(raw))
	}
	return nil
}

// include writes one object made of the members of every listed file.
func (b *bundler) include(w *bytes.Buffer, list json.RawMessage) error {
	var names []string
	if err := json.Unmarshal(list, &names); err != nil || len(names) == 0 {
		return fmt.Errorf("%s wants a non-empty list of file names, got %s", includeKey, list)
	}
	from := map[string]string{} // member key -> the file that holds it
	w.WriteByte('{')
	n := 0
	for _, name := range names {
		if !fs.ValidPath(name) || path.Clean(name) != name {
			return fmt.Errorf("%s: %q is not a clean path inside the tree", includeKey, name)
		}
		if b.used[name] {
			return fmt.Errorf("%s: included twice", name)
		}
		b.used[name] = true
		raw, err := b.read(name, false)
		if err != nil {
			return err
		}
		ms, err := members(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for _, m := range ms {
			if other, dup := from[m.key]; dup {
				return fmt.Errorf("%s: %q is already in %s", name, m.key, other)
			}
			from[m.key] = name
			if n > 0 {
				w.WriteByte(',')
			}
			n++
			writeKey(w, m.key)
			w.Write(bytes.TrimSpace(m.value))
		}
	}
	w.WriteByte('}')
	return nil
}

type member struct {
	key   string
	value json.RawMessage
}

// members returns the members of a JSON object in their order.
func members(raw json.RawMessage) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var m member
		m.key = tok.(string) // the decoder has checked it is an object key
		if err := dec.Decode(&m.value); err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// writeKey writes a member name and its colon. HTML escaping is off so a
// key is written as the sources spell it (encoding/json would turn & < >
// into \u escapes).
func writeKey(w *bytes.Buffer, key string) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(key)     // a string always encodes
	w.Truncate(w.Len() - 1) // Encode's newline
	w.WriteByte(':')
}

func firstByte(raw []byte) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// checkKeys fails on a key repeated within one object anywhere in raw
// (encoding/json keeps the last one without a word), and on an include
// object outside root.json.
func checkKeys(raw []byte, allowInclude bool) error {
	type frame struct {
		at      string          // JSON pointer of this object or array
		keys    map[string]bool // nil for an array
		wantKey bool
		key     string // the current member's key
		index   int    // the next element's index, in an array
	}
	var stack []*frame
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.keys != nil && top.wantKey {
			if tok == json.Delim('}') {
				stack = stack[:len(stack)-1]
				continue
			}
			key := tok.(string) // the decoder has checked it is an object key
			if top.keys[key] {
				return fmt.Errorf("key %q twice in the object at %q", key, top.at)
			}
			if key == includeKey && !allowInclude {
				return fmt.Errorf("%s at %q: only %s may include files", includeKey, top.at, rootFile)
			}
			top.keys[key], top.key, top.wantKey = true, key, false
			continue
		}
		if tok == json.Delim(']') {
			stack = stack[:len(stack)-1]
			continue
		}
		// A value: the member or element it belongs to is now complete as
		// far as this frame is concerned.
		at := ""
		if top != nil {
			if top.keys != nil {
				at = top.at + "/" + pointerEscape(top.key)
				top.wantKey = true
			} else {
				at = top.at + "/" + strconv.Itoa(top.index)
				top.index++
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{at: at, keys: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{at: at})
		}
	}
}

func pointerEscape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
