// Package registry reads off-chain token metadata (CIP-26) from the Cardano
// token registry: either a local clone of its mappings/ folder
// (<subject>.json files, re-indexed every RescanInterval) or a registry
// server (GET {url}/metadata/{subject}). Lookups are cached (a cache.Cache
// named "registry": in Redis, else in process), found and not-found alike,
// so a hot asset never reaches the registry; a registry that is down or slow
// means "no registry metadata", never an error. It does not import gin or
// net/http handlers.
package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/syncgate/syncgate/cache"
)

// Defaults. The public registry allows about 100 requests per IP per
// 5 minutes and has been slow to answer, so lookups are cached long
// and time out fast.
const (
	DefaultTimeout        = 2 * time.Second
	DefaultTTL            = time.Hour
	DefaultNegativeTTL    = 10 * time.Minute
	DefaultErrorTTL       = 30 * time.Second
	DefaultRescanInterval = 30 * time.Second

	maxMappingBytes = 1 << 20 // mapping files are at most 370 KB
	maxDecimals     = 255
	// localCacheBytes bounds the in-process cache (Redis absent or down).
	localCacheBytes = 16 << 20
)

// Metadata is a registry entry's fields as the API reports them.
type Metadata struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Ticker      *string `json:"ticker,omitempty"`
	URL         *string `json:"url,omitempty"`
	Logo        *string `json:"logo,omitempty"`
	Decimals    int64   `json:"decimals"`
}

// Options configures a Registry. Exactly one of URL and Dir is normally
// set; with neither, every lookup finds nothing.
type Options struct {
	URL            string
	Dir            string
	Redis          *cache.Client // optional: without it (or while it is down) a bounded in-process cache is used
	HTTPClient     *http.Client  // optional
	Timeout        time.Duration // per registry request
	TTL            time.Duration // found entries
	NegativeTTL    time.Duration // subjects the registry does not know
	ErrorTTL       time.Duration // registry unreachable, or answering an error status or an oversized entry
	RescanInterval time.Duration // mappings directory re-index period
	Log            *slog.Logger
}

// Registry looks up CIP-26 metadata by subject (policy hex + name hex).
type Registry struct {
	opts Options
	http *http.Client

	mu    sync.RWMutex
	index map[string]int64 // dir mode: subject → file mtime (ns)

	// lookups holds what was found (or that the registry failed: Failed,
	// kept ErrorTTL); errNotRegistered answers are remembered as not found.
	lookups *cache.Cache[outcome]
}

// New returns a Registry. In directory mode the folder is indexed now, so
// a missing or unreadable folder is reported at start.
func New(opts Options) (*Registry, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.TTL <= 0 {
		opts.TTL = DefaultTTL
	}
	if opts.NegativeTTL <= 0 {
		opts.NegativeTTL = DefaultNegativeTTL
	}
	if opts.ErrorTTL <= 0 {
		opts.ErrorTTL = DefaultErrorTTL
	}
	if opts.RescanInterval <= 0 {
		opts.RescanInterval = DefaultRescanInterval
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	opts.URL = strings.TrimRight(opts.URL, "/")
	r := &Registry{opts: opts, http: opts.HTTPClient}
	// The in-process cache keeps entries as long as Redis would, not a
	// fallback's usual few seconds: without Redis it is the only thing
	// between the requests and a registry that allows about one request
	// every three seconds.
	r.lookups = cache.NewJSON[outcome](opts.Redis, "registry", cache.Options{
		TTL: opts.TTL, NotFound: errNotRegistered, NegativeTTL: opts.NegativeTTL,
		LocalTTL: max(opts.TTL, opts.NegativeTTL, opts.ErrorTTL), LocalBytes: localCacheBytes,
	})
	if r.http == nil {
		r.http = &http.Client{Timeout: opts.Timeout}
	}
	if opts.Dir != "" {
		if err := r.Rescan(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Enabled reports whether a registry source is configured.
func (r *Registry) Enabled() bool { return r != nil && (r.opts.URL != "" || r.opts.Dir != "") }

// Run re-indexes the mappings directory every RescanInterval until ctx is
// done. It returns at once in URL mode.
func (r *Registry) Run(ctx context.Context) {
	if r == nil || r.opts.Dir == "" {
		return
	}
	t := time.NewTicker(r.opts.RescanInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := r.Rescan(); err != nil {
				r.opts.Log.Warn("token registry rescan failed; keeping the previous index", slog.String("error", err.Error()))
			}
		}
	}
}

// Rescan re-reads the mappings directory's file names and modification
// times (no file contents). A changed file gets a new cache key, so its
// new content is served after the next rescan.
func (r *Registry) Rescan() error {
	entries, err := os.ReadDir(r.opts.Dir)
	if err != nil {
		return fmt.Errorf("token registry dir: %w", err)
	}
	index := make(map[string]int64, len(entries))
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".json") {
			continue
		}
		subject := strings.TrimSuffix(name, ".json")
		if !validSubject(subject) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed between ReadDir and Info
		}
		index[subject] = info.ModTime().UnixNano()
	}
	r.mu.Lock()
	r.index = index
	r.mu.Unlock()
	return nil
}

