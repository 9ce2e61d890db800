package httpx_test

import (
	"flag"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/httpx"
)

func TestRedactHidesEveryKindOfCredential(t *testing.T) {
	t.Parallel()
	secret := strings.Repeat("Ab3", 13) + "Z" // 40 base62 characters
	for in, want := range map[string]string{
		"/v1/accounts/sk_sandbox_" + secret:                 "/v1/accounts/sk_sandbox_[REDACTED]",
		"/v1/x/pk_production_" + secret + "/y":              "/v1/x/pk_production_[REDACTED]/y",
		"onb_sess_" + secret:                                "onb_sess_[REDACTED]",
		"a=chk_sess_" + secret + "&b=1":                     "a=chk_sess_[REDACTED]&b=1",
		"ci_0190-abc_secret_" + secret:                      "ci_0190-abc_secret_[REDACTED]",
		"whsec_" + secret:                                   "whsec_[REDACTED]",
		"Xsk_sandbox_" + secret:                             "Xsk_sandbox_[REDACTED]",
		"No such account: 'sk_production_" + secret + "'":   "No such account: 'sk_production_[REDACTED]'",
		"/v1/accounts/0190c1d2-0000-7000-8000-000000000000": "/v1/accounts/0190c1d2-0000-7000-8000-000000000000",
		"invalid_client_secret":                             "invalid_client_secret",
		"sk_sandbox_":                                       "sk_sandbox_",
	} {
		require.Equal(t, want, httpx.Redact(in), in)
		require.NotContains(t, httpx.Redact(in), secret)
	}
}

func TestMethodLabelIsBounded(t *testing.T) {
	t.Parallel()
	for _, m := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"} {
		require.Equal(t, m, httpx.MethodLabel(m))
	}
	for _, m := range []string{"FROB", "get", "PRI", "PROPFIND", strings.Repeat("X", 1000)} {
		require.Equal(t, httpx.OtherMethod, httpx.MethodLabel(m))
	}
}

func TestLimitsFlagsAndEnvironment(t *testing.T) {
	t.Parallel()
	env := map[string]string{"HTTP_READ_TIMEOUT": "7s", "HTTP_MAX_CONNS": "12"}
	l := httpx.DefaultLimits()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	require.NoError(t, l.RegisterFlags(fs, func(k string) string { return env[k] }))
	require.NoError(t, fs.Parse([]string{"--max-in-flight", "3", "--idle-timeout", "1m"}))
	require.Equal(t, 7*time.Second, l.ReadTimeout, "from the environment")
	require.Equal(t, 12, l.MaxConns, "from the environment")
	require.Equal(t, 3, l.MaxInFlight, "from the flag")
	require.Equal(t, time.Minute, l.IdleTimeout, "from the flag")
	require.Equal(t, httpx.DefaultLimits().WriteTimeout, l.WriteTimeout, "the default")
	require.NoError(t, l.Validate())

	bad := httpx.DefaultLimits()
	require.Error(t, bad.RegisterFlags(flag.NewFlagSet("serve", flag.ContinueOnError),
		func(k string) string { return map[string]string{"HTTP_WRITE_TIMEOUT": "soon"}[k] }))
	bad.MaxConns = -1
	require.Error(t, bad.Validate())

	d := httpx.DefaultLimits()
	for name, v := range map[string]int64{"read header": int64(d.ReadHeaderTimeout), "read": int64(d.ReadTimeout),
		"write": int64(d.WriteTimeout), "idle": int64(d.IdleTimeout), "header bytes": int64(d.MaxHeaderBytes),
		"conns": int64(d.MaxConns), "in flight": int64(d.MaxInFlight), "conns per client": int64(d.MaxConnsPerClient)} {
		require.Positive(t, v, "every limit is on by default: %s", name)
	}
	srv := httpx.NewServer(http.NotFoundHandler(), d, nil)
	require.Equal(t, d.ReadTimeout, srv.ReadTimeout)
	require.Equal(t, d.WriteTimeout, srv.WriteTimeout)
	require.Equal(t, d.IdleTimeout, srv.IdleTimeout)
	require.Equal(t, d.ReadHeaderTimeout, srv.ReadHeaderTimeout)
	require.Equal(t, d.MaxHeaderBytes, srv.MaxHeaderBytes)
}

