package config

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestLoadDefaultsAndFlags(t *testing.T) {
	env := []string{"DBSYNC_MAINNET_URL=postgres://u:secret@db/mainnet", "REDIS_URL=redis://127.0.0.1:6379/0"}
	cfg, err := Load(env, []string{"--listen-addr", "127.0.0.1:9999", "--dbsync-preprod-url", "postgres://db/preprod"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ListenAddr != "127.0.0.1:9999" {
		t.Errorf("flag did not win: %q", cfg.ListenAddr)
	}
	if len(cfg.Networks) != 2 || cfg.Networks["preprod"].ID != 2 || cfg.Networks["mainnet"].Magic != 764824073 {
		t.Errorf("networks = %+v", cfg.Networks)
	}
	if cfg.AdminDatabaseURL != "postgres://u:secret@db/mainnet" {
		t.Errorf("admin database should default to the first db-sync URL, got %q", cfg.AdminDatabaseURL)
	}
	if cfg.StatementTimeout != 10*time.Second {
		t.Errorf("statement timeout = %s", cfg.StatementTimeout)
	}
	if want := min(2*runtime.GOMAXPROCS(0), 32); cfg.DBSyncMaxActive != want {
		t.Errorf("db-sync max active = %d, want 2 per core (%d)", cfg.DBSyncMaxActive, want)
	}
	if s := strings.Join([]string{cfg.Summary()["admin_database"].(string)}, ""); strings.Contains(s, "secret") {
		t.Errorf("summary leaks the password: %s", s)
	}
}

func TestLoadReportsEveryProblem(t *testing.T) {
	env := []string{
		"DBSYNC_TESTNET_URL=postgres://db/x",
		"REDIS_URL=http://nope",
		"ADMIN_DATABASE_URL=mysql://x",
		"STATEMENT_TIMEOUT=soon",
		"DBSYNC_MAX_ACTIVE=-1",
		"BOOTSTRAP_ADMIN_KEY=short",
	}
	_, err := Load(env, nil)
	if err == nil {
		t.Fatal("want errors")
	}
	want := []string{
		`DBSYNC_TESTNET_URL: unknown network "testnet"`,
		"no db-sync configured",
		"REDIS_URL: scheme must be redis:// or rediss://",
		"ADMIN_DATABASE_URL: scheme must be postgres://",
		`STATEMENT_TIMEOUT: "soon" is not a positive duration`,
		`DBSYNC_MAX_ACTIVE: "-1" is not a whole number of requests`,
		"BOOTSTRAP_ADMIN_KEY: must be at least 32 characters",
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("missing problem %q in:\n%v", w, err)
		}
	}
	if strings.Contains(err.Error(), "short") {
		t.Error("error output echoes the bootstrap key")
	}
	if got := len(strings.Split(err.Error(), "\n")); got != len(want) {
		t.Errorf("want one line per problem (%d), got %d:\n%v", len(want), got, err)
	}
}

func TestRedact(t *testing.T) {
	got := Redact("postgres://user:pw@host/db?password=x,redis://:pw2@r:6379")
	if strings.Contains(got, ":pw@") || strings.Contains(got, "pw2") || !strings.Contains(got, "password=xxxxx,") {
		t.Errorf("Redact left a secret: %s", got)
	}
}

func TestTrustedProxies(t *testing.T) {
	env := []string{"DBSYNC_MAINNET_URL=postgres://db/m", "TRUSTED_PROXIES=10.0.0.0/8, 192.168.1.7"}
	cfg, err := Load(env, nil)
	if err != nil || len(cfg.TrustedProxies) != 2 {
		t.Fatalf("cfg %v err %v", cfg.TrustedProxies, err)
	}
	if _, err := Load([]string{"DBSYNC_MAINNET_URL=postgres://db/m", "TRUSTED_PROXIES=lb.example"}, nil); err == nil ||
		!strings.Contains(err.Error(), `TRUSTED_PROXIES: "lb.example" is not an IP or CIDR`) {
		t.Fatalf("want TRUSTED_PROXIES error, got %v", err)
	}
}

func TestPprofAddr(t *testing.T) {
	base := []string{"DBSYNC_MAINNET_URL=postgres://db/m"}
	cfg, err := Load(base, nil)
	if err != nil || cfg.PprofAddr != "" {
		t.Fatalf("default: PprofAddr %q, err %v; want off", cfg.PprofAddr, err)
	}
	for _, ok := range []string{"127.0.0.1:6060", "localhost:6060", "[::1]:6060"} {
		cfg, err := Load(append(base, "PPROF_ADDR="+ok), nil)
		if err != nil || cfg.PprofAddr != ok {
			t.Errorf("PPROF_ADDR=%s: PprofAddr %q, err %v", ok, cfg.PprofAddr, err)
		}
	}
	cfg, err = Load(base, []string{"--pprof-addr", "127.0.0.1:7070"})
	if err != nil || cfg.PprofAddr != "127.0.0.1:7070" {
		t.Errorf("--pprof-addr: PprofAddr %q, err %v", cfg.PprofAddr, err)
	}
	for _, bad := range []string{":6060", "0.0.0.0:6060", "10.1.2.3:6060", "6060"} {
		if _, err := Load(append(base, "PPROF_ADDR="+bad), nil); err == nil || !strings.Contains(err.Error(), "PPROF_ADDR: ") {
			t.Errorf("PPROF_ADDR=%s: err %v, want a PPROF_ADDR problem", bad, err)
		}
	}
}

func TestAdminRateLimit(t *testing.T) {
	base := []string{"DBSYNC_MAINNET_URL=postgres://db/m"}
	cfg, err := Load(base, nil)
	if err != nil || cfg.AdminRateLimitPerMinute != 600 {
		t.Fatalf("default: %d, %v; want 600", cfg.AdminRateLimitPerMinute, err)
	}
	cfg, err = Load(append(base, "ADMIN_RATE_LIMIT_PER_MINUTE=50"), nil)
	if err != nil || cfg.AdminRateLimitPerMinute != 50 {
		t.Fatalf("ADMIN_RATE_LIMIT_PER_MINUTE=50: %d, %v", cfg.AdminRateLimitPerMinute, err)
	}
	for _, bad := range []string{"0", "-3", "ten", "1.5", "1000001"} {
		if _, err := Load(append(base, "ADMIN_RATE_LIMIT_PER_MINUTE="+bad), nil); err == nil ||
			!strings.Contains(err.Error(), `ADMIN_RATE_LIMIT_PER_MINUTE: "`+bad+`" is not a whole number from 1 to 1000000`) {
			t.Errorf("ADMIN_RATE_LIMIT_PER_MINUTE=%s: %v", bad, err)
		}
	}
}

func TestRateLimitInstances(t *testing.T) {
	base := []string{"DBSYNC_MAINNET_URL=postgres://db/m"}
	cfg, err := Load(base, nil)
	if err != nil || cfg.RateLimitInstances != 4 {
		t.Fatalf("default: %d, %v; want 4", cfg.RateLimitInstances, err)
	}
	cfg, err = Load(append(base, "RATE_LIMIT_INSTANCES=12"), nil)
	if err != nil || cfg.RateLimitInstances != 12 {
		t.Fatalf("RATE_LIMIT_INSTANCES=12: %d, %v", cfg.RateLimitInstances, err)
	}
	for _, bad := range []string{"0", "-1", "four", "1001"} {
		if _, err := Load(append(base, "RATE_LIMIT_INSTANCES="+bad), nil); err == nil ||
			!strings.Contains(err.Error(), `RATE_LIMIT_INSTANCES: "`+bad+`" is not a whole number from 1 to 1000`) {
			t.Errorf("RATE_LIMIT_INSTANCES=%s: %v", bad, err)
		}
	}
}

func TestMetricsAddr(t *testing.T) {
	base := []string{"DBSYNC_MAINNET_URL=postgres://localhost/x"}
	cfg, err := Load(base, nil)
	if err != nil || cfg.MetricsAddr != "" {
		t.Fatalf("default: MetricsAddr %q, err %v; want off", cfg.MetricsAddr, err)
	}
	for _, ok := range []string{":9090", "0.0.0.0:9090", "127.0.0.1:9100"} {
		cfg, err := Load(append(base, "METRICS_ADDR="+ok), nil)
		if err != nil || cfg.MetricsAddr != ok {
			t.Errorf("METRICS_ADDR=%s: MetricsAddr %q, err %v", ok, cfg.MetricsAddr, err)
		}
	}
	if _, err := Load(append(base, "METRICS_ADDR=9090"), nil); err == nil || !strings.Contains(err.Error(), "METRICS_ADDR: ") {
		t.Errorf("METRICS_ADDR=9090: err %v, want a METRICS_ADDR problem", err)
	}
}

func TestHistoryMemo(t *testing.T) {
	base := []string{"DBSYNC_MAINNET_URL=postgres://db/m"}
	for _, tc := range []struct {
		value string
		bytes int
	}{{"", 32 << 20}, {"HISTORY_MEMO_MB=64", 64 << 20}, {"HISTORY_MEMO_MB=0", -1}} {
		cfg, err := Load(append(base, tc.value), nil)
		if err != nil || cfg.HistoryMemoBytes != tc.bytes {
			t.Errorf("%q: %d bytes, %v; want %d", tc.value, cfg.HistoryMemoBytes, err, tc.bytes)
		}
	}
	for _, bad := range []string{"-1", "lots", "65537"} {
		if _, err := Load(append(base, "HISTORY_MEMO_MB="+bad), nil); err == nil ||
			!strings.Contains(err.Error(), `HISTORY_MEMO_MB: "`+bad+`" is not a whole number from 0 to 65536`) {
			t.Errorf("HISTORY_MEMO_MB=%s: %v", bad, err)
		}
	}
}

func TestListSpool(t *testing.T) {
	base := []string{"DBSYNC_MAINNET_URL=postgres://db/m"}
	for _, tc := range []struct {
		env   []string
		bytes int64
		dir   string
	}{{nil, 256 << 20, ""}, {[]string{"LIST_SPOOL_MB=1024", "LIST_SPOOL_DIR= /var/cache/syncgate "}, 1 << 30, "/var/cache/syncgate"}, {[]string{"LIST_SPOOL_MB=0"}, 0, ""}} {
		cfg, err := Load(append(base, tc.env...), nil)
		if err != nil || cfg.ListSpoolBytes != tc.bytes || cfg.ListSpoolDir != tc.dir {
			t.Errorf("%q: %d bytes in %q, %v; want %d in %q", tc.env, cfg.ListSpoolBytes, cfg.ListSpoolDir, err, tc.bytes, tc.dir)
		}
	}
	for _, bad := range []string{"-1", "some", "1048577"} {
		if _, err := Load(append(base, "LIST_SPOOL_MB="+bad), nil); err == nil ||
			!strings.Contains(err.Error(), `LIST_SPOOL_MB: "`+bad+`" is not a whole number from 0 to 1048576`) {
			t.Errorf("LIST_SPOOL_MB=%s: %v", bad, err)
		}
	}
}

func TestUTxOIndexKeepBlocks(t *testing.T) {
	base := []string{"DBSYNC_MAINNET_URL=postgres://db/m"}
	for _, tc := range []struct {
		value  string
		blocks int
	}{{"", 2160}, {"UTXO_INDEX_KEEP_BLOCKS=100000", 100000}, {"UTXO_INDEX_KEEP_BLOCKS= ALL ", -1}} {
		cfg, err := Load(append(base, tc.value), nil)
		if err != nil || cfg.UTxOIndexKeepBlocks != tc.blocks {
			t.Errorf("%q: %d blocks, %v; want %d", tc.value, cfg.UTxOIndexKeepBlocks, err, tc.blocks)
		}
	}
	// Fewer than k blocks would sweep spends a rollback can still undo.
	for _, bad := range []string{"2159", "0", "-1", "forever", "1073741825"} {
		if _, err := Load(append(base, "UTXO_INDEX_KEEP_BLOCKS="+bad), nil); err == nil ||
			!strings.Contains(err.Error(), `UTXO_INDEX_KEEP_BLOCKS: "`+bad+`" is not all or a whole number of blocks from 2160 to 1073741824`) {
			t.Errorf("UTXO_INDEX_KEEP_BLOCKS=%s: %v", bad, err)
		}
	}
}

// Every setting is a flag of serve named after its variable, per network
// where the variable names one; a flag wins over the environment, a blank
// variable means the default.
func TestEverySettingIsAFlag(t *testing.T) {
	base := []string{"DBSYNC_MAINNET_URL=postgres://db/m"}
	for _, s := range settings {
		for _, n := range s.networks() {
			name := s.variable(n)
			value := s.defaultValue()
			if strings.HasSuffix(name, "_URL") && strings.HasPrefix(name, "DBSYNC_") {
				value = "postgres://db/" + n.Name
			}
			if _, err := Load(base, []string{"--" + flagName(name), value}); err != nil {
				t.Errorf("--%s %q: %v", flagName(name), value, err)
			}
		}
	}
	cfg, err := Load(append(base, "LISTEN_ADDR=  ", "LOG_LEVEL=debug"), []string{"--log-level", "warn"})
	if err != nil || cfg.ListenAddr != ":8080" || cfg.LogLevel != "warn" {
		t.Errorf("blank variable, flag over variable: %q %q %v", cfg.ListenAddr, cfg.LogLevel, err)
	}
}

// No password or key reaches the start-up summary, whichever setting
// carries it.
func TestSummaryNeverPrintsASecret(t *testing.T) {
	const secret = "pw-9f8e7d6c5b4a"
	env := []string{"BOOTSTRAP_ADMIN_KEY=" + secret + "-0123456789abcdefghij",
		"ADMIN_DATABASE_URL=postgres://u:" + secret + "@admin/a",
		"REDIS_URL=redis://:" + secret + "@r:6379/0,rediss://u:" + secret + "@r2:6380",
		"TOKEN_REGISTRY_URL=https://registry.example"}
	for _, n := range []string{"MAINNET", "PREVIEW", "PREPROD"} {
		env = append(env, "DBSYNC_"+n+"_URL=postgres://u:"+secret+"@db/"+n+"?sslmode=disable",
			"DBSYNC_"+n+"_REPLICA_URLS=postgres://u:"+secret+"@r1/x, postgres://u@r2/x?password="+secret)
	}
	cfg, err := Load(env, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(cfg.Summary()); strings.Contains(got, secret) {
		t.Errorf("summary prints a secret: %s", got)
	}
	if _, err := Load(append(env, "BOOTSTRAP_ADMIN_KEY="+secret), nil); err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("a short bootstrap key: %v", err)
	}
}