// validSubject: lower-case hex, policy (28 bytes) plus a name of 0–32 bytes.
func validSubject(s string) bool {
	if len(s) < 56 || len(s) > 120 || len(s)%2 != 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// outcome is what one lookup found, as cached. Versions before the shared
// cache also stored a not-registered subject as {"found":false}; it still
// reads as not found.
type outcome struct {
	Found  bool      `json:"found"`
	MD     *Metadata `json:"md,omitempty"`
	Failed bool      `json:"failed,omitempty"` // the registry could not be asked
}

// Lookup returns the registry metadata of subject, or nil when the
// registry does not have it, is not configured, or cannot be reached.
func (r *Registry) Lookup(ctx context.Context, subject string) *Metadata {
	md, _ := r.LookupStatus(ctx, subject)
	return md
}

// LookupStatus is Lookup that also says whether the answer is definitive:
// answered is false when the registry could not be asked recently
// (unreachable, slow, an error status or an oversized entry: such answers
// are cached only briefly, and callers caching the result should do the
// same). An entry that is not a usable mapping counts as not registered.
func (r *Registry) LookupStatus(ctx context.Context, subject string) (md *Metadata, answered bool) {
	if !r.Enabled() || !validSubject(subject) {
		return nil, true
	}
	key := subject
	if r.opts.Dir != "" {
		r.mu.RLock()
		mtime, ok := r.index[subject]
		r.mu.RUnlock()
		if !ok {
			return nil, true // not in the clone: no I/O at all
		}
		key += ":" + strconv.FormatInt(mtime, 10)
	}
	o, err := r.lookups.GetTTL(ctx, key, func(ctx context.Context) (outcome, time.Duration, error) {
		ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
		defer cancel()
		return r.load(ctx, subject)
	})
	switch {
	case errors.Is(err, errNotRegistered):
		return nil, true
	case err != nil:
		return nil, false // this caller's context ended first
	}
	return o.MD, !o.Failed
}

// load asks the source and says how long the answer may be cached:
// errNotRegistered when the source does not have the subject or has no
// usable entry for it (remembered for NegativeTTL), outcome{Failed} for
// ErrorTTL when it could not be asked.
func (r *Registry) load(ctx context.Context, subject string) (outcome, time.Duration, error) {
	var (
		body []byte
		err  error
	)
	if r.opts.Dir != "" {
		body, err = readLimited(filepath.Join(r.opts.Dir, subject+".json"))
		if errors.Is(err, os.ErrNotExist) {
			return outcome{}, 0, errNotRegistered
		}
	} else {
		body, err = r.fetch(ctx, subject)
		if errors.Is(err, errNotRegistered) {
			return outcome{}, 0, err
		}
	}
	if err != nil {
		r.opts.Log.Warn("token registry lookup failed; answering without registry metadata",
			slog.String("subject", subject), slog.String("error", err.Error()))
		return outcome{Failed: true}, r.opts.ErrorTTL, nil
	}
	md, ok := parseMapping(body, subject)
	if !ok {
		return outcome{}, 0, errNotRegistered
	}
	return outcome{Found: true, MD: md}, r.opts.TTL, nil
}

var errNotRegistered = errors.New("registry: subject not registered")

func (r *Registry) fetch(ctx context.Context, subject string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.opts.URL+"/metadata/"+subject, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := r.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, errNotRegistered
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("registry answered %s", resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxMappingBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxMappingBytes {
		return nil, fmt.Errorf("registry entry over %d bytes", maxMappingBytes)
	}
	return b, nil
}

func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxMappingBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxMappingBytes {
		return nil, fmt.Errorf("%s: over %d bytes", path, maxMappingBytes)
	}
	return b, nil
}

// parseMapping reads a CIP-26 mapping ({"subject", "name": {"value"}, …}).
// It must be for subject and carry a name and a description (the fields
// CIP-26 requires); ticker, url, logo and decimals are optional.
func parseMapping(body []byte, subject string) (*Metadata, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var m struct {
		Subject     string   `json:"subject"`
		Name        property `json:"name"`
		Description property `json:"description"`
		Ticker      property `json:"ticker"`
		URL         property `json:"url"`
		Logo        property `json:"logo"`
		Decimals    property `json:"decimals"`
	}
	if err := dec.Decode(&m); err != nil || !strings.EqualFold(m.Subject, subject) {
		return nil, false
	}
	name, ok := m.Name.text()
	if !ok || name == "" {
		return nil, false
	}
	desc, ok := m.Description.text()
	if !ok {
		return nil, false
	}
	md := &Metadata{Name: name, Description: desc}
	opt := func(p property) *string {
		if s, ok := p.text(); ok && s != "" {
			return &s
		}
		return nil
	}
	md.Ticker, md.URL, md.Logo = opt(m.Ticker), opt(m.URL), opt(m.Logo)
	if n, ok := m.Decimals.Value.(json.Number); ok {
		if d, err := n.Int64(); err == nil && d >= 0 && d <= maxDecimals {
			md.Decimals = d
		}
	}
	return md, true
}

// property is one signed registry property; only its value is used.
type property struct {
	Value any `json:"value"`
}

func (p property) text() (string, bool) {
	s, ok := p.Value.(string)
	return s, ok
}
