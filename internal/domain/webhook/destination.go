package webhook

import (
	"net/netip"
	"strconv"
	"strings"
)

// Reach is how far a webhook destination address is from the public
// internet, which decides who may deliver to it.
type Reach int

const (
	// Public addresses are reached by every delivery.
	Public Reach = iota
	// Local addresses (loopback, private, CGNAT, multicast, unspecified,
	// reserved) are reached by sandbox deliveries only, and only when the
	// operator allows it (Destinations.SandboxLocal).
	Local
	// Never addresses (link-local and cloud metadata services) are reached
	// by no delivery: they hand out the host's own credentials.
	Never
)

// metadataAddresses are cloud metadata services outside the link-local
// ranges: AWS's IPv6 endpoint (a ULA), Alibaba Cloud's (in CGNAT space) and
// Azure's wire server (a public address only reachable from inside Azure).
var metadataAddresses = []netip.Prefix{
	netip.MustParsePrefix("fd00:ec2::254/128"),
	netip.MustParsePrefix("100.100.100.200/32"),
	netip.MustParsePrefix("168.63.129.16/32"),
}

// nat64 is the well-known NAT64 prefix: its addresses carry an IPv4
// address in their last four bytes, judged as that address too.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// ReachOf classifies a. IPv4-mapped IPv6 addresses are judged as the IPv4
// address they carry, NAT64 addresses as both themselves and the IPv4
// address they translate to.
func ReachOf(a netip.Addr) Reach {
	a = a.Unmap()
	if a.Is6() && nat64.Contains(a) {
		b := a.As16()
		if ReachOf(netip.AddrFrom4([4]byte(b[12:]))) == Never {
			return Never
		}
	}
	if a.IsLinkLocalUnicast() {
		return Never
	}
	for _, p := range metadataAddresses {
		if p.Contains(a.WithZone("")) {
			return Never
		}
	}
	if PublicAddress(a) {
		return Public
	}
	return Local
}

// metadataNames are the host names cloud metadata services answer on.
var metadataNames = map[string]bool{
	"metadata":                   true,
	"metadata.google.internal":   true,
	"metadata.goog":              true,
	"instance-data":              true,
	"instance-data.ec2.internal": true,
	"metadata.azure.internal":    true,
}

// Host is what an endpoint URL's host names, before any DNS look-up.
type Host struct {
	// Name is the host lower-cased without its trailing dot; it is to be
	// resolved when Literal is false.
	Name string
	// Literal is set when the host is an address, in any spelling.
	Literal bool
	// Addr is that address.
	Addr netip.Addr
	// Reach is the host's reach when known without DNS: for a literal
	// address, a localhost name (Local) or a metadata name (Never).
	Reach Reach
	// Known says Reach is known without DNS.
	Known bool
}

// ParseHost reads a URL's host (url.URL.Hostname: brackets removed) as
// resolvers and browsers would: case and one trailing dot do not matter,
// "localhost" and every name under it are loopback (RFC 6761), and an
// IPv4 address may be written as inet_aton does ("127.1", "0x7f000001",
// "2130706433", "0177.0.0.1"). ok is false for a host whose last label is
// a number that is no IPv4 address ("1.2.3.4.5", "256.0.0.1"): resolvers
// disagree on those.
func ParseHost(host string) (h Host, ok bool) {
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	h.Name = name
	if name == "" || strings.HasSuffix(name, ".") {
		return h, false
	}
	if a, err := netip.ParseAddr(name); err == nil {
		return Host{Name: name, Literal: true, Addr: a, Reach: ReachOf(a), Known: true}, true
	}
	labels := strings.Split(name, ".")
	if numericLabel(labels[len(labels)-1]) {
		a, ok := parseInetAton(labels)
		if !ok {
			return h, false
		}
		return Host{Name: name, Literal: true, Addr: a, Reach: ReachOf(a), Known: true}, true
	}
	switch {
	case metadataNames[name]:
		h.Reach, h.Known = Never, true
	case name == "localhost" || strings.HasSuffix(name, ".localhost"):
		h.Reach, h.Known = Local, true
	}
	return h, true
}

// numericLabel reports whether s is a decimal, octal or hex number as
// inet_aton reads one.
func numericLabel(s string) bool {
	_, ok := parseInetNumber(s)
	return ok || s != "" && strings.Trim(s, "0123456789") == ""
}

// parseInetAton reads 1 to 4 numbers as inet_aton does: the last one fills
// the remaining bytes.
func parseInetAton(labels []string) (netip.Addr, bool) {
	if len(labels) > 4 {
		return netip.Addr{}, false
	}
	var b [4]byte
	for i, l := range labels {
		n, ok := parseInetNumber(l)
		if !ok {
			return netip.Addr{}, false
		}
		if i < len(labels)-1 {
			if n > 0xff {
				return netip.Addr{}, false
			}
			b[i] = byte(n)
			continue
		}
		rest := 4 - i
		if n >= 1<<(8*rest) {
			return netip.Addr{}, false
		}
		for j := 3; j >= i; j-- {
			b[j] = byte(n)
			n >>= 8
		}
	}
	return netip.AddrFrom4(b), true
}

// parseInetNumber reads one inet_aton number: 0x-prefixed hex, 0-prefixed
// octal, or decimal.
func parseInetNumber(s string) (uint64, bool) {
	base := 10
	switch {
	case len(s) > 2 && (s[:2] == "0x"):
		s, base = s[2:], 16
	case s == "0x":
		return 0, true
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	n, err := strconv.ParseUint(s, base, 32)
	return n, err == nil
}
