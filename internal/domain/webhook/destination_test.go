package webhook

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReachOfAddresses(t *testing.T) {
	for addr, want := range map[string]Reach{
		"93.184.216.34": Public, "2606:2800:220:1:248:1893:25c8:1946": Public,
		"127.0.0.1": Local, "::1": Local, "10.1.1.1": Local, "192.168.0.1": Local, "fc00::1": Local,
		"100.64.0.1": Local, "224.0.0.1": Local, "239.1.1.1": Local, "ff02::1:3": Local, "0.0.0.0": Local, "::": Local,
		"::ffff:127.0.0.1": Local, "198.18.0.1": Local,
		"169.254.169.254": Never, "169.254.0.1": Never, "fe80::1": Never, "fe80::1%eth0": Never,
		"::ffff:169.254.169.254": Never, "64:ff9b::a9fe:a9fe": Never, "fd00:ec2::254": Never,
		"100.100.100.200": Never, "168.63.129.16": Never,
	} {
		require.Equal(t, want, ReachOf(netip.MustParseAddr(addr)), addr)
	}
}

func TestParseHostReadsEverySpellingOfAnAddress(t *testing.T) {
	loopback := netip.MustParseAddr("127.0.0.1")
	for _, host := range []string{"127.0.0.1", "127.1", "0x7f000001", "0X7F000001", "2130706433", "0177.0.0.1",
		"0x7f.0.0.1", "127.0.1", "127.0.0.1."} {
		h, ok := ParseHost(host)
		require.True(t, ok, host)
		require.True(t, h.Literal, host)
		require.Equal(t, loopback, h.Addr, host)
		require.Equal(t, Local, h.Reach, host)
	}
	for host, want := range map[string]Reach{
		"localhost": Local, "localhost.": Local, "LOCALHOST": Local, "LocalHost.": Local, "api.localhost": Local,
		"::1": Local, "::ffff:127.0.0.1": Local, "0": Local, "0x0": Local,
		"metadata.google.internal": Never, "METADATA.GOOGLE.INTERNAL.": Never, "metadata": Never,
		"instance-data": Never, "0xa9fea9fe": Never, "169.254.43518": Never,
	} {
		h, ok := ParseHost(host)
		require.True(t, ok, host)
		require.True(t, h.Known, host)
		require.Equal(t, want, h.Reach, host)
	}
	for _, host := range []string{"example.com", "EXAMPLE.com.", "localhost.example.com", "10.example"} {
		h, ok := ParseHost(host)
		require.True(t, ok, host)
		require.False(t, h.Known, "resolved later: "+host)
	}
	for _, host := range []string{"256.0.0.1", "1.2.3.4.5", "example.09", "host..", ""} {
		_, ok := ParseHost(host)
		require.False(t, ok, host)
	}
}

func TestDestinationsAllow(t *testing.T) {
	open, closed := Destinations{SandboxLocal: true}, Destinations{}
	for _, d := range []Destinations{open, closed} {
		require.True(t, d.Allows(Public, true))
		require.True(t, d.Allows(Public, false))
		require.False(t, d.Allows(Local, true), "production never reaches local addresses")
		require.False(t, d.Allows(Never, true))
		require.False(t, d.Allows(Never, false), "nor does the sandbox reach link-local or metadata")
	}
	require.True(t, open.Allows(Local, false))
	require.False(t, closed.Allows(Local, false), "refused unless the operator allows it")
}
