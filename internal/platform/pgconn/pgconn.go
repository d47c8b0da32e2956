// Package pgconn opens PostgreSQL pools (lib/pq) whose every call ends
// when its context does, whatever the server does.
//
// lib/pq alone does not promise that: when a context ends it sends a
// cancel request on a new connection and keeps reading the old one, so a
// server that accepts connections but never answers (a frozen process, a
// stuck volume, a network black hole) holds the caller until TCP gives up
// (minutes) or forever, and for a prepared statement the caller also waits
// for the cancel request, which hangs the same way. Here:
//
//   - a call's socket is interrupted when its context ends (the connection
//     is then discarded, never reused mid-protocol);
//   - lib/pq sees a deadline CancelTimeout earlier than the caller's, and
//     its cancel request is bounded by CancelTimeout, so a live server
//     still cancels the abandoned statement and the caller has its answer
//     by its own deadline either way;
//   - establishing a connection (TCP, TLS, startup, authentication) is
//     bounded by ConnectTimeout and by the context;
//   - sockets use TCP keepalive and TCP_USER_TIMEOUT (Linux), so a dead
//     peer is noticed even by calls that carry no deadline.
package pgconn

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Options bound connections; zero fields take the defaults.
type Options struct {
	// ConnectTimeout bounds establishing one connection. Default 5 s.
	ConnectTimeout time.Duration
	// CancelTimeout is the time kept for lib/pq's cancel request at the
	// end of a call's deadline, and its bound. Default 250 ms.
	CancelTimeout time.Duration
	// KeepAlive is the TCP keepalive idle time and interval (a dead peer
	// is dropped after three unanswered probes). Default 10 s.
	KeepAlive time.Duration
	// UserTimeout is TCP_USER_TIMEOUT: how long sent data may stay
	// unacknowledged before the connection is dropped. Default 30 s.
	UserTimeout time.Duration
}

// Defaults.
const (
	DefaultConnectTimeout = 5 * time.Second
	DefaultCancelTimeout  = 250 * time.Millisecond
	DefaultKeepAlive      = 10 * time.Second
	DefaultUserTimeout    = 30 * time.Second
)

func (o Options) withDefaults() Options {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.CancelTimeout <= 0 {
		o.CancelTimeout = DefaultCancelTimeout
	}
	if o.KeepAlive <= 0 {
		o.KeepAlive = DefaultKeepAlive
	}
	if o.UserTimeout <= 0 {
		o.UserTimeout = DefaultUserTimeout
	}
	return o
}

// Open returns a pool for dsn (a postgres:// URL or key=value string)
// whose connections are bounded as the package describes. Like sql.Open it
// does not connect.
func Open(dsn string, o Options) (*sqlx.DB, error) {
	c, err := NewConnector(dsn, o)
	if err != nil {
		return nil, err
	}
	return sqlx.NewDb(sql.OpenDB(c), "postgres"), nil
}

// MustOpen is Open for a URL already validated (config.Load); it panics
// on a malformed one.
func MustOpen(dsn string, o Options) *sqlx.DB {
	db, err := Open(dsn, o)
	if err != nil {
		panic(err)
	}
	return db
}

// NewConnector returns a driver.Connector for sql.OpenDB.
func NewConnector(dsn string, o Options) (driver.Connector, error) {
	o = o.withDefaults()
	pc, err := pq.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	d := &dialer{o: o, net: net.Dialer{
		KeepAliveConfig: net.KeepAliveConfig{Enable: true, Idle: o.KeepAlive, Interval: o.KeepAlive, Count: 3},
		Control:         userTimeoutControl(o.UserTimeout),
	}}
	pc.Dialer(d)
	return &connector{pq: pc, o: o}, nil
}

// dialKey marks the contexts of connections this package opens; lib/pq
// dials with any other context only for a cancel request.
type dialKey struct{}

// dialSlot receives the socket of the connection being opened.
type dialSlot struct {
	mu          sync.Mutex
	sock        net.Conn
	interrupted bool
}

func (s *dialSlot) set(c net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sock = c
	if s.interrupted {
		_ = c.SetDeadline(time.Unix(1, 0))
	}
}

