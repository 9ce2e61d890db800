package app_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/internal/testenv/poll"
)

// limited is a server built as serve builds it (httpx.NewServer on
// Limits.Listener, the in-flight bound in the app) on a test database, on
// a real loopback socket.
type limited struct {
	env   *testenv.Env
	app   *app.App
	conns *httpx.ConnLimiter
	addr  string
	sk    string
}

func serveLimited(t *testing.T, l httpx.Limits, opts ...testenv.Option) *limited {
	t.Helper()
	return serveLimitedKeyed(t, l, nil, opts...)
}

// serveLimitedKeyed is serveLimited with the connections' client address
// given by clientKey (nil: the real one).
func serveLimitedKeyed(t *testing.T, l httpx.Limits, clientKey func(net.Addr) string, opts ...testenv.Option) *limited {
	t.Helper()
	env := testenv.New(t)
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	o := app.Options{DB: env.DB, Clock: env.Clock, Logger: logger, MaxInFlight: l.MaxInFlight}
	for _, opt := range opts {
		opt(&o)
	}
	a := app.New(o)
	srv := httpx.NewServer(a.Handler, l, logger)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cl := l.Listener(ln)
	if clientKey != nil {
		cl.KeyClientsBy(clientKey)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(cl) }()
	t.Cleanup(func() { _ = srv.Close(); <-done })
	return &limited{env: env, app: a, conns: cl, addr: ln.Addr().String(), sk: env.Keys.Sandbox.Secret}
}

// dial opens a raw connection that the test closes at its end at the latest.
func (s *limited) dial(t *testing.T) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", s.addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	// A safety net only: every assertion below is about what the server
	// did, never about how fast.
	require.NoError(t, c.SetDeadline(time.Now().Add(20*time.Second)))
	return c
}

// roundTrip sends raw on a new connection and reads one response.
func (s *limited) roundTrip(t *testing.T, raw string) (*http.Response, []byte, net.Conn) {
	t.Helper()
	c := s.dial(t)
	_, err := io.WriteString(c, raw)
	require.NoError(t, err)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body, &bufConn{Conn: c, r: br}
}

type bufConn struct {
	net.Conn
	r *bufio.Reader
}

func (b *bufConn) Read(p []byte) (int, error) { return b.r.Read(p) }

