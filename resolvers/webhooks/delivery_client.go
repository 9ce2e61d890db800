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

// errDestinationRefused is a production delivery to an address that is not
// public (after DNS resolution: the check runs on the address dialled).
var errDestinationRefused = errors.New("destination address is not public")

// newDeliveryClient returns the HTTP client of deliveries. With guard, the
// dialer refuses every non-public address at connect time, whatever the
// host resolved to (so DNS rebinding cannot reach inside). It never
// follows a redirect (a 3xx is the answer, and a failure), uses no proxy
// from the environment, and bounds the whole exchange by timeout.
func newDeliveryClient(timeout time.Duration, guard bool) *http.Client {
	dialer := &net.Dialer{Timeout: timeout}
	if guard {
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !webhook.PublicAddress(ap.Addr()) {
				return errDestinationRefused
			}
			return nil
		}
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	return &http.Client{Transport: transport, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// describeFailure is the recorded reason of an attempt without an answer.
func describeFailure(err error, timeout time.Duration) string {
	var ne net.Error
	switch {
	case errors.Is(err, errDestinationRefused):
		return "refused: the destination address is not public (production deliveries reach only public addresses)"
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return fmt.Sprintf("timeout: no complete answer within %s", timeout)
	}
	msg := "connection failed: " + err.Error()
	if len(msg) > errorLimit {
		msg = msg[:errorLimit]
	}
	return msg
}
