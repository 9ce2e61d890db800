package store_test

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"net/url"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// closedPort returns a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	return port
}

func TestOutagesAreClassifiedAsUnavailable(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, refused := pgconn.Connect(ctx, fmt.Sprintf("postgres://x@127.0.0.1:%d/x?sslmode=disable", closedPort(t)))
	var connectErr *pgconn.ConnectError
	require.ErrorAs(t, refused, &connectErr)
	canceledCtx, cancelNow := context.WithCancel(ctx)
	cancelNow()
	_, canceled := pgconn.Connect(canceledCtx, fmt.Sprintf("postgres://x@127.0.0.1:%d/x?sslmode=disable", closedPort(t)))
	require.Error(t, canceled)

	reset := &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	for name, c := range map[string]struct {
		err  error
		want bool
	}{
		"connection refused":        {fmt.Errorf("select: %w", refused), true},
		"target reports nothing":    {fmt.Errorf("%w: pgembed: not running", store.ErrUnavailable), true},
		"admin shutdown":            {&pgconn.PgError{Code: "57P01"}, true},
		"crash shutdown":            {&pgconn.PgError{Code: "57P02"}, true},
		"starting up":               {&pgconn.PgError{Code: "57P03"}, true},
		"too many connections":      {&pgconn.PgError{Code: "53300"}, true},
		"connection failure":        {&pgconn.PgError{Code: "08006"}, true},
		"conn closed":               {fmt.Errorf("query: %w", pgconn.ErrConnClosed), true},
		"bad conn":                  {driver.ErrBadConn, true},
		"reset socket":              {reset, true},
		"unique violation":          {&pgconn.PgError{Code: "23505"}, false},
		"undefined table":           {&pgconn.PgError{Code: "42P01"}, false},
		"canceled while connecting": {canceled, false},
		"canceled request":          {context.Canceled, false},
		"deadline":                  {context.DeadlineExceeded, false},
		"outgoing HTTP call":        {&url.Error{Op: "Post", URL: "http://hooks.example", Err: reset}, false},
		"anything else":             {errors.New("boom"), false},
		"nil":                       {nil, false},
	} {
		require.Equal(t, c.want, store.IsUnavailable(c.err), name)
	}
}

// Finding 11b: the store registers its classifier, so every API error path
// answers an outage with 503 database_unavailable and Retry-After.
func TestOutageBecomes503DatabaseUnavailable(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := store.Open(ctx, fmt.Sprintf("postgres://x@127.0.0.1:%d/x?sslmode=disable", closedPort(t)), 1)
	require.Error(t, err)
	for _, e := range []*apierr.Error{apierr.From(err), apierr.Internal(err)} {
		require.Equal(t, 503, e.Status)
		require.Equal(t, apierr.CodeDatabaseUnavailable, e.Code)
		require.Equal(t, "2", e.Headers["Retry-After"])
	}
	require.Equal(t, 500, apierr.From(&pgconn.PgError{Code: "23505"}).Status)
}
