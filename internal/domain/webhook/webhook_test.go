package webhook

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestBackoffDoublesUpToTheCap(t *testing.T) {
	s := Schedule{MaxAttempts: 10, Base: time.Minute, Max: 10 * time.Minute}
	var got []time.Duration
	for n := 1; n <= 6; n++ {
		got = append(got, s.Backoff(n))
	}
	require.Equal(t, []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute,
		10 * time.Minute, 10 * time.Minute}, got)
	require.False(t, s.Final(9))
	require.True(t, s.Final(10))
	require.Equal(t, 256*time.Minute, DefaultSchedule.Backoff(9), "the default's last wait")
}

func TestSignatureMatchesTheDocumentedScheme(t *testing.T) {
	// HMAC-SHA256("whsec_test", `{"a":1}`), computed independently
	// (printf '{"a":1}' | openssl dgst -sha256 -hmac whsec_test).
	body := []byte(`{"a":1}`)
	require.Equal(t, "sha256=51426af50a41dd7ff2cd3f116594734766d4018d15d6fb07169aee5d2959adf5", Sign("whsec_test", body))
	require.True(t, Verify("whsec_test", body, Sign("whsec_test", body)))
	require.False(t, Verify("whsec_other", body, Sign("whsec_test", body)))

	v2 := SignV2(1700000000, body, "whsec_new", "whsec_old")
	require.Regexp(t, `^t=1700000000,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$`, v2)
	require.True(t, VerifyV2("whsec_new", body, v2, 1700000010, 300))
	require.True(t, VerifyV2("whsec_old", body, v2, 1700000010, 300), "either secret of a rotation verifies")
	require.False(t, VerifyV2("whsec_x", body, v2, 1700000010, 300))
	require.False(t, VerifyV2("whsec_new", body, v2, 1700000400, 300), "too old")
	require.False(t, VerifyV2("whsec_new", body, "v1=abc", 1700000000, 300), "no timestamp")
}

func TestPublicAddress(t *testing.T) {
	for addr, public := range map[string]bool{
		"93.184.216.34": true, "2606:2800:220:1:248:1893:25c8:1946": true, "8.8.8.8": true,
		"127.0.0.1": false, "::1": false, "10.1.1.1": false, "172.16.0.1": false, "192.168.0.1": false,
		"169.254.169.254": false, "fe80::1": false, "fc00::1": false, "0.0.0.0": false, "::": false,
		"100.64.0.1": false, "224.0.0.1": false, "255.255.255.255": false, "::ffff:127.0.0.1": false,
		"::ffff:10.0.0.1": false, "198.18.0.1": false, "2001:db8::1": false,
	} {
		require.Equal(t, public, PublicAddress(netip.MustParseAddr(addr)), addr)
	}
}

func TestURLProblem(t *testing.T) {
	for _, c := range []struct {
		url      string
		livemode bool
		ok       bool
	}{
		{"https://example.com/hooks", true, true},
		{"http://example.com/hooks", true, false},
		{"http://localhost:4242/hooks", false, true},
		{"ftp://example.com", false, false},
		{"https://user:pw@example.com", false, false},
		{"https://example.com/#frag", false, false},
		{"/relative", false, false},
		{"https://", false, false},
		{"https://example.com:0/", false, false},
		{"https://example.com:65535/", false, true},
		{"https://example.com:65536/", false, false},
		{"https://example.com:99999/", false, false},
		{"https://example.com:00443/", false, true},
		{"https://example.com:0000000000080/", false, false},
		{"mailto:a@example.com", false, false},
	} {
		require.Equal(t, c.ok, URLProblem(c.url, c.livemode) == "", c.url)
	}
}