// A connection closed while beyond the bound, and then the bound's own
// connections closed, give every slot back.
func TestConnLimiterGivesSlotsBack(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cl := httpx.Limits{MaxConns: 2, OverflowConns: 1}.Listener(ln)
	defer cl.Close()
	accepted := make(chan net.Conn, 8)
	go func() {
		for {
			c, err := cl.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	var clients []net.Conn
	for range 4 {
		c, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		clients = append(clients, c)
	}
	var served []net.Conn
	for range 3 { // two within the bound, one beyond it; the fourth is dropped
		served = append(served, <-accepted)
	}
	waitFor(t, func() bool { return cl.Stats().Dropped == 1 })
	require.Equal(t, httpx.ConnStats{Served: 2, Overflow: 1, Clients: 1, Accepted: 4, Dropped: 1}, cl.Stats())
	// The dropped client reads EOF: closed without a word.
	_ = clients[3].SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := clients[3].Read(make([]byte, 1))
	require.Equal(t, 0, n)
	require.ErrorIs(t, err, io.EOF)

	for _, c := range served {
		require.NoError(t, c.Close())
		_ = c.Close() // closing twice gives one slot back, not two
	}
	require.Equal(t, httpx.ConnStats{Accepted: 4, Dropped: 1}, cl.Stats())
	for _, c := range clients {
		_ = c.Close()
	}
}

// One client address holds at most its share within the bound and one
// connection beyond it; another address still finds room in both, and
// every place is given back when the connections close.
func TestConnLimiterSharesPerClientAddress(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cl := httpx.Limits{MaxConns: 4, OverflowConns: 2, MaxConnsPerClient: 2}.Listener(ln)
	defer cl.Close()
	// Every test client is 127.0.0.1: the test says who dials next.
	who := make(chan string, 16)
	cl.KeyClientsBy(func(net.Addr) string { return <-who })
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := cl.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	dial := func(as string) net.Conn {
		who <- as
		c, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	for range 6 {
		dial("flood")
	}
	waitFor(t, func() bool { return cl.Stats().Accepted == 6 })
	served, overflow := cl.ClientStats("flood")
	require.Equal(t, []int{2, 1}, []int{served, overflow}, "its share, and one connection beyond it")
	require.Equal(t, int64(3), cl.Stats().Dropped)

	dial("other")
	dial("other")
	waitFor(t, func() bool { return cl.Stats().Accepted == 8 })
	served, overflow = cl.ClientStats("other")
	require.Equal(t, []int{2, 0}, []int{served, overflow}, "another address is served in full")
	dial("third")
	waitFor(t, func() bool { return cl.Stats().Accepted == 9 })
	require.Equal(t, httpx.ConnStats{Served: 4, Overflow: 2, Clients: 3, Accepted: 9, Dropped: 3}, cl.Stats(),
		"past MaxConns a new address still gets its overflow connection")

	for range 6 {
		require.NoError(t, (<-accepted).Close())
	}
	require.Equal(t, httpx.ConnStats{Accepted: 9, Dropped: 3}, cl.Stats())
}

func TestClientAddressGroupsIPv6By64(t *testing.T) {
	t.Parallel()
	key := func(s string) string { return httpx.ClientAddress(net.TCPAddrFromAddrPort(netip.MustParseAddrPort(s))) }
	require.Equal(t, "203.0.113.9", key("203.0.113.9:4000"))
	require.Equal(t, "203.0.113.9", key("[::ffff:203.0.113.9]:4000"), "mapped addresses are their IPv4 address")
	require.Equal(t, "2001:db8:1:2::/64", key("[2001:db8:1:2::1]:80"))
	require.Equal(t, key("[2001:db8:1:2::1]:80"), key("[2001:db8:1:2:ffff::9]:81"), "one /64 is one client")
	require.NotEqual(t, key("[2001:db8:1:2::1]:80"), key("[2001:db8:1:3::1]:80"))
}

// waitFor polls cond (bounded: 10 s).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 1000 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition not reached")
}
