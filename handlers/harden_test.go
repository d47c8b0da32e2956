package handlers

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/syncgate/syncgate/admin"
)

// lockedBuffer is a log sink safe for concurrent handlers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLogsNoPresentedKey: no part of a presented key reaches the logs,
// whether the key is unknown, malformed or valid; after authentication the
// access log names the credential or admin key by id.
func TestLogsNoPresentedKey(t *testing.T) {
	e := newAdminEnv(t)
	var buf lockedBuffer
	e.log = slog.New(slog.NewJSONHandler(&buf, nil))
	in := e.instance()
	adminID, p := e.adminKey(in, "P", allPerms...)
	u := e.user(in, p, "u")
	credID, key := e.credential(in, p, u, "")
	unknownData := "sgk1_" + "Zq9" + strings.Repeat("x", 45)
	unknownAdmin := "sga1_" + "Wv7" + strings.Repeat("y", 45)

	in.call(t, "GET", "/v1/test/whoami", unknownData, "").want(t, 401, "Invalid API key")
	in.call(t, "GET", "/v1/admin/users", unknownAdmin, "").want(t, 401, "Invalid API key")
	in.callHeader(t, "GET", "/v1/test/whoami", "Bearer Qk3-not-a-key-at-all", "").want(t, 401, "Invalid API key")
	in.call(t, "GET", "/v1/test/whoami", key, "").want(t, 200, "")
	in.call(t, "GET", "/v1/admin/users", p, "").want(t, 200, "")
	in.call(t, "GET", "/v1/admin/keys", testBootstrapKey, "").want(t, 200, "")

	logs := buf.String()
	for _, secret := range []string{unknownData, unknownAdmin, key, p, testBootstrapKey} {
		// Anything past the public prefix ("sgk1_", "sga1_") is secret.
		if frag := secret[5:9]; strings.Contains(logs, frag) {
			t.Errorf("log holds %q of a presented key:\n%s", frag, logs)
		}
	}
	for _, f := range []string{"Zq9", "Wv7", "Qk3", "key_prefix"} {
		if strings.Contains(logs, f) {
			t.Errorf("log holds %q:\n%s", f, logs)
		}
	}
	for _, want := range []string{`"credential_id":"` + credID + `"`, `"admin_key_id":"` + adminID + `"`,
		`"admin_key_id":"` + admin.BootstrapKeyID.String() + `"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %s:\n%s", want, logs)
		}
	}
}
