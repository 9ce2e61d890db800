package webhooks

import (
	"context"
	"net/url"
	"time"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// resolveTimeout bounds the DNS look-up of an endpoint's host at create.
const resolveTimeout = 3 * time.Second

// checkResolvedURL refuses an endpoint whose host is, or resolves to, an
// address the mode may not reach (webhook.Destinations): link-local and
// cloud metadata addresses in every mode, loopback, private and the other
// local addresses in production, and in the sandbox unless the operator
// allows them. Every spelling of an address counts ("127.1",
// "0x7f000001", "LOCALHOST.", "[::ffff:127.0.0.1]"). A host that does not
// resolve now is accepted: the check that matters runs at every delivery,
// on the address actually dialled (newDeliveryClient), so a later DNS
// change cannot reach inside either.
func (s *Service) checkResolvedURL(ctx context.Context, raw string, livemode bool) error {
	u, err := url.Parse(raw)
	if err != nil {
		return apierr.FieldError("url", "must be an absolute http(s) URL")
	}
	h, ok := webhook.ParseHost(u.Hostname())
	if !ok {
		return apierr.FieldError("url", "must name a valid host")
	}
	if h.Known {
		return s.checkReach(h.Reach, livemode, "must not point at")
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := s.resolver.LookupNetIP(ctx, "ip", h.Name)
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if err := s.checkReach(webhook.ReachOf(a), livemode, "resolves to"); err != nil {
			return err
		}
	}
	return nil
}

// checkReach refuses an address of reach r that the mode may not reach.
func (s *Service) checkReach(r webhook.Reach, livemode bool, verb string) error {
	switch {
	case s.destinations.Allows(r, livemode):
		return nil
	case r == webhook.Never:
		return apierr.FieldError("url", verb+" a link-local or cloud metadata address")
	}
	return apierr.FieldError("url", verb+" a loopback, private or link-local address")
}