func (s *dialSlot) interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.interrupted = true
	if s.sock != nil {
		_ = s.sock.SetDeadline(time.Unix(1, 0))
	}
}

type dialer struct {
	o   Options
	net net.Dialer
}

func (d *dialer) Dial(network, address string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, address)
}

func (d *dialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return d.DialContext(ctx, network, address)
}

func (d *dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	slot, ours := ctx.Value(dialKey{}).(*dialSlot)
	if !ours {
		// lib/pq's cancel request: it dials, writes, then reads until the
		// server hangs up; a server that never does must not hold it (a
		// caller may be waiting for it).
		ctx, cancel := context.WithTimeout(ctx, d.o.CancelTimeout)
		defer cancel()
		c, err := d.net.DialContext(ctx, network, address)
		if err != nil {
			return nil, err
		}
		_ = c.SetDeadline(time.Now().Add(d.o.CancelTimeout))
		return c, nil
	}
	c, err := d.net.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(dl) // the handshake, which lib/pq does not watch
	}
	slot.set(c)
	return c, nil
}

type connector struct {
	pq *pq.Connector
	o  Options
}

func (c *connector) Driver() driver.Driver { return c.pq.Driver() }

// Connect opens a connection within ConnectTimeout and ctx.
func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	slot := &dialSlot{}
	dctx, cancel := context.WithTimeout(context.WithValue(ctx, dialKey{}, slot), c.o.ConnectTimeout)
	defer cancel()
	stop := context.AfterFunc(dctx, slot.interrupt)
	dc, err := c.pq.Connect(dctx)
	if !stop() || err != nil {
		if err == nil { // interrupted just as it connected
			_ = dc.Close()
		}
		switch {
		case ended(ctx):
			return nil, fmt.Errorf("connect: %w", causeOf(ctx))
		case ended(dctx):
			// Kept a connection failure (not a context error): the server did
			// not answer in time, which is the server's failure, not the caller's.
			return nil, &net.OpError{Op: "connect", Net: "tcp", Err: fmt.Errorf("no answer within %s", c.o.ConnectTimeout)}
		}
		return nil, err
	}
	slot.mu.Lock()
	sock := slot.sock
	slot.mu.Unlock()
	if sock == nil { // cannot happen: lib/pq connects through the dialer
		_ = dc.Close()
		return nil, errors.New("pgconn: connection opened without the dialer")
	}
	_ = sock.SetDeadline(time.Time{})
	return &conn{inner: dc, sock: sock, o: c.o}, nil
}

// conn is one connection; every call is bounded by its context.
type conn struct {
	inner driver.Conn
	sock  net.Conn
	o     Options
	// broken: a call was interrupted, so the protocol may be mid-message;
	// database/sql discards the connection (IsValid, ResetSession).
	broken atomic.Bool
}

// guard bounds one call by ctx. It returns the context to hand lib/pq
// (ending CancelTimeout before ctx's deadline) and done, which disarms the
// guard and returns the call's error, replaced by the context's cause when
// the context ended first.
//
// When the context given to lib/pq ends, lib/pq sends its cancel request
// (bounded by CancelTimeout); the socket is interrupted half of
// CancelTimeout later, so a live server has had the time to cancel the
// statement and answer, and a silent one still leaves the caller its
// answer by its own deadline. (Interrupting at once would make lib/pq skip
// the cancel request: it sends none once the call has returned.)
func (c *conn) guard(ctx context.Context) (context.Context, func(error) error) {
	pctx, cancel := ctx, context.CancelFunc(func() {})
	if dl, ok := ctx.Deadline(); ok {
		pctx, cancel = context.WithDeadline(ctx, dl.Add(-c.o.CancelTimeout))
	}
	var (
		mu       sync.Mutex
		disarmed bool
		fired    bool
		timer    *time.Timer
	)
	stop := context.AfterFunc(pctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if disarmed {
			return
		}
		timer = time.AfterFunc(c.o.CancelTimeout/2, func() {
			mu.Lock()
			defer mu.Unlock()
			if !disarmed {
				fired = true
				c.broken.Store(true)
				_ = c.sock.SetDeadline(time.Unix(1, 0))
			}
		})
	})
	return pctx, func(err error) error {
		defer cancel()
		stop()
		mu.Lock()
		disarmed = true
		if timer != nil {
			timer.Stop()
		}
		interrupted := fired
		mu.Unlock()
		if err == nil || err == driver.ErrSkip || errors.Is(err, errInterrupted) || (!ended(pctx) && !interrupted) {
			return err
		}
		// The context ended first: whatever the driver saw (the server's
		// "canceling statement", a socket past its deadline) is the
		// context's doing.
		return &interruptedError{cause: causeOf(pctx), err: err}
	}
}

