package admin

import (
	"context"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/sql"
)

// Security events: denied admin requests (401, 403). Each one recorded
// is a JSON log line and a row of syncgate.security_events. A flood is
// cut three ways, so it can grow neither the table nor the log without
// bound: per client IP and per minute, per instance and per minute (the
// rest are counted and reported in one line a minute), and a row cap
// that prunes the oldest rows. Events are written in the background:
// a denied request never waits for PostgreSQL.

var (
	sqlInsertSecurityEvent = sqlfiles.Must("admin/insert_security_event.sql")
	sqlPruneSecurityEvents = sqlfiles.Must("admin/prune_security_events.sql")
	sqlSecurityEvents      = sqlfiles.Must("admin/security_events.sql")
	sqlCountSecurityEvents = sqlfiles.Must("admin/count_security_events.sql")
)

// SecurityEventOptions bounds security-event recording; zero fields take
// the defaults.
type SecurityEventOptions struct {
	PerIPPerMinute int           // events recorded per client IP and minute (default 10)
	PerMinute      int           // events recorded per instance and minute (default 300)
	MaxRows        int           // rows kept in the table (default 100,000)
	FlushInterval  time.Duration // how often queued events are written (default 1 s)
}

const (
	defaultSecPerIP     = 10
	defaultSecPerMinute = 300
	defaultSecMaxRows   = 100_000
	defaultSecFlush     = time.Second
	// maxSecIPs bounds the per-IP counters of one minute; IPs beyond it
	// are not recorded (a spread-out flood still meets PerMinute).
	maxSecIPs = 10_000
)

// SecurityEvent is one denied admin request. It never holds any part of
// the presented key: Reason is the response's message.
type SecurityEvent struct {
	ID         int64      `db:"id"`
	CreatedAt  time.Time  `db:"created_at"`
	IPAddress  *string    `db:"ip_address"`
	Method     string     `db:"method"`
	Path       string     `db:"path"`
	Status     int        `db:"status"`
	Reason     string     `db:"reason"`
	AdminKeyID *uuid.UUID `db:"admin_key_id"`
	RequestID  string     `db:"request_id"`
}

// securityLog is the Store's recorder of security events.
type securityLog struct {
	opts SecurityEventOptions

	mu         sync.Mutex
	minute     time.Time
	perIP      map[string]int
	inMinute   int
	suppressed int
	queue      []SecurityEvent

	sincePrune int
	lastPrune  time.Time
}

func newSecurityLog(o SecurityEventOptions) *securityLog {
	if o.PerIPPerMinute <= 0 {
		o.PerIPPerMinute = defaultSecPerIP
	}
	if o.PerMinute <= 0 {
		o.PerMinute = defaultSecPerMinute
	}
	if o.MaxRows <= 0 {
		o.MaxRows = defaultSecMaxRows
	}
	if o.FlushInterval <= 0 {
		o.FlushInterval = defaultSecFlush
	}
	return &securityLog{opts: o, perIP: map[string]int{}}
}

// RecordSecurityEvent logs and queues ev unless its IP or this instance
// has used up the minute's budget. It never blocks on I/O.
func (s *Store) RecordSecurityEvent(ev SecurityEvent) {
	l := s.sec
	now := s.now()
	ev.CreatedAt = now.UTC()
	ip := ""
	if ev.IPAddress != nil {
		ip = *ev.IPAddress
	}
	l.mu.Lock()
	if m := now.Truncate(time.Minute); !m.Equal(l.minute) {
		if l.suppressed > 0 {
			s.log.Warn("security events not recorded (per-minute caps)", slog.Int("suppressed", l.suppressed), slog.Time("minute", l.minute))
		}
		l.minute, l.inMinute, l.suppressed = m, 0, 0
		clear(l.perIP)
	}
	n, seen := l.perIP[ip]
	if l.inMinute >= l.opts.PerMinute || n >= l.opts.PerIPPerMinute || (!seen && len(l.perIP) >= maxSecIPs) {
		l.suppressed++
		l.mu.Unlock()
		return
	}
	l.perIP[ip] = n + 1
	l.inMinute++
	l.queue = append(l.queue, ev)
	l.mu.Unlock()

	attrs := []any{
		slog.String("ip", ip), slog.String("method", ev.Method), slog.String("path", ev.Path),
		slog.Int("status", ev.Status), slog.String("reason", ev.Reason), slog.String("request_id", ev.RequestID),
	}
	if ev.AdminKeyID != nil {
		attrs = append(attrs, slog.String("admin_key_id", ev.AdminKeyID.String()))
	}
	s.log.Warn("security event", attrs...)
}

// flushSecurityEvents writes the queued events in one transaction and,
// once enough rows were added since the last time (or a minute passed),
// prunes the table down to MaxRows.
func (s *Store) flushSecurityEvents(ctx context.Context) error {
	l := s.sec
	l.mu.Lock()
	batch := l.queue
	l.queue = nil
	l.mu.Unlock()
	if len(batch) > 0 {
		err := s.inTx(ctx, "RecordSecurityEvents", func(tx *sqlx.Tx) error {
			for _, ev := range batch {
				var ip *string
				if ev.IPAddress != nil {
					if p := net.ParseIP(*ev.IPAddress); p != nil {
						v := p.String()
						ip = &v
					}
				}
				if _, err := tx.ExecContext(ctx, sqlInsertSecurityEvent, ev.CreatedAt, ip, ev.Method, ev.Path, ev.Status, ev.Reason, ev.AdminKeyID, ev.RequestID); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err // the batch is lost; the log lines remain
		}
		l.sincePrune += len(batch)
	}
	now := s.now()
	if l.sincePrune > 0 && (l.sincePrune >= max(1, l.opts.MaxRows/100) || now.Sub(l.lastPrune) >= time.Minute) {
		if _, err := s.db.ExecContext(ctx, sqlPruneSecurityEvents, l.opts.MaxRows); err != nil {
			return wrap("PruneSecurityEvents", err)
		}
		l.sincePrune, l.lastPrune = 0, now
	}
	return nil
}

func (s *Store) securityLoop() {
	defer close(s.secDone)
	t := time.NewTicker(s.sec.opts.FlushInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-s.stop:
			s.flushSecurityBackground()
			return
		}
		s.flushSecurityBackground()
	}
}

func (s *Store) flushSecurityBackground() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.flushSecurityEvents(ctx); err != nil {
		s.log.Warn("security events not written", slog.String("error", err.Error()))
	}
}

// SecurityEvents lists recorded security events newest first with the
// total, page and total from one snapshot; the read is audited.
func (s *Store) SecurityEvents(ctx context.Context, a Admin, p Page) (events []SecurityEvent, total int64, err error) {
	err = s.inSnapshotTx(ctx, "SecurityEvents", func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &total, sqlCountSecurityEvents); err != nil {
			return err
		}
		events = []SecurityEvent{}
		if err := tx.SelectContext(ctx, &events, sqlSecurityEvents, p.Limit, p.Offset); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, ActionSecurityEventRead, TargetSecurityEvent, nil, map[string]any{"limit": p.Limit, "offset": p.Offset})
	})
	return events, total, err
}
