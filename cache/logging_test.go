package cache

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
)

// TestRouteLogsJSON: a go-redis message becomes one JSON log line.
func TestRouteLogsJSON(t *testing.T) {
	var buf bytes.Buffer
	l := slogLogger{slog.New(slog.NewJSONHandler(&buf, nil))}
	l.Printf(context.Background(), "redis: %s:%d: connection pool: %v", "pool.go", 770, "dial tcp 127.0.0.1:1: connect: connection refused")
	var line map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &line); err != nil {
		t.Fatalf("not one JSON line: %q", buf.String())
	}
	if line["level"] != "WARN" || line["msg"] != "redis client" || line["detail"] != "pool.go:770: connection pool: dial tcp 127.0.0.1:1: connect: connection refused" {
		t.Fatalf("line %v", line)
	}
}