// closedByServer reads c to its end and reports whether the server closed
// it (EOF or reset), not the test's safety deadline.
func closedByServer(c net.Conn) bool {
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

func get(path, key string) string {
	raw := "GET " + path + " HTTP/1.1\r\nHost: test\r\n"
	if key != "" {
		raw += "Authorization: Bearer " + key + "\r\n"
	}
	return raw + "\r\n"
}

// requireEnvelope checks an error answer is the API's error envelope.
func requireEnvelope(t *testing.T, resp *http.Response, body []byte, status int, code string) map[string]any {
	t.Helper()
	require.Equal(t, status, resp.StatusCode, string(body))
	require.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json"), resp.Header)
	var e map[string]any
	require.NoError(t, json.Unmarshal(body, &e), string(body))
	require.Equal(t, float64(status), e["status"])
	require.Equal(t, code, e["code"])
	require.NotEmpty(t, e["message"])
	require.Equal(t, e["message"], e["error"])
	require.Equal(t, resp.Header.Get("Request-Id"), e["request_id"])
	return e
}

// Finding 3: a body trickled at one byte per interval is cut off by the
// read timeout: the server closes the connection long before the body is
// complete (counted in bytes the client got to send).
func TestSlowBodyIsCutOffByTheReadTimeout(t *testing.T) {
	t.Parallel()
	l := httpx.DefaultLimits()
	l.ReadTimeout = 200 * time.Millisecond
	s := serveLimited(t, l)
	c := s.dial(t)
	const size = 100
	_, err := fmt.Fprintf(c, "POST /v1/accounts HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n", s.sk, size)
	require.NoError(t, err)
	closed := make(chan bool, 1)
	go func() { closed <- closedByServer(c) }()
	sent := 0
trickle:
	for sent < size {
		select {
		case byServer := <-closed:
			require.True(t, byServer, "the server closed the connection")
			break trickle
		case <-time.After(50 * time.Millisecond):
		}
		if _, err := c.Write([]byte(" ")); err != nil {
			break // the server is gone
		}
		sent++
	}
	require.Less(t, sent, size, "the server waited for the whole trickled body")
}

// Finding 3: idle keep-alive connections are closed by the idle timeout.
func TestIdleKeepAliveConnectionsAreClosed(t *testing.T) {
	t.Parallel()
	l := httpx.DefaultLimits()
	l.IdleTimeout = 200 * time.Millisecond
	s := serveLimited(t, l)
	const n = 20
	var wg sync.WaitGroup
	closed := make(chan bool, n)
	for range n {
		resp, body, c := s.roundTrip(t, get("/healthz", ""))
		require.Equal(t, 200, resp.StatusCode, string(body))
		require.False(t, resp.Close, "a keep-alive connection")
		wg.Go(func() { closed <- closedByServer(c) })
	}
	wg.Wait()
	close(closed)
	count := 0
	for byServer := range closed {
		if byServer {
			count++
		}
	}
	require.Equal(t, n, count, "idle connections closed by the server")
}

// Finding 3: connections beyond --max-conns are answered 503 server_busy in
// the envelope (and /healthz 200), then closed; the descriptors held stay
// bounded whatever the number of clients, and a freed slot serves again.
func TestConnectionsAreBounded(t *testing.T) {
	t.Parallel()
	l := httpx.DefaultLimits()
	l.MaxConns, l.OverflowConns = 4, 2
	// The held requests must outlive the test, whatever its speed.
	l.ReadHeaderTimeout, l.ReadTimeout = time.Minute, time.Minute
	s := serveLimited(t, l)

	// Four unfinished requests hold every slot.
	var held []net.Conn
	for range l.MaxConns {
		c := s.dial(t)
		_, err := io.WriteString(c, "POST /v1/accounts HTTP/1.1\r\nHost: test\r\n")
		require.NoError(t, err)
		held = append(held, c)
	}
	waitFor(t, func() bool { return s.conns.Stats().Served == l.MaxConns })

	resp, body, c := s.roundTrip(t, get("/v1/accounts", s.sk))
	requireEnvelope(t, resp, body, http.StatusServiceUnavailable, httpx.CodeServerBusy)
	require.Equal(t, "1", resp.Header.Get("Retry-After"))
	require.True(t, resp.Close, "Connection: close")
	require.True(t, closedByServer(c))
	// One overflow connection per client address: wait for this one's.
	waitFor(t, func() bool { return s.conns.Stats().Overflow == 0 })

	resp, body, c = s.roundTrip(t, get("/healthz", ""))
	require.Equal(t, http.StatusOK, resp.StatusCode, "/healthz answers under saturation")
	require.Equal(t, "ok\n", string(body))
	require.True(t, closedByServer(c))
	waitFor(t, func() bool { return s.conns.Stats().Overflow == 0 })

	// 40 more unfinished requests: at most OverflowConns of them are held,
	// the rest are closed at once.
	const flood = 40
	for range flood {
		c := s.dial(t)
		_, _ = io.WriteString(c, "POST /v1/accounts HTTP/1.1\r\nHost: test\r\n")
	}
	waitFor(t, func() bool { return s.conns.Stats().Dropped >= int64(flood-l.OverflowConns) })
	st := s.conns.Stats()
	require.Equal(t, l.MaxConns, st.Served)
	require.LessOrEqual(t, st.Overflow, l.OverflowConns)

	// A freed slot serves the next client normally.
	require.NoError(t, held[0].Close())
	waitFor(t, func() bool { return s.conns.Stats().Served < l.MaxConns })
	resp, body, _ = s.roundTrip(t, get("/v1/accounts", s.sk))
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
}

// One address opening idle and unfinished connections as fast as the
// server takes them holds only its share: another client is served
// normally, and /healthz and /readyz answer, throughout the flood.
func TestOneClientAddressCannotTakeEveryConnection(t *testing.T) {
	t.Parallel()
	l := httpx.DefaultLimits()
	l.MaxConns, l.OverflowConns, l.MaxConnsPerClient = 8, 2, 3
	// The flood's connections must outlive the test, whatever its speed.
	l.ReadHeaderTimeout, l.ReadTimeout, l.IdleTimeout = time.Minute, time.Minute, time.Minute
	// Every test client is 127.0.0.1: each dial says which client it is.
	who := make(chan string, 64)
	s := serveLimitedKeyed(t, l, func(net.Addr) string { return <-who })
	dialAs := func(client string) net.Conn {
		who <- client
		return s.dial(t)
	}

	const flood = 40
	for i := range flood {
		c := dialAs("flood")
		if i%2 == 0 { // half idle, half an unfinished header
			_, _ = io.WriteString(c, "POST /v1/accounts HTTP/1.1\r\nHost: test\r\n")
		}
	}
	waitFor(t, func() bool { return s.conns.Stats().Accepted == flood })
	served, overflow := s.conns.ClientStats("flood")
	require.Equal(t, l.MaxConnsPerClient, served, "the flood holds its share")
	require.LessOrEqual(t, overflow, 1, "and at most one connection beyond it")
	require.GreaterOrEqual(t, s.conns.Stats().Dropped, int64(flood-l.MaxConnsPerClient-1))

	roundTripAs := func(client, raw string) (*http.Response, []byte) {
		c := dialAs(client)
		_, err := io.WriteString(c, raw)
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, body
	}
	resp, body := roundTripAs("merchant", get("/v1/accounts", s.sk))
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	resp, body = roundTripAs("probe", get("/healthz", ""))
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	resp, body = roundTripAs("probe", get("/readyz", ""))
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	served, _ = s.conns.ClientStats("flood")
	require.Equal(t, l.MaxConnsPerClient, served, "the flood still holds its share, no more")
}

// /readyz, like /healthz, answers on a connection beyond --max-conns and
// past --max-in-flight: a probe sees a busy server as alive and ready.
func TestProbesAnswerWhenThePoolIsFull(t *testing.T) {
	t.Parallel()
	l := httpx.DefaultLimits()
	l.MaxConns, l.OverflowConns, l.MaxInFlight = 2, 2, 1
	l.ReadHeaderTimeout, l.ReadTimeout = time.Minute, time.Minute
	s := serveLimited(t, l)
	// One request held in its handler (the in-flight bound), one
	// unfinished header: every connection slot and request slot is taken.
	c := s.dial(t)
	_, err := fmt.Fprintf(c, "POST /v1/accounts HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{", s.sk)
	require.NoError(t, err)
	_, err = io.WriteString(s.dial(t), "POST /v1/accounts HTTP/1.1\r\nHost: test\r\n")
	require.NoError(t, err)
	waitFor(t, func() bool { return s.conns.Stats().Served == l.MaxConns && s.app.InFlight.Count() == 1 })

	for _, path := range []string{"/healthz", "/readyz"} {
		resp, body, c := s.roundTrip(t, get(path, ""))
		require.Equal(t, http.StatusOK, resp.StatusCode, path+": "+string(body))
		require.True(t, resp.Close, "the overflow connection is freed at once")
		require.True(t, closedByServer(c))
		// One overflow connection per client address: wait for this one's.
		waitFor(t, func() bool { return s.conns.Stats().Overflow == 0 })
	}
	resp, body, _ := s.roundTrip(t, get("/v1/accounts", s.sk))
	requireEnvelope(t, resp, body, http.StatusServiceUnavailable, httpx.CodeServerBusy)
}

// Finding 3: requests beyond --max-in-flight are answered 503 server_busy
// with Retry-After at once (never queued); /healthz is still served.
func TestInFlightRequestsAreBounded(t *testing.T) {
	t.Parallel()
	l := httpx.DefaultLimits()
	l.MaxInFlight = 2
	s := serveLimited(t, l)

	// Two requests held in their handlers, waiting for their bodies.
	var holders []net.Conn
	for range l.MaxInFlight {
		c := s.dial(t)
		_, err := fmt.Fprintf(c, "POST /v1/accounts HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\n"+
			"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{", s.sk)
		require.NoError(t, err)
		holders = append(holders, c)
	}
	waitFor(t, func() bool { return s.app.InFlight.Count() == l.MaxInFlight })

	resp, body, _ := s.roundTrip(t, get("/v1/accounts", s.sk))
	requireEnvelope(t, resp, body, http.StatusServiceUnavailable, httpx.CodeServerBusy)
	require.Equal(t, "1", resp.Header.Get("Retry-After"))
	resp, body, _ = s.roundTrip(t, get("/graphql", ""))
	requireEnvelope(t, resp, body, http.StatusServiceUnavailable, httpx.CodeServerBusy)
	resp, body, _ = s.roundTrip(t, get("/healthz", ""))
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	require.Equal(t, int64(2), s.app.InFlight.Refused())

	for _, c := range holders {
		_, err := io.WriteString(c, "}")
		require.NoError(t, err)
		r, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err)
		require.NotEqual(t, http.StatusServiceUnavailable, r.StatusCode)
		_ = r.Body.Close()
	}
	waitFor(t, func() bool { return s.app.InFlight.Count() == 0 })
	resp, body, _ = s.roundTrip(t, get("/v1/accounts", s.sk))
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))

	metrics := testMetrics(t, s)
	require.Contains(t, metrics, "http_requests_refused_total 2")
	require.Contains(t, metrics, "http_requests_in_flight 1", "the /metrics request itself")
}

