package main

import (
	"flag"
	"fmt"
	"net"
	"net/netip"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/flagenv"
)

// sandboxLocal is serve's choice of whether sandbox webhook endpoints may
// point at local addresses (loopback, private, CGNAT, multicast): "allow",
// "refuse", or "auto", which allows them only when the server listens on
// loopback alone, so that a developer's own server delivers to their own
// machine while a server others can reach does not let its merchants probe
// the network it sits in (docs/webhooks.md).
type sandboxLocal struct {
	mode  string
	guard bool // --webhook-guard-sandbox, the older spelling of "refuse"
}

func (s *sandboxLocal) register(fs *flag.FlagSet, f *flagenv.Set, getenv func(string) string) {
	s.mode = getenv("WEBHOOK_SANDBOX_LOCAL")
	if s.mode == "" {
		s.mode = "auto"
	}
	fs.StringVar(&s.mode, "webhook-sandbox-local", s.mode,
		"whether sandbox webhooks may reach loopback and private addresses: auto (when listening on loopback only), allow or refuse (env WEBHOOK_SANDBOX_LOCAL)")
	f.Bool(&s.guard, "webhook-guard-sandbox", "WEBHOOK_GUARD_SANDBOX",
		"the same as --webhook-sandbox-local=refuse")
}

// destinations decides for a server listening on addr.
func (s sandboxLocal) destinations(addr string) (webhook.Destinations, error) {
	if s.guard {
		return webhook.Destinations{}, nil
	}
	switch s.mode {
	case "allow":
		return webhook.Destinations{SandboxLocal: true}, nil
	case "refuse":
		return webhook.Destinations{}, nil
	case "auto":
		return webhook.Destinations{SandboxLocal: loopbackOnly(addr)}, nil
	}
	return webhook.Destinations{}, fmt.Errorf("serve: --webhook-sandbox-local must be auto, allow or refuse, not %q", s.mode)
}

// loopbackOnly reports whether a server listening on addr can be reached
// from its own machine only: a loopback address or "localhost". An empty
// host (every interface) or any other name is not.
func loopbackOnly(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}
