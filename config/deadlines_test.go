package config

import (
	"strings"
	"testing"
	"time"
)

// deadlines are the resilience settings of a Config, to compare at once.
type deadlines struct {
	ShutdownDelay               time.Duration
	MaxInFlight, DBSyncMaxQueue int
	ProbeInterval, ProbeTimeout time.Duration
	DBConnectTimeout            time.Duration
}

func deadlinesOf(c Config) deadlines {
	return deadlines{c.ShutdownDelay, c.MaxInFlight, c.DBSyncMaxQueue, c.ProbeInterval, c.ProbeTimeout, c.DBConnectTimeout}
}

func TestResilienceKnobs(t *testing.T) {
	base := []string{"DBSYNC_MAINNET_URL=postgres://db/m"}
	cfg, err := Load(base, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := deadlines{ShutdownDelay: 5 * time.Second, MaxInFlight: 1024, DBSyncMaxQueue: 256,
		ProbeInterval: time.Second, ProbeTimeout: time.Second, DBConnectTimeout: 5 * time.Second}
	if got := deadlinesOf(cfg); got != want {
		t.Errorf("defaults: %+v", got)
	}
	cfg, err = Load(append(base, "SHUTDOWN_DELAY=0s", "MAX_IN_FLIGHT=0", "DBSYNC_MAX_QUEUE=8", "DBSYNC_PROBE_INTERVAL=200ms"),
		[]string{"--dbsync-probe-timeout", "300ms", "--db-connect-timeout", "2s"})
	if err != nil {
		t.Fatal(err)
	}
	want = deadlines{ShutdownDelay: 0, MaxInFlight: 0, DBSyncMaxQueue: 8,
		ProbeInterval: 200 * time.Millisecond, ProbeTimeout: 300 * time.Millisecond, DBConnectTimeout: 2 * time.Second}
	if got := deadlinesOf(cfg); got != want {
		t.Errorf("set: %+v", got)
	}
	_, err = Load(append(base, "SHUTDOWN_DELAY=-1s", "MAX_IN_FLIGHT=many", "DBSYNC_MAX_QUEUE=-2", "DBSYNC_PROBE_INTERVAL=0s",
		"DBSYNC_PROBE_TIMEOUT=x", "DB_CONNECT_TIMEOUT=0"), nil)
	for _, w := range []string{`SHUTDOWN_DELAY: "-1s"`, `MAX_IN_FLIGHT: "many"`, `DBSYNC_MAX_QUEUE: "-2"`,
		`DBSYNC_PROBE_INTERVAL: "0s"`, `DBSYNC_PROBE_TIMEOUT: "x"`, `DB_CONNECT_TIMEOUT: "0"`} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("want %s in %v", w, err)
		}
	}
}
