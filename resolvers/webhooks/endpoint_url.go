package webhooks

import (
	"context"
	"net/netip"
	"net/url"
	"time"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// resolveTimeout bounds the DNS look-up of an endpoint's host at create.
const resolveTimeout = 3 * time.Second

// checkResolvedURL refuses, in production mode, an endpoint whose host is
// or resolves to a loopback, private, link-local or otherwise non-public
// address. A host that does not resolve now is accepted: the check that
// matters runs at every delivery, on the address actually dialled
// (safeDialer), so a later DNS change cannot reach inside either. The
// sandbox accepts any address, for receivers on the developer's machine.
func (s *Service) checkResolvedURL(ctx context.Context, raw string, livemode bool) error {
	if !livemode {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return apierr.FieldError("url", "must be an absolute http(s) URL")
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		if !webhook.PublicAddress(a) {
			return apierr.FieldError("url", "must not point at a loopback, private or link-local address")
		}
		return nil
	}
	if host == "localhost" {
		return apierr.FieldError("url", "must not point at a loopback, private or link-local address")
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := s.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if !webhook.PublicAddress(a) {
			return apierr.FieldError("url", "resolves to a loopback, private or link-local address")
		}
	}
	return nil
}
