package config

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/syncgate/syncgate/internal/cardano"
)

// field is one setting's value on its way into a Config: the readers of
// settings.go set cfg from v and report what is wrong with it.
type field struct {
	cfg      *Config
	net      cardano.Network // a per-network setting's network
	name     string          // the variable, network filled in
	v        string          // the environment's value trimmed, or the flag's as given
	problems *[]string
}

// bad reports a problem with the value, prefixed with the variable's name.
// A message never quotes a secret's value.
func (f *field) bad(format string, a ...any) {
	*f.problems = append(*f.problems, f.name+": "+fmt.Sprintf(format, a...))
}

// duration reads a positive duration; example is a valid one for the message.
func (f *field) duration(example string) time.Duration {
	d, err := time.ParseDuration(f.v)
	if err != nil || d <= 0 {
		f.bad("%q is not a positive duration (e.g. %s)", f.v, example)
		return 0
	}
	return d
}

// count reads a whole number from 0; what follows "a whole number" in the
// message (" of requests"), zero what 0 means ("no limit").
func (f *field) count(what, zero string) int {
	n, err := strconv.Atoi(f.v)
	if err != nil || n < 0 {
		f.bad("%q is not a whole number%s (0: %s)", f.v, what, zero)
		return 0
	}
	return n
}

// intIn reads a whole number from lo to hi; ok is false (and the problem
// reported) otherwise.
func (f *field) intIn(lo, hi int) (n int, ok bool) {
	n, err := strconv.Atoi(f.v)
	if err != nil || n < lo || n > hi {
		f.bad("%q is not a whole number from %d to %d", f.v, lo, hi)
		return 0, false
	}
	return n, true
}

// list splits a comma-separated value, dropping blank items.
func (f *field) list() []string {
	var out []string
	for _, p := range strings.Split(f.v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// postgresURL reads a PostgreSQL URL (empty: none).
func (f *field) postgresURL(u string) string {
	if u != "" {
		if err := checkPostgresURL(u); err != nil {
			f.bad("%v", err)
		}
	}
	return u
}

func checkPostgresURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("unparseable URL")
	}
	if u.Scheme != "postgres" && u.Scheme != "postgresql" {
		return fmt.Errorf("scheme must be postgres:// or postgresql://")
	}
	return nil
}

func checkRedisURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("unparseable URL")
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return fmt.Errorf("scheme must be redis:// or rediss://")
	}
	if u.Host == "" {
		return fmt.Errorf("missing host")
	}
	return nil
}

// checkLoopback accepts host:port whose host is a loopback address or
// localhost.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not host:port", addr)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q: only a loopback address (127.0.0.1, ::1, localhost) is allowed", addr)
	}
	return nil
}

// origin reads a CORS origin: * or scheme://host[:port], normalized
// without a trailing slash.
func origin(o string) (string, bool) {
	if o == "*" {
		return o, true
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return "", false
	}
	return u.Scheme + "://" + u.Host, true
}

// parseRetention reads a Go duration or a number of days ("90d") of at
// least an hour.
func parseRetention(s string) (time.Duration, bool) {
	var d time.Duration
	if days, found := strings.CutSuffix(s, "d"); found {
		n, err := strconv.Atoi(days)
		if err != nil || n <= 0 || n > 100*365 {
			return 0, false
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, false
		}
	}
	return d, d >= time.Hour
}

// MinKeepBlocks is the fewest blocks the unspent-output index may keep a
// spend marked: Cardano's security parameter k, the deepest rollback it
// must be able to undo.
const MinKeepBlocks = 2160

// maxKeepBlocks bounds a number of blocks (mainnet has about 13 M).
const maxKeepBlocks = 1 << 30

// ParseKeepBlocks reads how long the unspent-output index keeps spends:
// a whole number of blocks from MinKeepBlocks, or "all" (-1). The marks
// also serve history pages without a tx_in walk, so keeping more trades
// disk for history pages (docs/DECISIONS.md).
func ParseKeepBlocks(v string) (int, error) {
	v = strings.TrimSpace(v)
	if strings.EqualFold(v, "all") {
		return -1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < MinKeepBlocks || n > maxKeepBlocks {
		return 0, fmt.Errorf("%q is not all or a whole number of blocks from %d to %d", v, MinKeepBlocks, maxKeepBlocks)
	}
	return n, nil
}

// Redact removes the password from a URL (or a comma-separated list of them).
func Redact(raw string) string {
	if raw == "" {
		return ""
	}
	parts := strings.Split(raw, ",")
	for i, p := range parts {
		u, err := url.Parse(strings.TrimSpace(p))
		if err != nil {
			parts[i] = "(unparseable)"
			continue
		}
		if u.User != nil {
			if _, has := u.User.Password(); has {
				u.User = url.UserPassword(u.User.Username(), "xxxxx")
			}
		}
		q := u.Query()
		if q.Has("password") {
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		parts[i] = u.String()
	}
	return strings.Join(parts, ",")
}
