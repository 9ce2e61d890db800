package httpx

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Listener bounds the connections served at once to l.MaxConns, and those
// one client address holds to l.MaxConnsPerClient (ln as is when both are
// 0).
//
// golang.org/x/net/netutil.LimitListener is not used: it stops accepting
// when saturated, so new clients (and health probes) wait unanswered in the
// kernel's backlog until a connection closes. Here a connection beyond
// MaxConns, or beyond its address's share, is still accepted and served,
// briefly: the in-flight middleware (LimitInFlight) sees it marked
// saturated and answers 503 server_busy with Retry-After (200 for /healthz
// and /readyz) and Connection: close, and the connection lives at most
// OverflowLifetime. At most l.OverflowConns such connections are open at
// once, and at most one per client address when MaxConnsPerClient is set;
// beyond them a new connection is closed at once. Descriptors held by the
// server stay below MaxConns+OverflowConns, and one address holds at most
// MaxConnsPerClient+1 of them: a flood of idle sockets from one address
// leaves the rest of the pool, and the overflow that answers health
// probes, to everyone else.
func (l Limits) Listener(ln net.Listener) *ConnLimiter {
	return &ConnLimiter{Listener: ln, max: l.MaxConns, overflowMax: l.OverflowConns,
		perClient: l.MaxConnsPerClient, clientKey: ClientAddress, clients: map[string]*clientConns{}}
}

// overflowPerClient is how many connections beyond the bounds one client
// address may hold at once, when addresses have a share: one, enough to
// read its 503 or answer its health probe.
const overflowPerClient = 1

// ConnLimiter is the listener Limits.Listener returns.
type ConnLimiter struct {
	net.Listener
	max, overflowMax, perClient int // 0: no bound
	clientKey                   func(net.Addr) string

	mu       sync.Mutex
	served   int
	overflow int
	clients  map[string]*clientConns // by ClientAddress; an entry lives while it holds a connection

	accepted atomic.Int64
	dropped  atomic.Int64
}

// clientConns counts one client address's connections.
type clientConns struct{ served, overflow int }

// ConnStats counts a ConnLimiter's connections.
type ConnStats struct {
	Served   int   // connections open within the bounds
	Overflow int   // connections open beyond them, being answered 503
	Clients  int   // client addresses holding a connection
	Accepted int64 // connections accepted since the start, dropped ones included
	Dropped  int64 // connections closed unanswered since the start
}

// Stats reports the connections held now.
func (c *ConnLimiter) Stats() ConnStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return ConnStats{Served: c.served, Overflow: c.overflow, Clients: len(c.clients),
		Accepted: c.accepted.Load(), Dropped: c.dropped.Load()}
}

// ClientStats reports the connections one client address (its
// ClientAddress key) holds now.
func (c *ConnLimiter) ClientStats(key string) (served, overflow int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cc := c.clients[key]; cc != nil {
		return cc.served, cc.overflow
	}
	return 0, 0
}

// KeyClientsBy replaces ClientAddress as the key of a connection's share
// (tests, where every client is 127.0.0.1). Call it before serving.
func (c *ConnLimiter) KeyClientsBy(key func(net.Addr) string) { c.clientKey = key }

// ClientAddress is the key of the share a connection from a counts
// against: the IPv4 address, or the /64 prefix of an IPv6 address (one
// subscriber commonly holds a whole /64, so its addresses are one client).
// IPv4-mapped IPv6 addresses are their IPv4 address.
func ClientAddress(a net.Addr) string {
	t, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	ip := t.AddrPort().Addr().Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// Accept returns the next connection, marked saturated when it is beyond
// MaxConns or its address's share.
func (c *ConnLimiter) Accept() (net.Conn, error) {
	for {
		conn, err := c.Listener.Accept()
		if err != nil || (c.max == 0 && c.perClient == 0) {
			return conn, err
		}
		c.accepted.Add(1)
		key := c.clientKey(conn.RemoteAddr())
		switch c.admit(key) {
		case tierServed:
			return &limitedConn{Conn: conn, release: func() { c.release(key, tierServed) }}, nil
		case tierOverflow:
			oc := &overflowConn{limitedConn: limitedConn{Conn: conn, release: func() { c.release(key, tierOverflow) }},
				deadline: time.Now().Add(OverflowLifetime)} // clock: connection deadline
			_ = conn.SetDeadline(oc.deadline)
			return oc, nil
		default:
			c.dropped.Add(1)
			_ = conn.Close()
		}
	}
}

type tier int

const (
	tierDropped tier = iota
	tierServed
	tierOverflow
)

// admit counts a new connection from key in the first tier with room for
// it: served (within MaxConns and the address's share), then overflow
// (within OverflowConns and, with shares, one per address).
func (c *ConnLimiter) admit(key string) tier {
	c.mu.Lock()
	defer c.mu.Unlock()
	cc := c.clients[key]
	if cc == nil {
		cc = &clientConns{}
		c.clients[key] = cc
	}
	switch {
	case (c.max == 0 || c.served < c.max) && (c.perClient == 0 || cc.served < c.perClient):
		c.served++
		cc.served++
		return tierServed
	case c.overflow < c.overflowMax && (c.perClient == 0 || cc.overflow < overflowPerClient):
		c.overflow++
		cc.overflow++
		return tierOverflow
	}
	if cc.served+cc.overflow == 0 {
		delete(c.clients, key)
	}
	return tierDropped
}

// release gives back a connection's place in its tier.
func (c *ConnLimiter) release(key string, t tier) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cc := c.clients[key]
	if t == tierServed {
		c.served--
		cc.served--
	} else {
		c.overflow--
		cc.overflow--
	}
	if cc.served+cc.overflow == 0 {
		delete(c.clients, key)
	}
}

// limitedConn gives its place back when closed.
type limitedConn struct {
	net.Conn
	release func()
	once    sync.Once
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
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
