package auth

import (
	"context"
	"encoding/hex"
	"errors"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/sql"
)

// Invalidation through PostgreSQL.
//
// Redis is the fast path of invalidation, but it can be down. So every
// invalidation is also sent with NOTIFY on the admin database, the one
// service every change must reach anyway, and each instance LISTENs on a
// connection of its own (pq.Listener, which reconnects by itself). A
// notification drops the named keys at once.
//
// A listener that is quietly broken (a black-holed connection, a frozen
// server) would look the same as one that has nothing to say. So each
// instance also sends itself a heartbeat every heartbeatInterval on a
// channel of its own, and trusts its listener only while the heartbeat
// sent at most trustWindow ago has come back. Notifications reach a
// session in commit order, so when a heartbeat comes back every
// invalidation sent before it has been applied: while the listener is
// trusted, a change is seen within trustWindow at worst. After a
// reconnection every entry is dropped, since what was sent meanwhile is
// lost.

var sqlNotify = sqlfiles.Must("admin/notify.sql")

// invalidationChannel carries key hashes (hex) of changed credentials.
const invalidationChannel = "syncgate_auth_invalidate"

const (
	heartbeatInterval = 200 * time.Millisecond
	// trustWindow is how recent the last returned heartbeat must be for
	// the listener to stand in for Redis (kept under a second, the bound
	// on seeing a change while Redis is down).
	trustWindow = 750 * time.Millisecond
	// notifyTimeout bounds one NOTIFY statement.
	notifyTimeout = 2 * time.Second
)

// listenHealth is what the listener loop knows of its connection.
type listenHealth struct {
	mu sync.Mutex
	// heardAt is when the latest heartbeat that came back was sent (zero:
	// none since the last (re)connection).
	heardAt time.Time
	down    bool // last event was a failure (for logging state changes once)
}

// trusted reports whether the listener delivered everything sent up to
// trustWindow ago. Real time, whatever clock the cache uses: it measures
// delivery, not entry ages.
func (h *listenHealth) trusted() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !h.heardAt.IsZero() && time.Since(h.heardAt) < trustWindow
}

func (h *listenHealth) heard(sentAt time.Time) {
	h.mu.Lock()
	if sentAt.After(h.heardAt) {
		h.heardAt = sentAt
	}
	h.mu.Unlock()
}

func (h *listenHealth) reset() {
	h.mu.Lock()
	h.heardAt = time.Time{}
	h.mu.Unlock()
}

// Listening reports whether invalidations through PostgreSQL currently
// reach this instance within trustWindow (a heartbeat came back lately).
func (a *Authenticator) Listening() bool {
	return a.health != nil && a.health.trusted()
}

// notify sends payloads on channel through the admin database.
func (a *Authenticator) notify(ctx context.Context, channel string, payloads []string) error {
	ctx, cancel := context.WithTimeout(ctx, notifyTimeout)
	defer cancel()
	_, err := a.db.ExecContext(ctx, sqlNotify, channel, pq.StringArray(payloads))
	return err
}

// notifyHashes sends an invalidation of each hash.
func (a *Authenticator) notifyHashes(ctx context.Context, hs [][32]byte) error {
	payloads := make([]string, len(hs))
	for i, h := range hs {
		payloads[i] = hex.EncodeToString(h[:])
	}
	return a.notify(ctx, invalidationChannel, payloads)
}

// listen runs the listener until Close.
func (a *Authenticator) listen() {
	defer close(a.listenDone)
	d := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 5 * time.Second}
	l := pq.NewDialListener(dialer{d}, a.opts.ListenURL, 100*time.Millisecond, 2*time.Second, a.listenerEvent)
	defer l.Close()
	go func() {
		// Listen blocks until the first connection; Close ends it.
		for _, ch := range []string{invalidationChannel, a.heartbeatChannel} {
			if err := l.Listen(ch); err != nil && !errors.Is(err, net.ErrClosed) {
				a.log.Error("credential invalidation listener: LISTEN failed", slog.String("error", err.Error()))
			}
		}
	}()
	tick := time.NewTicker(heartbeatInterval)
	defer tick.Stop()
	sent := map[uint64]time.Time{} // heartbeats on their way back
	var seq uint64
	inFlight := false
	sendDone := make(chan struct{}, 1)
	for {
		select {
		case n, ok := <-l.Notify:
			if !ok {
				return
			}
			a.heard(n, sent)
		case <-tick.C:
			if inFlight {
				break // the last one is still being sent (a hung server)
			}
			seq++
			sent[seq] = time.Now()
			for s := range sent {
				if seq-s > 64 { // never coming back
					delete(sent, s)
				}
			}
			inFlight = true
			go func(seq uint64) {
				_ = a.notify(context.Background(), a.heartbeatChannel, []string{strconv.FormatUint(seq, 10)})
				sendDone <- struct{}{}
			}(seq)
		case <-sendDone:
			inFlight = false
		case <-a.stop:
			return
		}
	}
}

// heard applies one notification (nil: the listener reconnected).
func (a *Authenticator) heard(n *pq.Notification, sent map[uint64]time.Time) {
	switch {
	case n == nil:
		a.creds.dropAll()
	case n.Channel == a.heartbeatChannel:
		seq, err := strconv.ParseUint(n.Extra, 10, 64)
		if at, ok := sent[seq]; err == nil && ok {
			a.health.heard(at)
			delete(sent, seq)
		}
	case n.Channel == invalidationChannel:
		var h [32]byte
		if b, err := hex.DecodeString(n.Extra); err == nil && copy(h[:], b) == len(h) {
			a.creds.drop(h)
		}
	}
}

// listenerEvent follows the listener's connection, logging each change of
// state once.
func (a *Authenticator) listenerEvent(ev pq.ListenerEventType, err error) {
	h := a.health
	switch ev {
	case pq.ListenerEventConnected, pq.ListenerEventReconnected:
		h.mu.Lock()
		was := h.down
		h.down = false
		h.mu.Unlock()
		if was {
			a.log.Info("credential invalidation listener connected")
		}
	case pq.ListenerEventDisconnected, pq.ListenerEventConnectionAttemptFailed:
		h.reset()
		h.mu.Lock()
		was := h.down
		h.down = true
		h.mu.Unlock()
		if !was {
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			a.log.Warn("credential invalidation listener disconnected; invalidations need Redis until it is back", slog.String("error", msg))
		}
	}
}

// dialer adapts a net.Dialer to pq.Dialer: connection attempts are bounded
// and TCP keepalives notice a dead peer.
type dialer struct{ d *net.Dialer }

func (d dialer) Dial(network, address string) (net.Conn, error) { return d.d.Dial(network, address) }

func (d dialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	dd := *d.d
	dd.Timeout = timeout
	return dd.Dial(network, address)
}
