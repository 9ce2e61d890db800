package httpx

import (
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/flagenv"
)

// MaxBodyBytes bounds every request body the server reads (REST and
// GraphQL alike): 1 MiB.
const MaxBodyBytes = 1 << 20

// Limits are the per-process bounds of the HTTP server; serve starts from
// DefaultLimits. Zero keeps net/http's meaning for its fields (no read or
// write timeout; the read timeout for the header and idle timeouts; 1 MiB
// of header) and means "no limit" for MaxConns and MaxInFlight.
// docs/security.md lists them.
type Limits struct {
	// ReadHeaderTimeout bounds reading a request's header.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, header and body: a body
	// trickled slower than this is cut off and its connection closed.
	ReadTimeout time.Duration
	// WriteTimeout bounds the time from the end of a request's header to
	// the end of its response (the handler's time included).
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that waits this long for
	// its next request.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds the request line and header together; beyond
	// it net/http answers 431 itself.
	MaxHeaderBytes int
	// MaxConns bounds the connections served at once. A connection beyond
	// it is answered 503 server_busy (or /healthz) and closed, see
	// OverflowConns.
	MaxConns int
	// OverflowConns bounds the connections beyond MaxConns that are being
	// answered 503 at once (each for at most OverflowLifetime); beyond
	// both, a new connection is closed without a word.
	OverflowConns int
	// MaxConnsPerClient bounds the connections one client address
	// (ClientAddress: an IPv4 address or an IPv6 /64) holds within
	// MaxConns, idle, unfinished or busy alike; past it the address gets
	// one overflow connection (answered 503) and the rest are closed. Behind
	// a proxy every client shares the proxy's addresses: raise it or turn
	// it off (0) there.
	MaxConnsPerClient int
	// MaxInFlight bounds the requests in handlers at once; beyond it a
	// request is answered 503 server_busy with Retry-After (/healthz is
	// exempt).
	MaxInFlight int
}

// OverflowLifetime is how long a connection beyond MaxConns may take to
// send its request and read its 503 before it is closed.
const OverflowLifetime = 5 * time.Second

// DefaultLimits are serve's defaults.
func DefaultLimits() Limits {
	return Limits{
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       90 * time.Second,
		MaxHeaderBytes:    64 << 10,
		MaxConns:          1024,
		OverflowConns:     64,
		MaxConnsPerClient: 64,
		MaxInFlight:       256,
	}
}

// RegisterFlags adds the limits' flags to fs. Each flag's default is its
// environment variable's value when set (getenv, e.g. os.Getenv), else the
// value already in l. An environment value that does not parse is an error.
func (l *Limits) RegisterFlags(fs *flag.FlagSet, getenv func(string) string) error {
	f := flagenv.New(fs, getenv)
	dur, num := f.Duration, f.Int
	dur(&l.ReadHeaderTimeout, "read-header-timeout", "HTTP_READ_HEADER_TIMEOUT",
		"time to read a request header; 0 = the read timeout")
	dur(&l.ReadTimeout, "read-timeout", "HTTP_READ_TIMEOUT",
		"time to read a whole request, body included; 0 = none")
	dur(&l.WriteTimeout, "write-timeout", "HTTP_WRITE_TIMEOUT",
		"time from the end of a request's header to the end of its response; 0 = none")
	dur(&l.IdleTimeout, "idle-timeout", "HTTP_IDLE_TIMEOUT",
		"time a keep-alive connection may wait for its next request; 0 = the read timeout")
	num(&l.MaxHeaderBytes, "max-header-bytes", "HTTP_MAX_HEADER_BYTES",
		"bytes of request line and header, beyond which net/http answers 431; 0 = 1 MiB")
	num(&l.MaxConns, "max-conns", "HTTP_MAX_CONNS",
		"connections served at once; more are answered 503 server_busy; 0 = no limit")
	num(&l.MaxConnsPerClient, "max-conns-per-client", "HTTP_MAX_CONNS_PER_CLIENT",
		"connections one client address (IPv4, or IPv6 /64) holds at once; raise or 0 (off) behind a proxy")
	num(&l.MaxInFlight, "max-in-flight", "HTTP_MAX_IN_FLIGHT",
		"requests in handlers at once; more are answered 503 server_busy; 0 = no limit")
	return f.Err()
}

// Validate refuses negative limits.
func (l Limits) Validate() error {
	for name, v := range map[string]int64{
		"read-header-timeout": int64(l.ReadHeaderTimeout), "read-timeout": int64(l.ReadTimeout),
		"write-timeout": int64(l.WriteTimeout), "idle-timeout": int64(l.IdleTimeout),
		"max-header-bytes": int64(l.MaxHeaderBytes), "max-conns": int64(l.MaxConns),
		"overflow-conns": int64(l.OverflowConns), "max-in-flight": int64(l.MaxInFlight),
		"max-conns-per-client": int64(l.MaxConnsPerClient),
	} {
		if v < 0 {
			return fmt.Errorf("%s must not be negative", name)
		}
	}
	return nil
}

// NewServer returns an http.Server serving h under l's timeouts and header
// limit, logging its own errors (accept failures, TLS, hijacked panics) to
// logger (nil: slog's default). Serve it on l.Listener(ln) to bound the
// connections too.
//
// net/http answers some malformed requests itself, before any handler, in
// plain text (docs/security.md lists them); the general "OPTIONS *" handler
// is turned off, so that request reaches the router and answers in the
// envelope.
func NewServer(h http.Handler, l Limits, logger *slog.Logger) *http.Server {
	if logger == nil {
		logger = slog.Default()
	}
	return &http.Server{
		Handler:                      h,
		ReadHeaderTimeout:            l.ReadHeaderTimeout,
		ReadTimeout:                  l.ReadTimeout,
		WriteTimeout:                 l.WriteTimeout,
		IdleTimeout:                  l.IdleTimeout,
		MaxHeaderBytes:               l.MaxHeaderBytes,
		DisableGeneralOptionsHandler: true,
		ConnContext:                  connContext,
		ErrorLog:                     slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}