var errInterrupted = errors.New("pgconn: interrupted")

// ended reports whether ctx is done or past its deadline: a socket
// deadline set from it can fire before ctx's own timer marks it done.
func ended(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	dl, ok := ctx.Deadline()
	return ok && !time.Now().Before(dl)
}

// causeOf is ctx's cause, DeadlineExceeded when it is past its deadline
// but not yet marked done.
func causeOf(ctx context.Context) error {
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return context.DeadlineExceeded
}

// interruptedError is a call cut short by its context: it unwraps to the
// context's cause (DeadlineExceeded, Canceled or a cancel cause), never to
// the driver's error, so database/sql does not retry it on a new connection.
type interruptedError struct {
	cause, err error
}

func (e *interruptedError) Error() string {
	return fmt.Sprintf("%v (%v)", e.cause, e.err)
}

func (e *interruptedError) Unwrap() []error { return []error{e.cause, errInterrupted} }

// late returns the error for a call made with no time left (ctx ended, or
// within CancelTimeout of its deadline): such a call would be cut short
// after its statement reached the server, so it is not made at all.
func (c *conn) late(ctx context.Context) error {
	if ctx.Err() != nil {
		return &interruptedError{cause: causeOf(ctx), err: errors.New("not sent")}
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= c.o.CancelTimeout {
		return &interruptedError{cause: context.DeadlineExceeded, err: errors.New("not sent: deadline too close")}
	}
	return nil
}

// housekeeping bounds calls without a context (closing a statement).
func (c *conn) housekeeping() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), c.o.ConnectTimeout)
}

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if err := c.late(ctx); err != nil {
		return nil, err
	}
	pctx, done := c.guard(ctx)
	var st driver.Stmt
	var err error
	if p, ok := c.inner.(driver.ConnPrepareContext); ok {
		st, err = p.PrepareContext(pctx, query)
	} else {
		st, err = c.inner.Prepare(query)
	}
	if err = done(err); err != nil {
		return nil, err
	}
	return &stmt{inner: st, c: c}, nil
}

func (c *conn) Close() error {
	// The goodbye message must not wait on a server that reads nothing.
	_ = c.sock.SetDeadline(time.Now().Add(c.o.CancelTimeout))
	return c.inner.Close()
}

func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	b, ok := c.inner.(driver.ConnBeginTx)
	if !ok {
		return nil, errors.New("pgconn: driver without BeginTx")
	}
	if err := c.late(ctx); err != nil {
		return nil, err
	}
	pctx, done := c.guard(ctx)
	// lib/pq would watch this context for the whole transaction; the
	// guard of each statement (and of Commit and Rollback) does that here.
	tx, err := b.BeginTx(context.WithoutCancel(pctx), opts)
	if err = done(err); err != nil {
		return nil, err
	}
	return &txn{inner: tx, c: c, ctx: ctx}, nil
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.inner.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	if err := c.late(ctx); err != nil {
		return nil, err
	}
	pctx, done := c.guard(ctx)
	r, err := q.QueryContext(pctx, query, args)
	if err != nil {
		return nil, done(err)
	}
	return &rows{inner: r, done: done}, nil
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.inner.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	if err := c.late(ctx); err != nil {
		return nil, err
	}
	pctx, done := c.guard(ctx)
	res, err := e.ExecContext(pctx, query, args)
	return res, done(err)
}

