package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"net"
	"net/url"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// UnavailableRetryAfter is the Retry-After an API error carries while the
// database cannot be reached: long enough for a restart of the embedded
// PostgreSQL or a pooler's reconnect, short enough not to stall clients.
const UnavailableRetryAfter = 2 * time.Second

// ErrUnavailable marks a connection that could not even be attempted: the
// connection target (WithConnTarget) reports that no database is serving.
var ErrUnavailable = errors.New("store: database unavailable")

// The database's classifier: every API error path (apierr.From,
// apierr.Internal) answers an outage with 503 database_unavailable and
// Retry-After instead of a 500, and a transaction the database gave up on
// because of another (a deadlock, a lock it could not take) with a
// retryable 409 lock_conflict. Registered once, wherever the store is
// linked, which is wherever a database is.
func init() {
	apierr.RegisterClassifier(func(err error) *apierr.Error {
		switch {
		case IsUnavailable(err):
			return apierr.DatabaseUnavailable(UnavailableRetryAfter, err)
		case IsLockConflict(err):
			return apierr.LockConflict(err)
		}
		return nil
	})
}

// IsUnavailable reports whether err means the database could not be reached
// or is going away, as opposed to a statement failing on a working database:
//   - no connection could be made (pgconn.ConnectError: refused, unreachable,
//     the server starting up or shutting down, authentication refused), or
//     the connection target reports nothing serving (ErrUnavailable);
//   - the server ended the session: 57P01 admin_shutdown, 57P02
//     crash_shutdown, 57P03 cannot_connect_now, class 08 connection
//     exceptions, 53300 too_many_connections;
//   - the connection broke under a statement (pgconn.ErrConnClosed,
//     driver.ErrBadConn after database/sql's retries, a reset or refused
//     socket, another network error of the driver).
//
// A request that was canceled (the client left) is not an outage, nor is a
// statement that ran out of time on a working connection, nor a network
// error of an outgoing HTTP call (a *url.Error, e.g. a webhook delivery).
func IsUnavailable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	if errors.Is(err, ErrUnavailable) {
		return true
	}
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch code := pgErr.Code; {
		case code == "57P01", code == "57P02", code == "57P03", code == "53300":
			return true
		case len(code) == 5 && code[:2] == "08":
			return true
		}
		return false
	}
	if pgconn.Timeout(err) {
		return false
	}
	if errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, driver.ErrBadConn) {
		return true
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return false
	}
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) && !opErr.Timeout()
}