func testMetrics(t *testing.T, s *limited) string {
	t.Helper()
	resp, body, _ := s.roundTrip(t, get("/metrics", ""))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	return string(body)
}

// Finding 6: the method label does not take its values from the client.
func TestInventedMethodsAddNoMetricSeries(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client("")
	series := func() int {
		r := c.Get("/metrics")
		require.Equal(t, 200, r.Status)
		n := 0
		for _, line := range strings.Split(string(r.Body), "\n") {
			if strings.HasPrefix(line, "http_request") {
				n++
			}
		}
		return n
	}
	// chi answers 405 to any method it does not know, on any path.
	require.Equal(t, 405, c.Do("FROB", "/v1/accounts", nil, nil).Status)
	require.Equal(t, 405, c.Do("FROB", "/nowhere", nil, nil).Status)
	series()
	before := series()
	for i := range 300 {
		r := c.Do(fmt.Sprintf("INVENTED%d", i), fmt.Sprintf("/made-up/%d", i), nil, nil)
		require.Equal(t, 405, r.Status)
	}
	require.Equal(t, before, series(), "series added by 300 invented methods and paths")
	body := string(c.Get("/metrics").Body)
	require.Contains(t, body, `http_requests_total{method="_OTHER",route="unmatched",status="405"} 302`)
	require.NotContains(t, body, "INVENTED")
	require.NotContains(t, body, "made-up")
}

