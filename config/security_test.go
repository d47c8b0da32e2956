package config

import (
	"strings"
	"testing"
	"time"
)

func TestSecurityKnobs(t *testing.T) {
	base := []string{"DBSYNC_MAINNET_URL=postgres://db/m"}
	cfg, err := Load(base, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AuthFailuresPerMinute != 30 || cfg.CORSAllowedOrigins != nil || cfg.AuditRetention != 0 {
		t.Errorf("defaults: %+v", securityOf(cfg))
	}
	cfg, err = Load(append(base, "AUTH_FAILURES_PER_MINUTE=0", "CORS_ALLOWED_ORIGINS=https://app.example.com/, http://localhost:3000",
		"AUDIT_RETENTION=90d"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AuthFailuresPerMinute != 0 || strings.Join(cfg.CORSAllowedOrigins, " ") != "https://app.example.com http://localhost:3000" ||
		cfg.AuditRetention != 90*24*time.Hour {
		t.Errorf("set: %+v", securityOf(cfg))
	}
	if cfg, err = Load(base, []string{"--audit-retention", "720h", "--cors-allowed-origins", "*"}); err != nil ||
		cfg.AuditRetention != 720*time.Hour || cfg.CORSAllowedOrigins[0] != "*" {
		t.Errorf("flags: %+v %v", securityOf(cfg), err)
	}
	_, err = Load(append(base, "AUTH_FAILURES_PER_MINUTE=-1", "CORS_ALLOWED_ORIGINS=app.example.com", "AUDIT_RETENTION=5m"), nil)
	for _, w := range []string{`AUTH_FAILURES_PER_MINUTE: "-1"`, `CORS_ALLOWED_ORIGINS: "app.example.com"`, `AUDIT_RETENTION: "5m"`} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("want %s in %v", w, err)
		}
	}
}

// securityOf is a Config's abuse-resistance settings, to print at once.
func securityOf(c Config) any {
	return struct {
		AuthFailuresPerMinute int
		CORSAllowedOrigins    []string
		AuditRetention        time.Duration
	}{c.AuthFailuresPerMinute, c.CORSAllowedOrigins, c.AuditRetention}
}