func (c *conn) Ping(ctx context.Context) error {
	p, ok := c.inner.(driver.Pinger)
	if !ok {
		return nil
	}
	if err := c.late(ctx); err != nil {
		return err
	}
	pctx, done := c.guard(ctx)
	return done(p.Ping(pctx))
}

func (c *conn) ResetSession(ctx context.Context) error {
	if c.broken.Load() {
		return driver.ErrBadConn
	}
	if r, ok := c.inner.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *conn) IsValid() bool {
	if c.broken.Load() {
		return false
	}
	if v, ok := c.inner.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := c.inner.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

// txn bounds Commit and Rollback by the transaction's context.
type txn struct {
	inner driver.Tx
	c     *conn
	ctx   context.Context
}

func (t *txn) Commit() error { return t.end(t.inner.Commit) }

func (t *txn) Rollback() error { return t.end(t.inner.Rollback) }

// end commits or rolls back within the transaction's context; with no time
// left it sends nothing and the connection, still in its transaction, is
// discarded.
func (t *txn) end(fn func() error) error {
	if err := t.c.late(t.ctx); err != nil {
		t.c.broken.Store(true)
		return err
	}
	_, done := t.c.guard(t.ctx)
	return done(fn())
}

// stmt is a prepared statement on a bounded connection.
type stmt struct {
	inner driver.Stmt
	c     *conn
}

func (s *stmt) Close() error {
	ctx, cancel := s.c.housekeeping()
	defer cancel()
	_, done := s.c.guard(ctx)
	return done(s.inner.Close())
}

func (s *stmt) NumInput() int { return s.inner.NumInput() }

func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.inner.Exec(args) //nolint:staticcheck // only for drivers' legacy callers; database/sql uses ExecContext
}

func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.inner.Query(args) //nolint:staticcheck // as Exec
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	if err := s.c.late(ctx); err != nil {
		return nil, err
	}
	pctx, done := s.c.guard(ctx)
	if e, ok := s.inner.(driver.StmtExecContext); ok {
		res, err := e.ExecContext(pctx, args)
		return res, done(err)
	}
	// lib/pq's COPY statement has only Exec.
	values, err := plainValues(args)
	if err != nil {
		return nil, done(err)
	}
	res, err := s.inner.Exec(values) //nolint:staticcheck // the statement has no ExecContext
	return res, done(err)
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	if err := s.c.late(ctx); err != nil {
		return nil, err
	}
	pctx, done := s.c.guard(ctx)
	var r driver.Rows
	var err error
	if q, ok := s.inner.(driver.StmtQueryContext); ok {
		r, err = q.QueryContext(pctx, args)
	} else {
		var values []driver.Value
		if values, err = plainValues(args); err == nil {
			r, err = s.inner.Query(values) //nolint:staticcheck // the statement has no QueryContext
		}
	}
	if err != nil {
		return nil, done(err)
	}
	return &rows{inner: r, done: done}, nil
}

func plainValues(args []driver.NamedValue) ([]driver.Value, error) {
	out := make([]driver.Value, len(args))
	for i, a := range args {
		if a.Name != "" {
			return nil, errors.New("pgconn: named parameters are not supported")
		}
		out[i] = a.Value
	}
	return out, nil
}

// rows keeps its call's guard armed until it is closed: rows are read from
// the socket as Next is called.
type rows struct {
	inner driver.Rows
	done  func(error) error
	once  sync.Once
	err   error // the error finish returned first
}

func (r *rows) Columns() []string { return r.inner.Columns() }

func (r *rows) Next(dest []driver.Value) error {
	err := r.inner.Next(dest)
	if err == nil || err == io.EOF {
		return err
	}
	return r.finish(err)
}

func (r *rows) Close() error { return r.finish(r.inner.Close()) }

func (r *rows) finish(err error) error {
	first := false
	r.once.Do(func() { first, r.err = true, r.done(err) })
	if first || (err != nil && errors.Is(r.err, errInterrupted)) {
		return r.err // a later error of an interrupted call is the interruption's
	}
	return err
}