// Finding 7: what the handlers answer is in the envelope, including for the
// hostile inputs net/http lets through; what net/http answers itself is
// configured (header size, OPTIONS *) and otherwise pinned here exactly as
// docs/security.md documents it.
func TestErrorsOutsideHandlers(t *testing.T) {
	t.Parallel()
	l := httpx.DefaultLimits()
	s := serveLimited(t, l)

	// Reach the handlers: answered in the envelope.
	for name, tc := range map[string]struct {
		raw    string
		status int
		code   string
	}{
		"OPTIONS *":                 {"OPTIONS * HTTP/1.1\r\nHost: test\r\n\r\n", 404, "route_not_found"},
		"HTTP/2 preface over 1.1":   {"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 405, "method_not_allowed"},
		"NUL as %00 in the path":    {get("/v1/accounts/%00", s.sk), 404, "resource_missing"},
		"invalid UTF-8 in path":     {get("/v1/accounts/%FF", s.sk), 404, "resource_missing"},
		"non-ASCII Authorization":   {get("/v1/accounts", "sk_sandbox_\xff"), 401, "invalid_api_key"},
		"invented method":           {"FROB /v1/accounts HTTP/1.1\r\nHost: test\r\n\r\n", 405, "method_not_allowed"},
		"header below the limit":    {"GET /v1/accounts HTTP/1.1\r\nHost: test\r\nX-Pad: " + strings.Repeat("a", 32<<10) + "\r\n\r\n", 401, "authentication_required"},
		"non-ASCII Idempotency-Key": {"POST /v1/accounts HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer " + s.sk + "\r\nIdempotency-Key: a\xffb\r\nContent-Length: 2\r\n\r\n{}", 400, "idempotency_error"},
	} {
		resp, body, _ := s.roundTrip(t, tc.raw)
		requireEnvelope(t, resp, body, tc.status, tc.code)
		t.Logf("%s: %d %s", name, resp.StatusCode, tc.code)
	}

	// Answered by net/http before any handler: plain text, exactly this.
	plain := func(status string) string {
		return "HTTP/1.1 " + status + "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n" + status
	}
	for name, tc := range map[string]struct{ raw, want string }{
		"header over --max-header-bytes": {"GET /v1/accounts HTTP/1.1\r\nHost: test\r\nX-Pad: " + strings.Repeat("a", 100<<10) + "\r\n\r\n", plain("431 Request Header Fields Too Large")},
		"URL over --max-header-bytes":    {"GET /v1/" + strings.Repeat("a", 2<<20) + " HTTP/1.1\r\nHost: test\r\n\r\n", plain("431 Request Header Fields Too Large")},
		"NUL in Authorization":           {"GET /v1/accounts HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer sk\x00x\r\n\r\n", plain("400 Bad Request")},
		"0x7f in Idempotency-Key":        {"POST /v1/accounts HTTP/1.1\r\nHost: test\r\nIdempotency-Key: a\x7fb\r\nContent-Length: 2\r\n\r\n{}", plain("400 Bad Request")},
		"space in the path":              {"GET /v1/accounts/a b HTTP/1.1\r\nHost: test\r\n\r\n", plain("400 Bad Request")},
		"bad percent-encoding":           {"GET /v1/accounts/%zz HTTP/1.1\r\nHost: test\r\n\r\n", plain("400 Bad Request")},
		"missing Host":                   {"GET /v1/accounts HTTP/1.1\r\n\r\n", plain("400 Bad Request: missing required Host header")},
		"invalid header name":            {"GET /v1/accounts HTTP/1.1\r\nHost: test\r\nBad Name: x\r\n\r\n", plain("400 Bad Request: invalid header name")},
		"unknown HTTP version":           {"GET / HTTP/3.0\r\nHost: test\r\n\r\n", plain("505 HTTP Version Not Supported: unsupported protocol version")},
		"unknown transfer coding":        {"POST /v1/accounts HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: gzip\r\n\r\n", "HTTP/1.1 501 Not Implemented\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nUnsupported transfer encoding"},
	} {
		c := s.dial(t)
		go func() { _, _ = io.WriteString(c, tc.raw) }()
		got, _ := io.ReadAll(c) // net/http closes after these answers
		require.Equal(t, tc.want, string(got), name)
	}

	// An unknown Expect is answered 417 by net/http with an empty body.
	resp, body, _ := s.roundTrip(t, "POST /v1/accounts HTTP/1.1\r\nHost: test\r\nExpect: magic\r\nContent-Length: 2\r\n\r\n{}")
	require.Equal(t, http.StatusExpectationFailed, resp.StatusCode)
	require.Empty(t, body)
}

// Finding 7: /readyz's 503 is in the envelope like every error.
func TestReadinessFailureIsInTheEnvelope(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	env.DB.Close()
	r := env.Client("").Get("/readyz")
	require.Equal(t, 503, r.Status)
	e := r.JSON()
	require.Equal(t, "not_ready", e["code"])
	require.Equal(t, r.Header.Get("Request-Id"), e["request_id"])
	require.Equal(t, "1", r.Header.Get("Retry-After"))
}

// Finding 10: credentials never reach the log, wherever the client puts
// them: path, query, headers, body. Error messages that echo the path
// redact them too.
func TestCredentialsAreNeverLogged(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	env := testenv.New(t, testenv.WithLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	sk, pk := env.Keys.Sandbox.Secret, env.Keys.Production.Publishable
	secretOf := func(k string) string { return k[strings.LastIndexByte(k, '_')+1:] }
	onb := "onb_sess_" + strings.Repeat("Q", 40)
	whsec := "whsec_" + strings.Repeat("0f", 16)
	c := env.Client(sk)

	r := c.Get("/v1/accounts/" + sk)
	require.Equal(t, 404, r.Status)
	require.NotContains(t, string(r.Body), secretOf(sk), "the error message does not echo the key")
	require.Contains(t, string(r.Body), "sk_sandbox_[REDACTED]")
	r = c.Get("/v1/" + pk + "/nowhere")
	require.Equal(t, 404, r.Status)
	require.Equal(t, "route_not_found", r.JSON()["code"])
	require.NotContains(t, string(r.Body), secretOf(pk))
	r = c.Do(http.MethodGet, "/v1/accounts?token="+onb+"&w="+whsec, nil, http.Header{"X-Api-Key": {pk}})
	require.Equal(t, 200, r.Status)
	r = c.Post("/v1/accounts", map[string]any{"type": "individual", "metadata": map[string]any{"key": pk, "w": whsec}})
	require.Equal(t, 422, r.Status)
	r = c.Post("/v1/"+onb, map[string]any{"key": sk})
	require.Equal(t, 404, r.Status)
	require.NotContains(t, string(r.Body), secretOf(onb))

	logs := strings.Join(buf.lines(), "\n")
	require.Contains(t, logs, `"path":"/v1/accounts/sk_sandbox_[REDACTED]"`)
	require.Contains(t, logs, `"path":"/v1/onb_sess_[REDACTED]"`)
	for _, secret := range []string{secretOf(sk), secretOf(pk), secretOf(onb), secretOf(whsec)} {
		require.NotContains(t, logs, secret)
	}
}

// waitFor waits until cond holds (poll.Until: no deadline of its own).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	poll.Until(t, "the limit's state", cond)
}
