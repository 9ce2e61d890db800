package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
)

// errDestinationRefused is a delivery to a local address its mode may not
// reach; errDestinationNever one to a link-local or metadata address (the
// checks run on the address dialled, after DNS resolution).
var (
	errDestinationRefused = errors.New("destination address is not public")
	errDestinationNever   = errors.New("destination address is link-local or a cloud metadata service")
)

// newDeliveryClient returns the HTTP client of deliveries in one mode. Its
// dialer checks every address it connects to against dest at connect
// time, whatever the host resolved to, so DNS rebinding cannot reach
// inside. It never follows a redirect (a 3xx is the answer, and a
// failure), uses no proxy from the environment, bounds the connection and
// the TLS handshake by connect each (a receiver that is down fails fast)
// and the whole exchange by timeout.
func newDeliveryClient(timeout, connect time.Duration, dest webhook.Destinations, livemode bool) *http.Client {
	dialer := &net.Dialer{Timeout: connect, Control: dialControl(dest, livemode)}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   connect,
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	return &http.Client{Transport: transport, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// dialControl is the dialer hook that refuses, before connecting, an
// address the mode may not reach.
func dialControl(dest webhook.Destinations, livemode bool) func(network, address string, _ syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return errDestinationRefused
		}
		switch r := webhook.ReachOf(ap.Addr()); {
		case dest.Allows(r, livemode):
			return nil
		case r == webhook.Never:
			return errDestinationNever
		}
		return errDestinationRefused
	}
}

// describeFailure is the recorded reason of an attempt without an answer;
// connect is the connect timeout, timeout the whole attempt's.
func describeFailure(err error, timeout, connect time.Duration) string {
	var ne net.Error
	var oe *net.OpError
	switch {
	case errors.As(err, &oe) && oe.Op == "dial" && oe.Timeout():
		return fmt.Sprintf("timeout: no connection within %s", connect)
	case errors.Is(err, errDestinationNever):
		return "refused: the destination address is link-local or a cloud metadata service, never delivered to"
	case errors.Is(err, errDestinationRefused):
		return "refused: the destination address is not public (deliveries reach only public addresses here)"
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return fmt.Sprintf("timeout: no complete answer within %s", timeout)
	}
	msg := "connection failed: " + err.Error()
	if len(msg) > errorLimit {
		msg = msg[:errorLimit]
	}
	return msg
}
