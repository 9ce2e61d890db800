package webhook

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// blocked are destinations a production delivery never reaches besides
// loopback, private, link-local, multicast and unspecified addresses:
// "this network", shared address space (carrier-grade NAT), IETF protocol
// assignments, benchmarking, and the documentation and reserved ranges.
var blocked = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("2001:db8::/32"),
}

// PublicAddress reports whether a production delivery may connect to a:
// a globally routable unicast address. IPv4-mapped IPv6 addresses are
// judged as the IPv4 address they carry.
func PublicAddress(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() || !a.IsGlobalUnicast() {
		return false
	}
	for _, p := range blocked {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// maxPort is the highest TCP port.
const maxPort = 65535

// MaxURLLength bounds an endpoint URL.
const MaxURLLength = 2048

// URLProblem returns why raw is not an acceptable endpoint URL in the mode
// (production: https only), or "" when it is. Addresses are checked later,
// once the host is resolved (and again at every delivery).
func URLProblem(raw string, livemode bool) string {
	if len(raw) > MaxURLLength {
		return "must be at most 2048 characters"
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || u.Opaque != "":
		return "must be an absolute http(s) URL"
	case u.User != nil:
		return "must not carry credentials"
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return "must not carry a fragment"
	case livemode && u.Scheme != "https":
		return "must use https in production mode"
	case u.Scheme != "https" && u.Scheme != "http":
		return "must use https (or http in the sandbox)"
	case u.Hostname() == "":
		return "must name a host"
	}
	if port := u.Port(); port != "" {
		// url.Parse leaves only digits here, but of any length: a port
		// is 1 to 65535, and a dial of 65536 or 99999 could only fail
		// (or, parsed modulo 2^16 by some client, reach another port).
		if n, err := strconv.Atoi(port); len(port) > 5 || err != nil || n < 1 || n > maxPort {
			return "has an invalid port (1 to 65535)"
		}
	}
	return ""
}
