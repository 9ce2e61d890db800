package httpx

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Listener bounds the connections served at once to l.MaxConns (ln as is
// when MaxConns is 0).
//
// golang.org/x/net/netutil.LimitListener is not used: it stops accepting
// when saturated, so new clients (and health probes) wait unanswered in the
// kernel's backlog until a connection closes. Here a connection beyond
// MaxConns is still accepted and served, briefly: the in-flight middleware
// (LimitInFlight) sees it marked saturated and answers 503 server_busy
// with Retry-After (200 for /healthz) and Connection: close, and the
// connection lives at most OverflowLifetime. At most l.OverflowConns such
// connections are open at once; beyond them a new connection is closed at
// once. Descriptors held by the server stay below MaxConns+OverflowConns.
func (l Limits) Listener(ln net.Listener) *ConnLimiter {
	c := &ConnLimiter{Listener: ln}
	if l.MaxConns > 0 {
		c.slots = make(chan struct{}, l.MaxConns)
		c.overflow = make(chan struct{}, l.OverflowConns)
	}
	return c
}

// ConnLimiter is the listener Limits.Listener returns.
type ConnLimiter struct {
	net.Listener
	slots    chan struct{} // nil: no limit
	overflow chan struct{}
	dropped  atomic.Int64
}

// ConnStats counts a ConnLimiter's connections.
type ConnStats struct {
	Served   int   // connections open within MaxConns
	Overflow int   // connections open beyond MaxConns, being answered 503
	Dropped  int64 // connections closed unanswered since the start
}

// Stats reports the connections held now.
func (c *ConnLimiter) Stats() ConnStats {
	return ConnStats{Served: len(c.slots), Overflow: len(c.overflow), Dropped: c.dropped.Load()}
}

// Accept returns the next connection, marked saturated when it is beyond
// MaxConns.
func (c *ConnLimiter) Accept() (net.Conn, error) {
	for {
		conn, err := c.Listener.Accept()
		if err != nil || c.slots == nil {
			return conn, err
		}
		select {
		case c.slots <- struct{}{}:
			return &limitedConn{Conn: conn, slots: c.slots}, nil
		default:
		}
		select {
		case c.overflow <- struct{}{}:
			oc := &overflowConn{limitedConn: limitedConn{Conn: conn, slots: c.overflow},
				deadline: time.Now().Add(OverflowLifetime)} // clock: connection deadline
			_ = conn.SetDeadline(oc.deadline)
			return oc, nil
		default:
			c.dropped.Add(1)
			_ = conn.Close()
		}
	}
}

// limitedConn gives its slot back when closed.
type limitedConn struct {
	net.Conn
	slots chan struct{}
	once  sync.Once
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { <-c.slots })
	return err
}

// CloseWrite keeps net/http's lingering close (it half-closes, then drains
// the client's unread bytes, so the client reads the answer instead of a
// reset).
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// overflowConn is a connection beyond MaxConns: its deadlines never pass
// its hard deadline.
type overflowConn struct {
	limitedConn
	deadline time.Time
}

func (c *overflowConn) clamp(t time.Time) time.Time {
	if t.IsZero() || t.After(c.deadline) {
		return c.deadline
	}
	return t
}

func (c *overflowConn) SetDeadline(t time.Time) error { return c.Conn.SetDeadline(c.clamp(t)) }
func (c *overflowConn) SetReadDeadline(t time.Time) error {
	return c.Conn.SetReadDeadline(c.clamp(t))
}
func (c *overflowConn) SetWriteDeadline(t time.Time) error {
	return c.Conn.SetWriteDeadline(c.clamp(t))
}

type saturatedKey struct{}

// connContext marks the requests of a connection beyond MaxConns.
func connContext(ctx context.Context, c net.Conn) context.Context {
	if _, ok := c.(*overflowConn); ok {
		return context.WithValue(ctx, saturatedKey{}, true)
	}
	return ctx
}

// Saturated reports whether the request came on a connection beyond
// MaxConns.
func Saturated(ctx context.Context) bool {
	v, _ := ctx.Value(saturatedKey{}).(bool)
	return v
}
