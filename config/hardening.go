package config

import (
	"flag"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Hardening knobs (abuse-resistant authentication, CORS,
// audit retention), read in a function of their own so Load only calls it.

// Defaults of the hardening knobs.
const (
	// DefaultAuthFailuresPerMinute is how many failed authentications one
	// client IP may make a minute before it is answered 429.
	DefaultAuthFailuresPerMinute = 30
)

// Hardening is the part of Config for abuse resistance.
type Hardening struct {
	// AuthFailuresPerMinute is the per-client-IP budget of failed
	// authentications (0: no limit).
	AuthFailuresPerMinute int
	// CORSAllowedOrigins are the browser origins allowed to call the API
	// ("*": any). Empty: no CORS headers at all.
	CORSAllowedOrigins []string
	// AuditRetention prunes audit entries older than this in the
	// background (0: keep forever).
	AuditRetention time.Duration
}

// hardeningFlags declares the flags and returns the function that checks
// them once parsed.
func hardeningFlags(fs *flag.FlagSet, env func(k, def string) string) func(cfg *Config, add func(string, ...any)) {
	failures := fs.String("auth-failures-per-minute", env("AUTH_FAILURES_PER_MINUTE", strconv.Itoa(DefaultAuthFailuresPerMinute)),
		"failed authentications a client IP may make a minute before 429; 0: no limit (AUTH_FAILURES_PER_MINUTE)")
	cors := fs.String("cors-allowed-origins", env("CORS_ALLOWED_ORIGINS", ""), "comma-separated browser origins allowed by CORS, or * (CORS_ALLOWED_ORIGINS)")
	retention := fs.String("audit-retention", env("AUDIT_RETENTION", ""), "delete audit entries older than this, e.g. 2160h or 90d; empty: keep forever (AUDIT_RETENTION)")
	return func(cfg *Config, add func(string, ...any)) {
		if n, err := strconv.Atoi(*failures); err != nil || n < 0 {
			add("AUTH_FAILURES_PER_MINUTE: %q is not a whole number (0: no limit)", *failures)
		} else {
			cfg.AuthFailuresPerMinute = n
		}
		for _, o := range strings.Split(*cors, ",") {
			if o = strings.TrimSpace(o); o == "" {
				continue
			}
			if o != "*" {
				u, err := url.Parse(o)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
					add("CORS_ALLOWED_ORIGINS: %q is not an origin like https://app.example.com (or *)", o)
					continue
				}
				o = u.Scheme + "://" + u.Host
			}
			cfg.CORSAllowedOrigins = append(cfg.CORSAllowedOrigins, o)
		}
		if r := strings.TrimSpace(*retention); r != "" {
			d, ok := parseRetention(r)
			if !ok {
				add("AUDIT_RETENTION: %q is not a duration of at least 1h (e.g. 2160h or 90d)", r)
			} else {
				cfg.AuditRetention = d
			}
		}
	}
}

// parseRetention reads a Go duration or a number of days ("90d").
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
